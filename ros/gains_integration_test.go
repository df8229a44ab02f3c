package ros_test

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
)

// TestGainsOnParameterServer: the competition robot's controllers are on
// the parameter server as ros_controllers' are, read with Debian's
// rosparam: the hood's position PID under /hood_position/pid/, the arm
// trajectory controller's under /arm_trajectory/gains/JOINT/ and
// /arm_trajectory/velocity_ff/JOINT. `rosparam set` retunes the running
// controllers (the loop's PID state shows the new gain); a negative gain,
// an i_clamp over 24 V and a string are refused, logged and counted, the
// running gain kept and the parameter set back to it. The gains come by
// the master's paramUpdate (subscribeParam), not by polling: with
// Debian's rosmaster and with the embedded master.
func TestGainsOnParameterServer(t *testing.T) {
	integration(t, tooltest.Rosparam, tooltest.Rosmaster)
	for _, mode := range []ros.MasterMode{ros.MasterExternal, ros.MasterEmbedded} {
		t.Run(map[ros.MasterMode]string{ros.MasterExternal: "rosmaster", ros.MasterEmbedded: "embedded"}[mode], func(t *testing.T) {
			testGainsOnParameterServer(t, mode)
		})
	}
}

func testGainsOnParameterServer(t *testing.T, mode ros.MasterMode) {
	yp := tooltest.ControllersYAML(t, "../examples/competition/robot.yaml", []string{"shoulder_voltage", "elevator_voltage"},
		"  arm_trajectory: {type: effort_controllers/JointTrajectoryController, joints: [shoulder_joint, elevator_joint], "+
			"pid: {p: 40, i: 4, d: 2, i_clamp: 3, f: 0.5}, constraints: {goal: 0.03, goal_time: 2, trajectory: 0.3}}")
	d, e, logged := tuningRobotOn(t, yp, mode)
	updates := func() uint64 { return d.Bridge.Stats().ParamUpdates }
	get := func(key string) string { return strings.TrimSpace(e.MustRun(t, "rosparam", "get", key)) }
	num := func(key string) float64 {
		v, err := strconv.ParseFloat(get(key), 64)
		if err != nil {
			t.Fatalf("rosparam get %s: %v", key, err)
		}
		return v
	}
	// The parameters are set beside the registration: the last one set
	// (the last joint's feedforward of the last controller) says they all are.
	tooltest.Eventually(t, 10*time.Second, "the controllers on the parameter server", func() bool {
		out, err := e.Run("rosparam", "get", "/arm_trajectory/velocity_ff/elevator_joint")
		return err == nil && strings.TrimSpace(out) == "0.5"
	})
	for key, want := range map[string]string{
		"/hood_position/type": "effort_controllers/JointPositionController", "/hood_position/joint": "hood_joint",
		"/hood_position/pid/p": "20.0", "/arm_trajectory/gains/shoulder_joint/p": "40.0",
		"/arm_trajectory/gains/elevator_joint/i_clamp": "3.0", "/arm_trajectory/velocity_ff/shoulder_joint": "0.5",
		"/arm_trajectory/joints": "- shoulder_joint\n- elevator_joint",
	} {
		if got := get(key); got != want {
			t.Errorf("rosparam get %s: %q, want %q", key, got, want)
		}
	}
	hood, arm := d.Loop.Controller("hood_position"), d.Loop.Controller("arm_trajectory")
	pidP := func() float64 { return loopP(d, "hood_position") }
	e.MustRun(t, "rosparam", "set", "/hood_position/command_unused", "0") // a neighbour: untouched
	e.MustRun(t, "rosparam", "set", "/hood_position/pid/p", "12")         // an int, as rosparam sends 12
	e.MustRun(t, "rosparam", "set", "/arm_trajectory/gains/elevator_joint/d", "0.75")
	if err := hood.Command(0.3, d.Now()); err != nil { // the PID runs, so its state is this cycle's
		t.Fatal(err)
	}
	tooltest.Eventually(t, 10*time.Second, "hood p 12 in the loop, elevator d 0.75", func() bool {
		g, _ := arm.Gain(control.GainID{Joint: "elevator_joint", Term: control.GainD})
		return pidP() == 12 && g == 0.75
	})
	if n := updates(); n < 2 {
		t.Errorf("%d paramUpdates taken, want the two sets'", n)
	}
	// A namespace set whole (rosparam set KEY '{...}'): the master sends
	// each subscribed gain its value from the tree (an XML-RPC struct to
	// a namespace's subscriber), and a gain missing from it as deleted:
	// set back.
	e.MustRun(t, "rosparam", "set", "/arm_trajectory/gains/shoulder_joint", "{p: 41, i: 4, d: 2}")
	tooltest.Eventually(t, 10*time.Second, "shoulder p 41, its i_clamp set back", func() bool {
		g, _ := arm.Gain(control.GainID{Joint: "shoulder_joint", Term: control.GainP})
		out, err := e.Run("rosparam", "get", "/arm_trajectory/gains/shoulder_joint/i_clamp")
		return g == 41 && err == nil && strings.TrimSpace(out) == "3.0"
	})
	refused := hood.Refused()
	for _, c := range [][2]string{{"/hood_position/pid/i", "-1"}, {"/hood_position/pid/i_clamp", "30"}, {"/hood_position/pid/d", "abc"}} {
		e.MustRun(t, "rosparam", "set", c[0], c[1])
	}
	tooltest.Eventually(t, 10*time.Second, "three refusals, the parameters set back", func() bool {
		return hood.Refused()-refused == 3 && get("/hood_position/pid/i") == "2.0" && get("/hood_position/pid/d") == "0.0"
	})
	if v := num("/hood_position/pid/i_clamp"); v != 12 { // the hood's i_clamp: its max_voltage
		t.Errorf("i_clamp back to %v, want 12", v)
	}
	g := hood.Gains()
	if g.P != 12 || g.I != 2 || g.D != 0 {
		t.Errorf("hood gains %+v, want p 12 and the YAML's i 2, d 0", g)
	}
	if n := logged("/hood_position/pid/", "refused"); n != 3 {
		t.Errorf("%d refusals logged, want 3", n)
	}
	if v := get("/hood_position/command_unused"); v != "0" {
		t.Errorf("a neighbour parameter became %q", v)
	}

	// Retuned through another transport (NT4's tuning, ROS 2's
	// parameters): the parameter server follows.
	if err := hood.SetGain(control.GainID{Term: control.GainD}, 0.25, d.Now()); err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, 10*time.Second, "/hood_position/pid/d following the controller", func() bool {
		return get("/hood_position/pid/d") == "0.25"
	})

	// 100 kB beside the hood's gains is not frcd's business (no update
	// comes); 100 kB on a gain's key is refused as not a number and set
	// back; then a new gain is taken.
	e.MustRun(t, "rosparam", "set", "/hood_position/pid/junk", strings.Repeat("x", 100_000))
	refused = hood.Refused()
	e.MustRun(t, "rosparam", "set", "/hood_position/pid/p", strings.Repeat("x", 100_000))
	tooltest.Eventually(t, 10*time.Second, "100 kB on hood p refused, set back", func() bool {
		return hood.Refused()-refused == 1 && get("/hood_position/pid/p") == "12.0"
	})
	e.MustRun(t, "rosparam", "set", "/hood_position/pid/p", "13")
	tooltest.Eventually(t, 10*time.Second, "hood p 13 in the loop", func() bool { return pidP() == 13 })
	if n := d.Bridge.Stats().ParamIgnored; n != 0 {
		t.Errorf("%d paramUpdates for keys holding no gain: the master sent what was not subscribed to", n)
	}
}

// tuningRobot runs the competition robot with controllers yaml on the sim
// under an embedded master, registered; logged counts the log lines that
// contain every one of its strings.
func tuningRobot(t *testing.T, yaml string) (d *daemon.Daemon, e *tooltest.ROS, logged func(...string) int) {
	return tuningRobotOn(t, yaml, ros.MasterEmbedded)
}

// tuningRobotOn is tuningRobot under an embedded master or, with
// MasterExternal, Debian's rosmaster started for it.
func tuningRobotOn(t *testing.T, yaml string, mode ros.MasterMode) (d *daemon.Daemon, e *tooltest.ROS, logged func(...string) int) {
	d, e, logged, _ = tuningRobotLog(t, yaml, mode)
	return d, e, logged
}

// tuningRobotLog is tuningRobotOn that also gives the log's lines.
func tuningRobotLog(t *testing.T, yaml string, mode ros.MasterMode) (d *daemon.Daemon, e *tooltest.ROS, logged func(...string) int, lines func() []string) {
	r, list, err := robot.Load("../examples/competition/robot.urdf", yaml)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	var mu sync.Mutex
	var logs []string
	port := freePort(t)
	e = tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", port))
	if mode == ros.MasterExternal {
		e.Start(t, "rosmaster", "--core", "-p", strconv.Itoa(port))
	}
	d, err = daemon.NewSim(r, daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{ROS: &daemon.ROSOptions{
		Env: ros.Env{MasterURI: e.MasterURI, IP: "127.0.0.1"}, Master: mode,
		Logf: func(format string, args ...any) {
			t.Logf(format, args...)
			mu.Lock()
			logs = append(logs, fmt.Sprintf(format, args...))
			mu.Unlock()
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	f := &frcd{d: d, Service: tooltest.Serve(t, d.Run)}
	f.registered(t, 1)
	logged = func(subs ...string) (n int) {
		mu.Lock()
		defer mu.Unlock()
	lines:
		for _, l := range logs {
			for _, s := range subs {
				if !strings.Contains(l, s) {
					continue lines
				}
			}
			n++
		}
		return n
	}
	lines = func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), logs...)
	}
	return d, e, logged, lines
}

// loopP is the P gain controller name's PID ran with at the loop's last
// cycle (-1 when it has no PID state).
func loopP(d *daemon.Daemon, name string) float64 {
	s := d.Loop.NewSnapshot()
	d.Loop.ReadSnapshot(s)
	for _, p := range s.PIDs {
		if p.Name == name {
			return p.P
		}
	}
	return -1
}

// TestGainsAfterMasterRestart: a restarted rosmaster has forgotten frcd's
// parameter subscriptions; frcd registers again and subscribes afresh, so
// a gain set with rosparam on the new master still reaches the loop (no
// periodic resync is needed for it).
func TestGainsAfterMasterRestart(t *testing.T) {
	integration(t, tooltest.Rosmaster, tooltest.Rosparam)
	port := freePort(t)
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", port))
	stopMaster := e.Start(t, "rosmaster", "--core", "-p", strconv.Itoa(port))
	f := startFrcd(t, e, ros.MasterExternal)
	hood := f.d.Loop.Controller("hood_position")
	p := func() float64 { g, _ := hood.Gain(control.GainID{Term: control.GainP}); return g }
	// Set until taken: frcd's own listing of the gains, just after its
	// registration, may come after a first set.
	setUntil := func(v string, want float64) {
		t.Helper()
		tooltest.Eventually(t, 20*time.Second, "hood p "+v+" in the controller", func() bool {
			e.MustRun(t, "rosparam", "set", "/hood_position/pid/p", v)
			return p() == want
		})
	}
	setUntil("17", 17)
	connects := f.d.Bridge.Stats().Connects
	stopMaster()
	e.Start(t, "rosmaster", "--core", "-p", strconv.Itoa(port))
	f.registered(t, connects+1)
	setUntil("18.5", 18.5)
	f.Alive(t)
}
