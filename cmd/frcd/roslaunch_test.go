package main

// frcd as a ROS node started by Debian's roslaunch: the shipped package
// manifest and launch file, a namespace, a remapping, a private parameter,
// rosnode kill ending the process with exit status 4, and respawn.

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/tooltest"
)

var (
	roslaunchTool = tooltest.Tool{Name: "roslaunch", Package: "python3-roslaunch"}
	rospackTool   = tooltest.Tool{Name: "rospack", Package: "rospack-tools"}
)

// rosPackage lays out the frcd package as a ROS user has it: the
// repository's package.xml, launch/ and examples/, and bin/frcd (here a
// script running this test binary as frcd). It returns the directory for
// ROS_PACKAGE_PATH.
func rosPackage(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	pkg := filepath.Join(root, "frcd")
	if err := os.MkdirAll(filepath.Join(pkg, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile("../../package.xml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "package.xml"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"launch", "examples"} {
		abs, err := filepath.Abs(filepath.Join("../..", dir))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, filepath.Join(pkg, dir)); err != nil {
			t.Fatal(err)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf("#!/bin/sh\nFRCD_RUN_MAIN=1 exec %q \"$@\"\n", self)
	if err := os.WriteFile(filepath.Join(pkg, "bin", "frcd"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

// rosnodePid is a node's pid as rosnode info reports it, or 0.
func rosnodePid(e *tooltest.ROS, node string) int {
	out, err := e.Run("rosnode", "info", node)
	if err != nil {
		return 0
	}
	m := regexp.MustCompile(`Pid: (\d+)`).FindStringSubmatch(out)
	if m == nil {
		return 0
	}
	pid, _ := strconv.Atoi(m[1])
	return pid
}

func TestROSLaunch(t *testing.T) {
	if testing.Short() {
		t.Skip("runs roslaunch and the ROS tools for about 20 s: skipped with -short")
	}
	tooltest.Require(t, roslaunchTool, rospackTool, tooltest.Rosmaster, tooltest.Rostopic, tooltest.Rosnode, tooltest.Rosparam, tooltest.Rosservice, tooltest.RobotStatePublisher)
	port := tooltest.FreePort(t)
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", port))
	pkgPath := rosPackage(t)
	e.Vars = append(e.Vars, "ROS_PACKAGE_PATH="+pkgPath, "PYTHONUNBUFFERED=1")
	if out := e.MustRun(t, "rospack", "find", "frcd"); strings.TrimSpace(out) != filepath.Join(pkgPath, "frcd") {
		t.Fatalf("rospack find frcd: %q", out)
	}
	e.Start(t, "rosmaster", "--core", "-p", strconv.Itoa(port))
	tooltest.Eventually(t, 30*time.Second, "rosmaster answering", func() bool {
		_, err := e.Run("rosparam", "list")
		return err == nil
	})

	// The shipped two_robots.launch: frcd.launch included twice, in
	// /robot1 and in /robot2 with a remapping and a publish_rate argument
	// (frcd's private parameter).
	ctx, cancel := context.WithCancel(context.Background())
	// NT4 off: other tests on this machine may hold any fixed port.
	cmd := e.Command(ctx, "roslaunch", "frcd", "two_robots.launch", "nt1:=off", "nt2:=off")
	var out tooltest.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) // roslaunch stops its nodes
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cancel()
			<-done
		}
		cancel()
		if t.Failed() {
			t.Logf("roslaunch output:\n%s", out.String())
		}
	})

	var pid int
	tooltest.Eventually(t, 60*time.Second, "/robot1/frcd and /robot2/frcd registered", func() bool {
		pid = rosnodePid(e, "/robot2/frcd")
		return pid != 0 && rosnodePid(e, "/robot1/frcd") != 0
	})
	topics := e.MustRun(t, "rostopic", "list")
	for _, want := range []string{"/robot1/joint_states", "/robot2/joints", "/robot1/shoulder_voltage/command", "/robot2/shoulder_voltage/command", "/robot2/sim/push", "/robot1/navx/imu", "/diagnostics"} {
		if !strings.Contains(topics, want+"\n") {
			t.Errorf("rostopic list lacks %s:\n%s", want, topics)
		}
	}
	if strings.Contains(topics, "\n/joint_states\n") || strings.Contains(topics, "/robot2/joint_states\n") {
		t.Errorf("a joint_states outside the namespaces, or not remapped:\n%s", topics)
	}
	if got := strings.TrimSpace(e.MustRun(t, "rosparam", "get", "/robot2/frcd/publish_rate")); got != "25" {
		t.Errorf("/robot2/frcd/publish_rate = %q", got)
	}
	for _, ns := range []string{"/robot1", "/robot2"} {
		if got := e.MustRun(t, "rosparam", "get", ns+"/robot_description"); !strings.Contains(got, "<robot") {
			t.Errorf("%s/robot_description: %.100s", ns, got)
		}
	}
	services := e.MustRun(t, "rosservice", "list")
	for _, want := range []string{"/robot1/frcd/enable", "/robot2/frcd/enable", "/robot2/frcd/list_controllers"} {
		if !strings.Contains(services, want+"\n") {
			t.Errorf("rosservice list lacks %s:\n%s", want, services)
		}
	}
	// Each robot its own: a push to robot2 moves robot2's hood only.
	e.MustRun(t, "rostopic", "pub", "-1", "/robot2/sim/push", "sensor_msgs/JointState", "{name: [hood_joint], position: [0.5]}")
	hood := func(topic string) string {
		out := e.MustRun(t, "rostopic", "echo", "-n", "1", topic+"/position")
		return out
	}
	tooltest.Eventually(t, 30*time.Second, "robot2's hood at 0.5", func() bool {
		return strings.Contains(hood("/robot2/sim/joint_states_truth"), "0.5")
	})
	if h1 := hood("/robot1/sim/joint_states_truth"); strings.Contains(h1, "0.5,") {
		t.Errorf("robot1's joints after a push to robot2: %s", h1)
	}
	// Eleven stamps (the loop's time of each message): ten periods.
	stamps := regexp.MustCompile(`secs: (\d+)\s+nsecs: +(\d+)`).FindAllStringSubmatch(
		e.MustRun(t, "rostopic", "echo", "-n", "11", "/robot2/joints/header/stamp"), -1)
	if len(stamps) != 11 {
		t.Fatalf("stamps: %v", stamps)
	}
	at := func(m []string) time.Duration {
		s, _ := strconv.ParseInt(m[1], 10, 64)
		ns, _ := strconv.ParseInt(m[2], 10, 64)
		return time.Duration(s)*time.Second + time.Duration(ns)
	}
	// The stamps are the loop's times, so a loaded machine that makes
	// the loop miss cycles widens some gaps; the publisher never sends
	// faster than its rate, and at its rate whenever the loop keeps time.
	// The shortest gap tells both: 40 ms, where the default rate gives 20;
	// a publication a cycle late brings the next one a cycle sooner (the
	// publisher keeps its cadence, internal/ratelimit.Cadence), so down
	// to 40 ms less a cycle and its jitter.
	shortest := time.Duration(math.MaxInt64)
	for i := 1; i < len(stamps); i++ {
		shortest = min(shortest, at(stamps[i])-at(stamps[i-1]))
	}
	if shortest < 25*time.Millisecond || shortest > 45*time.Millisecond {
		t.Errorf("/robot2/joints: shortest gap between stamps %s, want 40ms (publish_rate 25)", shortest)
	}

	// rosnode kill takes the node off the graph, never the robot program
	// (anyone on the network can send it): the same process registers
	// again.
	e.MustRun(t, "rosnode", "kill", "/robot2/frcd")
	tooltest.Eventually(t, 30*time.Second, "frcd reporting its node shut down", func() bool {
		return strings.Contains(out.String(), "ROS node is down, the robot runs on: ros: the master shut this node down: /rosnode")
	})
	tooltest.Eventually(t, 60*time.Second, "the same frcd registered again", func() bool {
		return strings.Contains(out.String(), "ROS node is up") && rosnodePid(e, "/robot2/frcd") == pid
	})
	// roslaunch says "[robot2/frcd-3] process has died [pid …, exit code …"
	// of a node that ends (a robot_state_publisher started before
	// robot_description was set may, and is not frcd)
	if died := regexp.MustCompile(`frcd-\d+\] process has died`).FindString(out.String()); died != "" {
		t.Errorf("an frcd exited on rosnode kill: %s", died)
	}
	t.Logf("pid %d: off the graph on rosnode kill, registered again", pid)
}
