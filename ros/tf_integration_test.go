package ros_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
)

// tfReport is testdata/tfcheck.py's answer.
type tfReport struct {
	Root          string
	Links         int
	Missing       map[string]string
	TFNaN         int  `json:"tf_nan"`
	JointStates   int  `json:"joint_states"`
	NamesChanged  bool `json:"names_changed"`
	PositionNaN   int  `json:"position_nan"`
	LengthsDiffer int  `json:"lengths_differ"`
	Names         []string
}

var tf2Python = tooltest.Tool{Name: "/usr/lib/python3/dist-packages/tf2_ros/__init__.py", Package: "python3-tf2-ros"}

// TestTFTree: for every example robot, robot_state_publisher on frcd's
// /joint_states gives tf2 (as tf_echo uses it) every link from the root,
// unmeasured joints' links too, with no NaN in any transform; every
// /joint_states names every movable joint, in the first message's order,
// with a position that is never NaN.
func TestTFTree(t *testing.T) {
	integration(t, tooltest.RobotStatePublisher, tooltest.Rostopic)
	tooltest.RequireFile(t, tf2Python.Name, "the Debian package "+tf2Python.Package)
	dirs, err := filepath.Glob("../examples/*/robot.urdf")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("examples: %v %v", dirs, err)
	}
	for _, urdfPath := range dirs {
		dir := filepath.Dir(urdfPath)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			r, list, err := robot.Load(urdfPath, filepath.Join(dir, "robot.yaml"))
			if err != nil || list.Errors() > 0 {
				t.Fatalf("%v %v", err, list)
			}
			text, err := os.ReadFile(urdfPath)
			if err != nil {
				t.Fatal(err)
			}
			e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", freePort(t)))
			d, err := daemon.NewSim(r, daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{ROS: &daemon.ROSOptions{
				Env: ros.Env{MasterURI: e.MasterURI, IP: "127.0.0.1"}, Master: ros.MasterEmbedded, URDF: string(text), Logf: t.Logf, Namespace: "bot",
			}})
			if err != nil {
				t.Fatal(err)
			}
			f := &frcd{d: d, Service: tooltest.Serve(t, d.Run)}
			f.registered(t, 1)
			rsp := append([]string(nil), e.Vars...)
			e.Vars = append(e.Vars, "ROS_NAMESPACE=bot")
			e.Start(t, tooltest.RobotStatePublisher.Name)
			e.Vars = rsp
			out := e.MustRun(t, "/usr/bin/python3", "testdata/tfcheck.py", "/bot", "20")
			var rep tfReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("tfcheck: %v\n%s", err, out)
			}
			t.Logf("%s: root %s, %d links, %d joint states, names %v", filepath.Base(dir), rep.Root, rep.Links, rep.JointStates, rep.Names)
			if len(rep.Missing) > 0 || rep.TFNaN > 0 {
				t.Errorf("tf2: %d transforms with NaN; links it cannot reach from %s: %v", rep.TFNaN, rep.Root, rep.Missing)
			}
			if rep.JointStates < 20 || rep.NamesChanged || rep.PositionNaN > 0 || rep.LengthsDiffer > 0 || len(rep.Names) != len(r.Joints) {
				t.Errorf("/bot/joint_states: %+v; the robot has %d movable joints", rep, len(r.Joints))
			}
		})
	}
}
