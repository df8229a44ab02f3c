package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/jointstate"
	"github.com/frcd/frcd/robot"
)

func TestParseROS(t *testing.T) {
	for _, c := range []struct {
		flag       string
		noROS      bool
		ros1, ros2 bool
		bad        bool
	}{
		{"1", false, true, false, false}, {"2", false, false, true, false}, {"both", false, true, true, false},
		{"none", false, false, false, false}, {"2", true, false, false, false}, {"3", false, false, false, true},
	} {
		got, err := parseROS(c.flag, c.noROS)
		if (err != nil) != c.bad || got.ros1 != c.ros1 || got.ros2 != c.ros2 {
			t.Errorf("parseROS(%q, %v) = %+v, %v", c.flag, c.noROS, got, err)
		}
	}
	if code, _, stderr := runFrcd("run", "--sim", "--ros", "3", "x.urdf", "x.yaml"); code != exitUsage || !strings.Contains(stderr, "--ros 3: want 1, 2, both or none") {
		t.Errorf("--ros 3: exit %d, %s", code, stderr)
	}
}

// jsEvent is a line of testdata/ros2/joint_states.c (and of its twins,
// joint_states.cpp and test/rtps/joint_states.js).
type jsEvent struct {
	Event  string   `json:"event"`
	Error  string   `json:"error"`
	N      int      `json:"n"`
	First  string   `json:"first"`
	Finite int      `json:"finite"`
	Sec    int64    `json:"sec"`
	Names  []string `json:"names"`
}

// loopJointNames are the names of /joint_states for a robot, in the
// loop's order, from a NewSim of it.
func loopJointNames(t *testing.T, urdf, yaml string) []string {
	t.Helper()
	r, list, err := robot.Load(urdf, yaml)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	d, err := daemon.NewSim(r, daemon.SimOptions{}, daemon.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	return jointstate.New(d.Loop.NewSnapshot(), nil).Names
}

// TestROS2JointStatesInterop runs frcd on the sim with --ros both (as a
// child process, its --ros-args naming the ROS 2 node; ROS 1 with its
// embedded master beside it), and subscribers of /joint_states on
// Cyclone DDS (C, Debian's cyclonedds-dev, the type by idlc) and Fast DDS
// (C++, libfastrtps-dev, the type by fastddsgen), one after the other:
// each it gets every joint, in the loop's order, finite,
// stamped now. Skipped when a tool is missing, unless FRCD_REQUIRE_TOOLS=1.
func TestROS2JointStatesInterop(t *testing.T) {
	if testing.Short() {
		t.Skip("runs frcd and a Cyclone DDS peer: skipped with -short")
	}
	const urdf, yaml = "../../examples/competition/robot.urdf", "../../examples/competition/robot.yaml"
	names := loopJointNames(t, urdf, yaml)

	domain := ddstest.Domain()
	uri := fmt.Sprintf("http://127.0.0.1:%d", tooltest.FreePort(t))
	cmd := frcdProcess("run", "--sim", "--ros", "both", "--status", "1h", "--wpilibws", "off", "--nt", "off", urdf, yaml,
		"--ros-args", "-r", "__node:=frcd_ros2", "--")
	cmd.Env = append(cmd.Env, fmt.Sprintf("ROS_DOMAIN_ID=%d", domain), "ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST", "ROS_MASTER_URI="+uri, "ROS_IP=127.0.0.1")
	out, stderr := startChild(t, cmd)
	// A guard against a hung child only: the test waits on output.
	guard := time.AfterFunc(2*tooltest.Timeout, func() { _ = cmd.Process.Kill() })
	defer guard.Stop()
	sc := bufio.NewScanner(out)
	want := fmt.Sprintf("frcd: ROS 2 node /frcd_ros2, domain %d, on 127.0.0.1; publishing /joint_states every 20ms", domain)
	var lines []string
	for sc.Scan() && !strings.Contains(sc.Text(), want) {
		lines = append(lines, sc.Text())
	}
	// ROS 1 beside it: its node and embedded master.
	ros1 := "frcd: ROS node /frcd, master " + uri + "/ (embedded)"
	if sc.Err() != nil || !strings.Contains(sc.Text(), want) || !strings.Contains(strings.Join(lines, "\n"), ros1) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("no lines %q and %q in\n%s\nstderr:\n%s", ros1, want, strings.Join(lines, "\n"), stderr.String())
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()

	for _, p := range []struct {
		*ddstest.Peer
		src string
	}{{ddstest.Cyclone, "testdata/ros2/joint_states.c"}, {ddstest.FastDDS, "testdata/ros2/joint_states.cpp"}} {
		t.Run(p.Name, func(t *testing.T) {
			bin := p.Program(t, p.src, "testdata/ros2/JointState.idl")
			const count = 20
			sub := tooltest.StartJSON[jsEvent](t, ddstest.Env(domain), bin, fmt.Sprint(count))
			sub.Wait("the peer's reader matched", func(e jsEvent) bool { return e.Event == "matched" })
			now := time.Now().Unix()
			for i := 0; i < count; i++ {
				e := sub.Wait(fmt.Sprintf("joint state %d", i), func(e jsEvent) bool { return e.Event == "" })
				if e.N != len(names) || !slices.Equal(e.Names, names) || e.Finite != 1 || e.Sec < now-5 || e.Sec > now+5 {
					t.Fatalf("joint state %d: %+v, want the joints %q, finite, stamped about %d", i, e, names, now)
				}
			}
		})
	}
	terminate(t, cmd, stderr)
}

// terminate sends SIGTERM to a frcd child (startChild's) and fails the
// test unless it exits 0.
func terminate(t *testing.T, cmd *exec.Cmd, stderr *strings.Builder) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var exit *exec.ExitError
	if err := cmd.Wait(); errors.As(err, &exit) {
		t.Fatalf("exit %d after SIGTERM\nstderr:\n%s", exit.ExitCode(), stderr.String())
	} else if err != nil {
		t.Fatal(err)
	}
}
