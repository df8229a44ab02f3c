package ros_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros"
)

// genControlMsgs generates the Python package control_msgs (its
// JointControllerState and JointTrajectoryControllerState) with genpy from frcd's ctlmsgs/ (Debian has no
// control_msgs), and returns the directory for PYTHONPATH.
func genControlMsgs(t *testing.T, e *tooltest.ROS) string {
	t.Helper()
	out := t.TempDir()
	dir := filepath.Join(out, "control_msgs", "msg")
	files, err := filepath.Glob("ctlmsgs/msg/*.msg")
	if err != nil || len(files) == 0 {
		t.Fatalf("ctlmsgs/msg: %v", err)
	}
	traj, err := filepath.Abs("ctlmsgs/trajectory_msgs") // JointTrajectoryControllerState's points
	if err != nil {
		t.Fatal(err)
	}
	gen := "/usr/lib/genpy/genmsg_py.py"
	e.MustRun(t, "/usr/bin/python3", append([]string{gen, "-p", "control_msgs", "-Istd_msgs:/usr/share/std_msgs/msg", "-Itrajectory_msgs:" + traj, "-o", dir}, files...)...)
	e.MustRun(t, "/usr/bin/python3", gen, "--initpy", "-p", "control_msgs", "-o", dir)
	if err := os.WriteFile(filepath.Join(out, "control_msgs", "__init__.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPositionStateHolds: one rostopic pub -1 position set point to the
// competition robot's hood (a position PID on the roboRIO) holds while
// enabled, past the loop's command_timeout, and the controller's
// control_msgs/JointControllerState on /hood_position/state, read by
// rostopic with the types genpy makes of control_msgs' definition, shows
// its set point and the measured position reaching it.
func TestPositionStateHolds(t *testing.T) {
	integration(t, tooltest.Rostopic, genpy)
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", freePort(t)))
	d, err := daemon.NewSim(exampleRobot(t), daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{ROS: &daemon.ROSOptions{
		Env: ros.Env{MasterURI: e.MasterURI, IP: "127.0.0.1"}, Master: ros.MasterEmbedded, Logf: t.Logf,
	}})
	if err != nil {
		t.Fatal(err)
	}
	f := &frcd{d: d, Service: tooltest.Serve(t, d.Run)}
	f.registered(t, 1)
	e.Vars = append(e.Vars, "PYTHONPATH="+genControlMsgs(t, e))
	field := func(name string) float64 {
		out := e.MustRun(t, tooltest.Rostopic.Name, "echo", "-n", "1", "/hood_position/state/"+name)
		v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(out), "---")), 64)
		if err != nil {
			t.Fatalf("%s: %q: %v", name, out, err)
		}
		return v
	}
	e.MustRun(t, tooltest.Rostopic.Name, "pub", "-1", "/hood_position/command", "std_msgs/Float64", "0.3")
	start := d.Now()
	tooltest.Eventually(t, 20*time.Second, "the hood at 0.3 two seconds on", func() bool {
		return d.Now()-start > 2*time.Second && field("set_point") == 0.3 && field("process_value") > 0.28
	})
	snap := d.Loop.NewSnapshot()
	d.Loop.ReadSnapshot(snap)
	for _, j := range snap.Joints {
		if j.Name == "hood_joint" {
			t.Logf("hood %.3f rad, %s after the one command", j.State.Position, d.Now()-start)
		}
	}
	if p := field("p"); p != 20 {
		t.Errorf("state p %v, want the YAML's 20", p)
	}
}
