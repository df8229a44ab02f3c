package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros2msg"
)

// stateEvent is a line of testdata/ros2/state_topics.c.
type stateEvent struct {
	Topic    string  `json:"topic"`
	N        int     `json:"n"`
	Parent   string  `json:"parent"`
	Child    string  `json:"child"`
	X        float64 `json:"x"`
	W        float64 `json:"w"`
	Level    int     `json:"level"`
	Name     string  `json:"name"`
	Msg      string  `json:"msg"`
	First    string  `json:"first"`
	TypeHash string  `json:"typehash"`
}

// TestROS2StateInterop runs `frcd run --sim --ros 2` on the competition
// robot, then a Cyclone DDS C subscriber (frcd with ROS_DISTRO=jazzy: type
// hashes) and a Fast DDS C++ one (ROS_DISTRO=humble: none), types by idlc
// and fastddsgen from testdata/ros2/State.idl, each joining late: it gets /tf_static (transient
// local) with the URDF's fixed joints, /rosout's first line ("ros2: node
// up", INFO, logger frcd) from before it started, and /diagnostics with
// the loop first; each writer's USER_DATA, as Cyclone reads it, is
// Jazzy's typehash=RIHS01_...; with the type's hash. Skipped when a tool is
// missing, unless FRCD_REQUIRE_TOOLS=1.
func TestROS2StateInterop(t *testing.T) {
	if testing.Short() {
		t.Skip("runs frcd and a Cyclone DDS peer: skipped with -short")
	}
	for _, p := range []struct {
		*ddstest.Peer
		src      string
		userData bool   // the peer reads the writer's USER_DATA
		distro   string // frcd's ROS_DISTRO: jazzy sends type hashes
		domain   int
	}{{ddstest.Cyclone, "testdata/ros2/state_topics.c", true, "jazzy", ddstest.Domain() + 1},
		{ddstest.FastDDS, "testdata/ros2/state_topics.cpp", false, "humble", ddstest.Domain() + 2}} {
		t.Run(p.Name, func(t *testing.T) {
			bin := p.Program(t, p.src, "testdata/ros2/State.idl")
			startROS2Frcd(t, p.domain, p.distro)
			hash := func(rosType string) string {
				if !p.userData {
					return ""
				}
				h, err := ros2msg.TypeHash(rosType)
				if err != nil {
					t.Fatal(err)
				}
				return "typehash=" + h + ";"
			}
			sub := tooltest.StartJSON[stateEvent](t, ddstest.Env(p.domain), bin)
			// The three topics arrive in any order (the peer's readers
			// match frcd's writers one by one): each one's first.
			got := map[string]stateEvent{}
			sub.Wait("/tf_static, /rosout's first line and /diagnostics", func(e stateEvent) bool {
				want := e.Topic == "tf_static" || e.Topic == "diagnostics" || e.Topic == "rosout" && strings.HasPrefix(e.Msg, "ros2: node up")
				if _, seen := got[e.Topic]; want && !seen {
					got[e.Topic] = e
				}
				return len(got) == 3
			})
			tf, up, dg := got["tf_static"], got["rosout"], got["diagnostics"]
			if tf.N != 2 || tf.Parent != "base_link" || tf.Child != "front_bumper" || tf.X != 0.42 || tf.W != 1 || tf.TypeHash != hash("tf2_msgs/msg/TFMessage") {
				t.Errorf("/tf_static %+v", tf)
			}
			if up.Level != int(ros2msg.LogInfo) || up.Name != "frcd" || up.TypeHash != hash("rcl_interfaces/msg/Log") {
				t.Errorf("/rosout %+v", up)
			}
			if dg.N < 10 || dg.First != "frcd: loop" || dg.TypeHash != hash("diagnostic_msgs/msg/DiagnosticArray") {
				t.Errorf("/diagnostics %+v", dg)
			}
		})
	}
}

// startROS2Frcd runs `frcd run --sim --ros 2` on the competition robot on
// domain, with ROS_DISTRO distro, until the test ends; it returns once the
// node is up.
func startROS2Frcd(t *testing.T, domain int, distro string) {
	t.Helper()
	const urdf, yaml = "../../examples/competition/robot.urdf", "../../examples/competition/robot.yaml"
	cmd := frcdProcess("run", "--sim", "--ros", "2", "--status", "1h", "--wpilibws", "off", "--nt", "off", urdf, yaml)
	cmd.Env = append(cmd.Env, fmt.Sprintf("ROS_DOMAIN_ID=%d", domain), "ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST", "ROS_DISTRO="+distro)
	out, stderr := startChild(t, cmd)
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() })
	guard := time.AfterFunc(2*tooltest.Timeout, func() { _ = cmd.Process.Kill() })
	t.Cleanup(func() { guard.Stop() })
	sc := bufio.NewScanner(out)
	for sc.Scan() && !strings.Contains(sc.Text(), "frcd: ROS 2 node /frcd") {
	}
	if sc.Err() != nil || !strings.Contains(sc.Text(), "frcd: ROS 2 node /frcd") {
		_ = cmd.Process.Kill()
		t.Fatalf("no ROS 2 node line\nstderr:\n%s", stderr.String())
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()

}
