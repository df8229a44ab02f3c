package ros_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros"
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

// TestDuplicateNodeName: a second frcd taking the node name of a running
// one (the same namespace) makes the first leave: its Run returns
// ErrShutdown, every output neutral, while the second serves the topics.
// A robot in another namespace is left alone.
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
	runDaemon(t, second)
	select {
	case <-r1.done:
		if err := r1.err; !errors.Is(err, ros.ErrShutdown) || !strings.Contains(err.Error(), "same name") {
			t.Errorf("the first frcd's Run: %v, want ErrShutdown (new node registered with same name)", err)
		}
	case <-time.After(tooltest.Timeout):
		t.Fatal("the first frcd still runs beside a second of its name")
	}
	if j, _ := first.Sim.Joint("shoulder_joint"); j.Voltage != 0 || first.Sim.DS().Enabled {
		t.Errorf("the first frcd left with its shoulder at %v V, enabled %v", j.Voltage, first.Sim.DS().Enabled)
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
