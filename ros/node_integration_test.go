package ros_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/ros/master"
)

// namedDaemon is the example robot as node NS/frcd, not yet running.
func namedDaemon(t *testing.T, e *tooltest.ROS, ns string, mode ros.MasterMode) *daemon.Daemon {
	t.Helper()
	text, err := os.ReadFile(exampleURDF)
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.NewSim(exampleRobot(t), daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{ROS: &daemon.ROSOptions{
		Env: ros.Env{MasterURI: e.MasterURI, IP: "127.0.0.1"}, Master: mode, URDF: string(text), Logf: t.Logf, Namespace: ns,
	}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// running is a daemon's Run in a goroutine; its error arrives on done.
type running struct {
	cancel context.CancelFunc
	done   chan struct{} // closed when Run has returned err
	err    error
}

func runDaemon(t *testing.T, d *daemon.Daemon) *running {
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{cancel: cancel, done: make(chan struct{})}
	go func() { r.err = d.Run(ctx); close(r.done) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-r.done:
		case <-time.After(tooltest.Timeout):
			t.Error("a daemon did not stop")
		}
	})
	select {
	case <-d.Bridge.Registered(1):
	case <-r.done:
		t.Fatalf("stopped before registering: %v", r.err)
	case <-time.After(tooltest.Timeout):
		t.Fatal("no registration")
	}
	return r
}

// TestDuplicateNodeName: a second frcd of a running one's node name (the
// same namespace) stays off the graph, saying so, and does not shut the
// first down; it registers once the first has stopped. A robot in
// another namespace is left alone.
func TestDuplicateNodeName(t *testing.T) {
	integration(t, tooltest.Rosmaster, tooltest.Rostopic, tooltest.Rosnode)
	port := freePort(t)
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", port))
	e.Start(t, "rosmaster", "--core", "-p", strconv.Itoa(port))
	first := namedDaemon(t, e, "/robot1/", ros.MasterExternal) // trailing slash: any spelling
	r1 := runDaemon(t, first)
	other := namedDaemon(t, e, "robot2", ros.MasterExternal)
	runDaemon(t, other)

	e.Start(t, "rostopic", "pub", "-r", "20", "/robot1/shoulder_voltage/command", "std_msgs/Float64", "data: 4.0")
	eventually(t, "robot1's shoulder under 4 V", func() bool {
		j, _ := first.Sim.Joint("shoulder_joint")
		return j.Voltage > 3
	})
	if j, _ := other.Sim.Joint("shoulder_joint"); j.Voltage != 0 {
		t.Errorf("robot2's shoulder at %v V from robot1's command", j.Voltage)
	}

	second := namedDaemon(t, e, "robot1", ros.MasterExternal)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { _ = second.Run(ctx); close(stopped) }()
	t.Cleanup(func() { cancel(); <-stopped })
	eventually(t, "the second frcd saying the name is held", func() bool {
		return strings.Contains(second.Down()[daemon.PartNode], "/robot1/frcd is held by the running node")
	})
	if second.Bridge.Stats().Connected || !first.Bridge.Stats().Connected || first.Bridge.Stats().Connects != 1 {
		t.Errorf("second %+v, first %+v: want the first registered once, the second not", second.Bridge.Stats(), first.Bridge.Stats())
	}
	if j, _ := first.Sim.Joint("shoulder_joint"); j.Voltage < 3 {
		t.Errorf("the first frcd's shoulder at %v V beside a second of its name", j.Voltage)
	}
	r1.cancel()
	<-r1.done
	select {
	case <-second.Bridge.Registered(1):
	case <-time.After(tooltest.Timeout):
		t.Fatal("the second frcd did not register once the first stopped")
	}
	eventually(t, "the second frcd driving robot1's shoulder", func() bool {
		j, _ := second.Sim.Joint("shoulder_joint")
		return j.Voltage > 3
	})
	if out := e.MustRun(t, "rosnode", "list"); !strings.Contains(out, "/robot1/frcd\n") || !strings.Contains(out, "/robot2/frcd\n") {
		t.Errorf("rosnode list:\n%s", out)
	}
	if other.Bridge.Stats().Connects != 1 || !other.Bridge.Stats().Connected {
		t.Errorf("robot2's bridge: %+v", other.Bridge.Stats())
	}
}

// TestRosout: frcd's warnings reach /rosout from its node at WARN (4),
// its connection news at INFO (2).
func TestRosout(t *testing.T) {
	integration(t, tooltest.Rostopic)
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", freePort(t)))
	e.Vars = append(e.Vars, "PYTHONUNBUFFERED=1")
	d := namedDaemon(t, e, "bot", ros.MasterEmbedded)
	runDaemon(t, d)
	echo := startProcess(t, e, "rostopic", "echo", "/rosout")
	bad := "{name: [no_such_joint], position: [0.5]}"
	eventually(t, "the refused push's warning on /rosout", func() bool {
		e.MustRun(t, "rostopic", "pub", "-1", "/bot/sim/push", "sensor_msgs/JointState", bad)
		out := echo.String()
		i := strings.Index(out, "no_such_joint")
		return i > 0 && strings.Contains(out[max(0, i-400):i], "level: 4") && strings.Contains(out[max(0, i-400):i], `name: "/bot/frcd"`)
	})
}

// TestRosmsgShow: rosmsg knows every message type frcd publishes or
// takes (make deps installs their definitions).
func TestRosmsgShow(t *testing.T) {
	integration(t, tooltest.Tool{Name: "rosmsg", Package: "python3-rosmsg"})
	e := tooltest.NewROS(t, "http://127.0.0.1:1")
	for _, m := range []string{"sensor_msgs/JointState", "sensor_msgs/Imu", "sensor_msgs/BatteryState", "sensor_msgs/Joy",
		"std_msgs/Float64MultiArray", "std_msgs/Bool", "std_msgs/Int8", "std_msgs/String", "diagnostic_msgs/DiagnosticArray",
		"nav_msgs/Odometry", "rosgraph_msgs/Log"} {
		if out := e.MustRun(t, "rosmsg", "show", m); !strings.Contains(out, "\n") {
			t.Errorf("rosmsg show %s: %q", m, out)
		}
	}
}

// TestEmbeddedMasterTakeover: two robots on the embedded master of the
// first; the first stops, its master with it. The second starts the
// embedded master again from the state file and registers again, and a
// rostopic echo of its joint states that ran all along receives again.
func TestEmbeddedMasterTakeover(t *testing.T) {
	integration(t, tooltest.Rostopic)
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", freePort(t)))
	e.Vars = append(e.Vars, "PYTHONUNBUFFERED=1")
	home := t.TempDir()
	start := func(ns string) (*daemon.Daemon, *running) {
		text, err := os.ReadFile(exampleURDF)
		if err != nil {
			t.Fatal(err)
		}
		d, err := daemon.NewSim(exampleRobot(t), daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{ROS: &daemon.ROSOptions{
			Env: ros.Env{MasterURI: e.MasterURI, IP: "127.0.0.1", Home: home}, Master: ros.MasterEmbedded, URDF: string(text), Logf: t.Logf, Namespace: ns,
		}})
		if err != nil {
			t.Fatal(err)
		}
		return d, runDaemon(t, d)
	}
	first, r1 := start("robot1")
	second, _ := start("robot2")
	if first.Bridge.Stats().EmbeddedURI == "" || second.Bridge.Stats().EmbeddedURI != "" {
		t.Fatalf("the first should host the master: %+v / %+v", first.Bridge.Stats(), second.Bridge.Stats())
	}
	echo := startProcess(t, e, "rostopic", "echo", "/robot2/joint_states/header/seq")
	eventually(t, "rostopic echo receiving", func() bool { return strings.Count(echo.String(), "\n") > 10 })
	r1.cancel()
	<-r1.done
	select {
	case <-second.Bridge.Registered(2):
	case <-time.After(tooltest.Timeout):
		t.Fatal("the second frcd did not register again")
	}
	if second.Bridge.Stats().EmbeddedURI == "" {
		t.Errorf("the second frcd does not host the master: %+v", second.Bridge.Stats())
	}
	n := strings.Count(echo.String(), "\n")
	eventually(t, "the running rostopic echo receiving from the new master's robot2", func() bool {
		return strings.Count(echo.String(), "\n") > n+10
	})
}

// TestStrangerCannotStopTheRobot: a client on the network registering the
// daemon's name with its embedded master is refused, and the daemon's
// node untouched; a shutdown request sent to the node's API takes it off
// the graph (reported: the part "ROS node" down, with why), and it
// registers again while the loop runs on; Run never returns.
func TestStrangerCannotStopTheRobot(t *testing.T) {
	text, err := os.ReadFile(exampleURDF)
	if err != nil {
		t.Fatal(err)
	}
	uri := fmt.Sprintf("http://127.0.0.1:%d", freePort(t))
	d, err := daemon.NewSim(exampleRobot(t), daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{ROS: &daemon.ROSOptions{
		Env: ros.Env{MasterURI: uri, IP: "127.0.0.1", Home: t.TempDir()}, Master: ros.MasterEmbedded, URDF: string(text), Logf: t.Logf,
	}})
	if err != nil {
		t.Fatal(err)
	}
	r := runDaemon(t, d)
	ctx := context.Background()
	call := func(url, method string, args ...any) []any {
		t.Helper()
		v, err := master.Call(ctx, url, method, args...)
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		res, _ := v.([]any)
		return res
	}
	res := call(uri, "registerPublisher", "/frcd", "/x", "std_msgs/String", "http://127.0.0.1:9/")
	if len(res) != 3 || res[0] != -1 || !strings.Contains(fmt.Sprint(res[1]), "held by the running node") {
		t.Errorf("a stranger's registerPublisher of /frcd: %v", res)
	}
	api := call(uri, "lookupNode", "/t", "/frcd")[2]
	if s := d.Bridge.Stats(); !s.Connected || s.Connects != 1 || !strings.HasPrefix(fmt.Sprint(api), "http://127.0.0.1:") {
		t.Fatalf("after the stranger's registration: %+v, /frcd at %v", s, api)
	}
	snap := d.Loop.NewSnapshot()
	d.Loop.ReadSnapshot(snap)
	cycles := snap.Stats.Cycles
	call(fmt.Sprint(api), "shutdown", "/attacker", "go away")
	eventually(t, "the node reported off the graph", func() bool {
		return strings.Contains(d.Down()[daemon.PartNode], "the master shut this node down: /attacker")
	})
	select {
	case <-d.Bridge.Registered(2):
	case <-r.done:
		t.Fatalf("Run returned: %v", r.err)
	case <-time.After(tooltest.Timeout):
		t.Fatal("the node did not register again")
	}
	eventually(t, "the node reported back on the graph", func() bool { _, down := d.Down()[daemon.PartNode]; return !down })
	d.Loop.ReadSnapshot(snap)
	if snap.Stats.Cycles <= cycles {
		t.Error("the loop stopped")
	}
	select {
	case <-r.done:
		t.Fatalf("Run returned: %v", r.err)
	default:
	}
}
