package ros_test

// Integration tests against the stock ROS 1 tools from Debian's packages
// (scripts/install-deps.sh installs them; `make test` runs it first):
// rosmaster, rostopic, rosnode, rosparam, rosservice and
// robot_state_publisher, driving the full example robot on the real-time
// sim, once with Debian's rosmaster and once with frcd's embedded master.

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"gopkg.in/yaml.v3"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
)

const (
	exampleURDF = "../examples/competition/robot.urdf"
	exampleYAML = "../examples/competition/robot.yaml"
	// waitLimit bounds a wait for a condition (each check runs a tool).
	waitLimit = 30 * time.Second
)

// integration marks a test that runs real tools: skipped with -short,
// and as tooltest.Require says when a tool is missing.
func integration(t *testing.T, tools ...tooltest.Tool) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the Debian ROS tools for about 25 s: skipped with -short")
	}
	tooltest.Require(t, tools...)
}

func freePort(t testing.TB) int { return tooltest.FreePort(t) }

// exampleRobot loads the full example robot.
func exampleRobot(t testing.TB) *robot.Robot {
	t.Helper()
	r, list, err := robot.Load(exampleURDF, exampleYAML)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("example robot: %v %v", err, list)
	}
	return r
}

// frcd runs the full example robot in real time with the ROS bridge.
type frcd struct {
	d *daemon.Daemon
	*tooltest.Service
}

func startFrcd(t *testing.T, e *tooltest.ROS, mode ros.MasterMode) *frcd {
	t.Helper()
	r := exampleRobot(t)
	text, err := os.ReadFile(exampleURDF)
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.NewSim(r, daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{ROS: &daemon.ROSOptions{
		Env: ros.Env{MasterURI: e.MasterURI, IP: "127.0.0.1"}, Master: mode, URDF: string(text), Logf: t.Logf,
	}})
	if err != nil {
		t.Fatal(err)
	}
	f := &frcd{d: d, Service: tooltest.Serve(t, d.Run)}
	f.registered(t, 1)
	return f
}

// registered waits until frcd has registered with a master n times in
// all: its topics, services and robot_description are then in place.
func (f *frcd) registered(t *testing.T, n uint64) {
	t.Helper()
	f.Await(t, fmt.Sprintf("frcd's registration %d with a master", n), f.d.Bridge.Registered(n))
}

// jointStates is one /joint_states message as rostopic echo prints it.
type jointStates struct {
	Name     []string
	Position []any // floats, or "nan"
}

func (js jointStates) position(t *testing.T, joint string) float64 {
	t.Helper()
	for i, n := range js.Name {
		if n == joint && i < len(js.Position) {
			return toFloat(js.Position[i])
		}
	}
	t.Fatalf("no position of %s in %v", joint, js.Name)
	return 0
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int:
		return float64(x)
	case string:
		f, err := strconv.ParseFloat(x, 64)
		if err != nil {
			return math.NaN()
		}
		return f
	}
	return math.NaN()
}

// echo returns one message of a topic, decoded from rostopic's YAML.
func echo[T any](t *testing.T, e *tooltest.ROS, topic string) T {
	t.Helper()
	out := e.MustRun(t, "rostopic", "echo", "-n", "1", topic)
	var doc strings.Builder
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "WARNING") || line == "---" {
			continue
		}
		doc.WriteString(line + "\n")
	}
	var v T
	if err := yaml.Unmarshal([]byte(doc.String()), &v); err != nil {
		t.Fatalf("rostopic echo %s: %v\n%s", topic, err, out)
	}
	return v
}

// eventually re-checks cond (each check runs a tool, which takes its own
// time) until it holds, failing at the deadline. For conditions nothing
// can be waited on for: a physical joint moving.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	tooltest.Eventually(t, waitLimit, what, cond)
}

func measured(d *daemon.Daemon) map[string]bool {
	s := d.Loop.NewSnapshot()
	d.Loop.ReadSnapshot(s)
	m := map[string]bool{}
	for _, j := range s.Joints {
		if j.State.Has != 0 {
			m[j.Name] = true
		}
	}
	return m
}

// jointStatesTruth is one /sim/joint_states_truth message.
type jointStatesTruth struct {
	jointStates `yaml:",inline"`
	Velocity    []any
	Effort      []any
}

// odometry is one nav_msgs/Odometry message, as far as the tests look.
type odometry struct {
	Header struct {
		FrameID string `yaml:"frame_id"`
	}
	ChildFrameID string `yaml:"child_frame_id"`
	Pose         struct {
		Pose struct {
			Position    struct{ X, Y any }
			Orientation struct{ Z, W any }
		}
	}
	Twist struct {
		Twist struct {
			Linear struct{ X, Y any }
		}
	}
}

// tfRotation is the rotation of the transform to child in one /tf
// message from robot_state_publisher.
func tfRotation(t *testing.T, e *tooltest.ROS, child string) [4]float64 {
	t.Helper()
	type tfMsg struct {
		Transforms []struct {
			ChildFrameID string `yaml:"child_frame_id"`
			Transform    struct {
				Rotation struct{ X, Y, Z, W any } // "nan" for a joint with no position sensor
			}
		}
	}
	var rot [4]float64
	// /tf has two publishers, frcd (its drive base's odom -> base_link) and
	// robot_state_publisher (the joints): rostopic's first message is often
	// frcd's, so look through 50.
	eventually(t, "a /tf message with "+child, func() bool {
		out := e.MustRun(t, "rostopic", "echo", "-n", "50", "/tf")
		for _, doc := range strings.Split(out, "\n---\n") {
			var m tfMsg
			if yaml.Unmarshal([]byte(doc), &m) != nil {
				continue
			}
			for _, tr := range m.Transforms {
				if tr.ChildFrameID == child {
					r := tr.Transform.Rotation
					rot = [4]float64{toFloat(r.X), toFloat(r.Y), toFloat(r.Z), toFloat(r.W)}
					return true
				}
			}
		}
		return false
	})
	return rot
}

type diagnostics struct {
	Status []struct {
		Name    string
		Level   int
		Message string
		Values  []struct{ Key, Value string }
	}
}

func (dg diagnostics) value(name, key string) (string, bool) {
	for _, s := range dg.Status {
		if s.Name != name {
			continue
		}
		for _, kv := range s.Values {
			if kv.Key == key {
				return kv.Value, true
			}
		}
	}
	return "", false
}

// waitRefused waits for /diagnostics to count more than before refused
// commands of a controller.
func waitRefused(t *testing.T, e *tooltest.ROS, controller string, before uint64) {
	t.Helper()
	eventually(t, controller+"'s refused command counted in /diagnostics", func() bool {
		v, ok := echo[diagnostics](t, e, "/diagnostics").value("frcd: controller "+controller, "refused")
		n, _ := strconv.ParseUint(v, 10, 64)
		return ok && n > before
	})
}

// checkBridge is what both masters must support.
func checkBridge(t *testing.T, e *tooltest.ROS, f *frcd) {
	t.Run("joint_states", func(t *testing.T) {
		js := echo[jointStates](t, e, "/joint_states")
		if len(js.Name) != len(f.d.Robot.Joints) || len(js.Position) != len(js.Name) {
			t.Fatalf("/joint_states: %d names, %d positions; the robot has %d movable joints", len(js.Name), len(js.Position), len(f.d.Robot.Joints))
		}
		for i, j := range f.d.Robot.Joints {
			if js.Name[i] != j.Name || math.IsNaN(toFloat(js.Position[i])) {
				t.Errorf("/joint_states %d: %s at %v, want %s with a position", i, js.Name[i], js.Position[i], j.Name)
			}
		}
	})

	t.Run("voltage moves the arm, and robot_state_publisher's tf follows", func(t *testing.T) {
		e.Start(t, tooltest.RobotStatePublisher.Name)
		start := echo[jointStates](t, e, "/joint_states").position(t, "shoulder_joint")
		rot0 := tfRotation(t, e, "arm")
		stop := e.Start(t, "rostopic", "pub", "-r", "20", "/shoulder_voltage/command", "std_msgs/Float64", "data: 4.0")
		var pos float64
		eventually(t, "shoulder_joint moving under 4 V", func() bool {
			pos = echo[jointStates](t, e, "/joint_states").position(t, "shoulder_joint")
			return math.Abs(pos-start) > 0.05
		})
		rot1 := tfRotation(t, e, "arm")
		stop()
		t.Logf("shoulder_joint %.3f -> %.3f rad; arm rotation %v -> %v", start, pos, rot0, rot1)
		if rot0 == rot1 {
			t.Errorf("the arm's transform did not change: %v", rot0)
		}
	})

	t.Run("ground truth apart from the sensors", func(t *testing.T) {
		truth := echo[jointStatesTruth](t, e, "/sim/joint_states_truth")
		if len(truth.Name) != len(f.d.Robot.Joints) || len(truth.Position) != len(truth.Name) || len(truth.Velocity) != len(truth.Name) || len(truth.Effort) != len(truth.Name) {
			t.Errorf("/sim/joint_states_truth: %d names, %d positions, %d velocities, %d efforts; the robot has %d movable joints",
				len(truth.Name), len(truth.Position), len(truth.Velocity), len(truth.Effort), len(f.d.Robot.Joints))
		}
		// The shoulder is both measured (its pot) and true; the wrist
		// servo has no sensor, so only its truth is published.
		measuredPos := echo[jointStates](t, e, "/joint_states").position(t, "shoulder_joint")
		truePos := truth.position(t, "shoulder_joint")
		if math.IsNaN(measuredPos) || math.IsNaN(truePos) {
			t.Errorf("shoulder_joint: measured %v, true %v", measuredPos, truePos)
		}
		if p := truth.position(t, "wrist_joint"); math.IsNaN(p) {
			t.Errorf("wrist_joint's true position %v", p)
		}
		g0 := echo[odometry](t, e, "/sim/ground_truth")
		if g0.Header.FrameID != "odom" || g0.ChildFrameID != "base_link" {
			t.Errorf("/sim/ground_truth frames %q -> %q, want odom -> base_link", g0.Header.FrameID, g0.ChildFrameID)
		}
		// the base's drive controller, as a team drives it: a twist on its cmd_vel
		stops := []func(){e.Start(t, "rostopic", "pub", "-r", "20", "/drive/cmd_vel", "geometry_msgs/Twist", "{linear: {x: 0.5}}")}
		var g odometry
		eventually(t, "the base driving forward in /sim/ground_truth", func() bool {
			g = echo[odometry](t, e, "/sim/ground_truth")
			return toFloat(g.Pose.Pose.Position.X)-toFloat(g0.Pose.Pose.Position.X) > 0.2 && toFloat(g.Twist.Twist.Linear.X) > 0.1
		})
		for _, stop := range stops {
			stop()
		}
		t.Logf("ground truth x %.3f -> %.3f m, forward at %.3f m/s", toFloat(g0.Pose.Pose.Position.X), toFloat(g.Pose.Pose.Position.X), toFloat(g.Twist.Twist.Linear.X))
	})

	t.Run("solenoid command flips its joint", func(t *testing.T) {
		stop := e.Start(t, "rostopic", "pub", "-r", "10", "/climber_lock/command", "std_msgs/Bool", "data: true")
		defer stop()
		eventually(t, "climber_lock_joint extended", func() bool {
			return echo[jointStates](t, e, "/joint_states").position(t, "climber_lock_joint") > 0
		})
	})

	t.Run("link sensors on their own topics", func(t *testing.T) {
		if err := f.d.Sim.SetSensor("ball_beam_break", 1); err != nil {
			t.Fatal(err)
		}
		if err := f.d.Sim.SetSensor("front_ultrasonic", 1.5); err != nil {
			t.Fatal(err)
		}
		eventually(t, "/ball_beam_break true", func() bool { return echo[struct{ Data bool }](t, e, "/ball_beam_break").Data })
		eventually(t, "/front_ultrasonic 1.5", func() bool {
			return math.Abs(echo[struct{ Data float64 }](t, e, "/front_ultrasonic").Data-1.5) < 1e-6
		})
		if out := e.MustRun(t, "rostopic", "type", "/ball_beam_break"); strings.TrimSpace(out) != "std_msgs/Bool" {
			t.Errorf("rostopic type /ball_beam_break: %s", out)
		}
		if err := f.d.Sim.SetSensor("ball_beam_break", 0); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("NaN command refused and counted in /diagnostics", func(t *testing.T) {
		ctl := f.d.Loop.Controller("elevator_voltage")
		before := ctl.Refused()
		e.MustRun(t, "rostopic", "pub", "-1", "/elevator_voltage/command", "std_msgs/Float64", "data: .nan")
		waitRefused(t, e, "elevator_voltage", before)
		if j, _ := f.d.Sim.Joint("elevator_joint"); j.Voltage != 0 || math.IsNaN(j.Voltage) {
			t.Errorf("elevator voltage %v after a NaN command, want 0", j.Voltage)
		}
	})

	t.Run("wrong message type refused and counted", func(t *testing.T) {
		ctl := f.d.Loop.Controller("shooter_voltage")
		before := ctl.Refused()
		e.MustRun(t, "rostopic", "pub", "-1", "/shooter_voltage/command", "std_msgs/Bool", "data: true")
		waitRefused(t, e, "shooter_voltage", before)
		if f.d.Bridge.Stats().WrongType == 0 {
			t.Errorf("stats %+v", f.d.Bridge.Stats())
		}
		if j, _ := f.d.Sim.Joint("shooter_joint"); j.Voltage != 0 {
			t.Errorf("shooter voltage %v after a Bool on its Float64 topic", j.Voltage)
		}
	})

	t.Run("sim push places a joint; a bad push is refused", func(t *testing.T) {
		before := f.d.Bridge.Stats()
		e.MustRun(t, "rostopic", "pub", "-1", ros.PushTopic, "sensor_msgs/JointState", "{name: [hood_joint], position: [0.5]}")
		eventually(t, "hood_joint pushed to 0.5 in /joint_states", func() bool {
			return math.Abs(echo[jointStates](t, e, "/joint_states").position(t, "hood_joint")-0.5) < 0.01
		})
		e.MustRun(t, "rostopic", "pub", "-1", ros.PushTopic, "sensor_msgs/JointState", "{name: [hood_joint, hood_jiont], position: [0.1, 0.2]}")
		eventually(t, "the bad push counted", func() bool { return f.d.Bridge.Stats().PushRefused > before.PushRefused })
		if s := f.d.Bridge.Stats(); s.Pushes != before.Pushes+1 {
			t.Errorf("pushes %d -> %d, want one more", before.Pushes, s.Pushes)
		}
		if j, _ := f.d.Sim.Joint("hood_joint"); math.Abs(j.Position-0.5) > 0.01 {
			t.Errorf("hood_joint at %v after a refused push, want 0.5", j.Position)
		}
	})

	t.Run("an oversized push is refused before it is read", func(t *testing.T) {
		before := f.d.Bridge.Stats()
		u, err := url.Parse(before.MasterURI)
		if err != nil {
			t.Fatal(err)
		}
		n, err := goroslib.NewNode(goroslib.NodeConf{Name: "hostile", MasterAddress: u.Host, Host: "127.0.0.1", LogDestinations: goroslib.LogDestinationCallback})
		if err != nil {
			t.Fatal(err)
		}
		defer n.Close()
		p, err := goroslib.NewPublisher(goroslib.PublisherConf{Node: n, Topic: ros.PushTopic, Msg: &sensor_msgs.JointState{}})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		// 20,000 names of 20 bytes: about 480 KB, over /sim/push's 256 KiB.
		big := &sensor_msgs.JointState{}
		for i := range 20000 {
			big.Name = append(big.Name, fmt.Sprintf("hood_joint_%09d", i))
			big.Position = append(big.Position, 0.1)
		}
		eventually(t, "the oversized push refused", func() bool {
			p.Write(big) // until frcd's subscriber has connected
			return f.d.Bridge.Stats().Oversize > before.Oversize
		})
		if s := f.d.Bridge.Stats(); s.Pushes != before.Pushes || s.PushRefused != before.PushRefused {
			t.Errorf("an oversized push reached the check: %+v -> %+v", before, s)
		}
	})

	t.Run("a profiled goal moves the turret there and holds", func(t *testing.T) {
		stale := f.d.Loop.NewSnapshot()
		f.d.Loop.ReadSnapshot(stale)
		e.MustRun(t, "rostopic", "pub", "-1", "/turret_position/command", "std_msgs/Float64", "data: 1.0")
		eventually(t, "turret_joint at its goal in /joint_states", func() bool {
			return math.Abs(echo[jointStates](t, e, "/joint_states").position(t, "turret_joint")-1.0) < 0.02
		})
		eventually(t, "turret_position at its goal in /diagnostics", func() bool {
			v, _ := echo[diagnostics](t, e, "/diagnostics").value("frcd: controller turret_position", "at goal")
			return v == "true"
		})
		// rostopic pub -1 sent one message, seconds ago: the goal held
		// beyond the 0.5 s command timeout.
		now := f.d.Loop.NewSnapshot()
		f.d.Loop.ReadSnapshot(now)
		goal, held, reached, _ := f.d.Loop.Controller("turret_position").Goal()
		if now.Stats.Stale != stale.Stats.Stale || goal != 1 || !held || !reached {
			t.Errorf("stale %d -> %d; goal %v held %v reached %v", stale.Stats.Stale, now.Stats.Stale, goal, held, reached)
		}
	})

	t.Run("services", func(t *testing.T) {
		out := e.MustRun(t, "rosservice", "call", "/frcd/enable", "data: false")
		if !strings.Contains(out, "success: True") || f.d.Sim.DS().Enabled {
			t.Errorf("disable: %s; sim enabled %v", out, f.d.Sim.DS().Enabled)
		}
		e.MustRun(t, "rosservice", "call", "/frcd/enable", "data: true")
		if !f.d.Sim.DS().Enabled {
			t.Error("enable: the sim is still disabled")
		}
		out = e.MustRun(t, "rosservice", "call", "/frcd/list_controllers")
		for _, c := range f.d.Loop.Controllers() {
			if !strings.Contains(out, c.Name) { // rosservice folds long lines: names only
				t.Errorf("list_controllers lacks %s: %s", c.Name, out)
			}
		}
		// roscpp's logger services, with Debian's roscpp types (the
		// md5sums rosservice compares).
		if out := e.MustRun(t, "rosservice", "call", "/frcd/get_loggers"); !strings.Contains(out, ros.RosoutLogger) || !strings.Contains(out, "info") {
			t.Errorf("get_loggers: %s", out)
		}
		e.MustRun(t, "rosservice", "call", "/frcd/set_logger_level", ros.RosoutLogger, "warn")
		if out := e.MustRun(t, "rosservice", "call", "/frcd/get_loggers"); !strings.Contains(out, "warn") {
			t.Errorf("get_loggers after set_logger_level warn: %s", out)
		}
	})

	t.Run("graph and parameters", func(t *testing.T) {
		if out := e.MustRun(t, "rosnode", "list"); !strings.Contains(out, "/frcd") {
			t.Errorf("rosnode list: %s", out)
		}
		if out := e.MustRun(t, "rosnode", "info", "/frcd"); !strings.Contains(out, "/joint_states") || !strings.Contains(out, "/shoulder_voltage/command") {
			t.Errorf("rosnode info /frcd: %s", out)
		}
		if out := e.MustRun(t, "rosparam", "get", "/robot_description"); !strings.Contains(out, "<robot") { // YAML-folded
			t.Errorf("rosparam get /robot_description: %.200s", out)
		}
		if out := e.MustRun(t, "rostopic", "type", "/intake/command"); strings.TrimSpace(out) != "std_msgs/Int8" {
			t.Errorf("rostopic type /intake/command: %s", out)
		}
	})
}

// TestDebianMaster: frcd registers with Debian's rosmaster, serves the
// stock tools, and survives the master being killed and restarted: it
// registers again and the topics resume.
func TestDebianMaster(t *testing.T) {
	integration(t, tooltest.Rosmaster, tooltest.Rostopic, tooltest.Rosnode, tooltest.Rosparam, tooltest.Rosservice, tooltest.RobotStatePublisher)
	port := freePort(t)
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", port))
	stopMaster := e.Start(t, "rosmaster", "--core", "-p", strconv.Itoa(port))
	f := startFrcd(t, e, ros.MasterExternal) // retries until rosmaster answers
	checkBridge(t, e, f)

	t.Run("master restart", func(t *testing.T) {
		connects := f.d.Bridge.Stats().Connects
		stopMaster()
		e.Start(t, "rosmaster", "--core", "-p", strconv.Itoa(port))
		f.registered(t, connects+1)
		js := echo[jointStates](t, e, "/joint_states")
		f.Alive(t)
		if len(js.Name) == 0 {
			t.Error("no joints after the restart")
		}
		if s := f.d.Bridge.Stats(); s.Connects < 2 || s.EmbeddedURI != "" {
			t.Errorf("stats after a restart: %+v", s)
		}
		out := e.MustRun(t, "rosparam", "get", "/robot_description")
		if !strings.Contains(out, "<robot") {
			t.Errorf("robot_description not set again: %.100s", out)
		}
	})
}

// TestEmbeddedMaster: with no master running, frcd starts its own, and
// the stock tools work against it as against rosmaster.
func TestEmbeddedMaster(t *testing.T) {
	integration(t, tooltest.Rostopic, tooltest.Rosnode, tooltest.Rosparam, tooltest.Rosservice, tooltest.RobotStatePublisher)
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", freePort(t)))
	f := startFrcd(t, e, ros.MasterEmbedded)
	checkBridge(t, e, f)
	if s := f.d.Bridge.Stats(); s.EmbeddedURI == "" || !s.Connected {
		t.Errorf("stats: %+v, want an embedded master in use", s)
	}
}

// TestEmbeddedMasterCannotStart: when no master answers and the embedded
// one cannot take the address (something else listens there), the robot
// runs on without ROS: the embedded master is down on the status line,
// with why, and tried again; once the address is free it starts, frcd
// registers with it and nothing is down. Every output is neutral at the
// end as ever.
func TestEmbeddedMasterCannotStart(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	hungUp := make(chan struct{})
	go func() { // not a master: hang up on everyone
		defer close(hungUp)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	var logs strings.Builder
	var mu sync.Mutex
	logf := func(f string, a ...any) { mu.Lock(); fmt.Fprintf(&logs, f+"\n", a...); mu.Unlock() }
	d, err := daemon.NewSim(exampleRobot(t), daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{Logf: logf, ROS: &daemon.ROSOptions{
		Env: ros.Env{MasterURI: "http://" + l.Addr().String(), IP: "127.0.0.1", Home: t.TempDir()}, Master: ros.MasterEmbedded, Logf: logf,
	}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	stopped := func() bool {
		select {
		case err := <-done:
			t.Fatalf("Run returned while the master's port was taken: %v", err)
		default:
		}
		return false
	}
	// Both down on the status line (sorted): the node, off the graph
	// without a master, and the master.
	tooltest.Eventually(t, waitLimit, "the embedded master down on the status line", func() bool {
		return !stopped() && strings.Contains(d.StatusLine(), "down: "+daemon.PartNode+", "+daemon.PartMaster)
	})
	why := d.Down()[daemon.PartMaster]
	if !strings.Contains(why, "cannot listen there") || !strings.Contains(why, "address already in use") {
		t.Errorf("why the master is down: %q", why)
	}
	cycles := func() int {
		_, after, _ := strings.Cut(d.StatusLine(), "cycles=")
		n, _ := strconv.Atoi(strings.Fields(after + " x")[0])
		return n
	}
	before := cycles()
	tooltest.Eventually(t, waitLimit, "the loop cycling on", func() bool { return !stopped() && cycles() > before+10 })
	// The address freed: the embedded master starts at the next try.
	l.Close()
	<-hungUp
	tooltest.Eventually(t, waitLimit, "frcd's registration with its embedded master", func() bool {
		return !stopped() && d.Bridge.Stats().Connected
	})
	if s := d.Bridge.Stats(); s.EmbeddedURI == "" || s.EmbeddedDown != "" {
		t.Errorf("stats: %+v, want an embedded master in use", s)
	}
	if down := d.Down(); len(down) != 0 {
		t.Errorf("down: %v", down)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if j, _ := d.Sim.Joint("shoulder_joint"); j.Voltage != 0 {
		t.Errorf("shoulder voltage %v after stopping", j.Voltage)
	}
	mu.Lock()
	defer mu.Unlock()
	if n := strings.Count(logs.String(), "embedded ROS master is down"); n != 1 {
		t.Errorf("logged the master down %d times, want once:\n%s", n, logs.String())
	}
}
