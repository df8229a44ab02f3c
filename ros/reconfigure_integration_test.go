package ros_test

import (
	"math"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bluenviron/goroslib/v2"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros"
)

var (
	dynparam        = tooltest.Tool{Name: "/usr/lib/dynamic_reconfigure/dynparam", Package: "python3-dynamic-reconfigure"}
	dynparamPackage = "/usr/share/dynamic_reconfigure/package.xml"
)

var dynreconf = tooltest.Tool{Name: "/usr/lib/python3/dist-packages/dynamic_reconfigure/client.py", Package: "python3-dynamic-reconfigure"}

// TestDynamicReconfigure: the competition robot's hood PID is a
// dynamic_reconfigure server at /hood_position/pid, as control_toolbox's
// Pid is, driven by Debian's dynamic_reconfigure.client (as rqt_reconfigure
// and dynparam use it; testdata/dynreconf.py) and by dynparam itself: get lists the running
// gains, set retunes the loop's PID (and /hood_position/pid/p on the
// parameter server follows), and a NaN and a negative gain
// are refused (counted, logged), the reply and get still showing
// the running gain. A gain retuned elsewhere (NT4's SetGain) reaches
// parameter_updates, so get follows it. A trajectory controller's joint
// is a server at /arm_trajectory/gains/JOINT, retuning that joint only.
func TestDynamicReconfigure(t *testing.T) {
	integration(t, tooltest.Rosparam)
	tooltest.RequireFile(t, dynreconf.Name, "the Debian package "+dynreconf.Package)
	tooltest.RequireFile(t, dynparam.Name, "the Debian package "+dynparam.Package)
	tooltest.RequireFile(t, dynparamPackage, "the Debian package libdynamic-reconfigure-config-init-mutex-dev")
	yp := tooltest.ControllersYAML(t, "../examples/competition/robot.yaml", []string{"shoulder_voltage", "elevator_voltage"},
		"  arm_trajectory: {type: effort_controllers/JointTrajectoryController, joints: [shoulder_joint, elevator_joint], "+
			"pid: {p: 40, i: 4, d: 2, i_clamp: 3, f: 0.5}, constraints: {goal: 0.03, goal_time: 2, trajectory: 0.3}}")
	d, e, logged := tuningRobot(t, yp)
	hood := d.Loop.Controller("hood_position")
	pidP := func() float64 { return loopP(d, "hood_position") }
	runAt := func(server string, args ...string) string {
		return strings.TrimSpace(e.MustRun(t, "/usr/bin/python3", append([]string{"testdata/dynreconf.py", server}, args...)...))
	}
	run := func(args ...string) string { return runAt("/hood_position/pid", args...) }
	get := func() string { return run("get") }
	if out, want := get(), `{"d": 0.0, "i": 2.0, "i_clamp": 12.0, "p": 20.0}`; out != want {
		t.Fatalf("get: %s, want the YAML's %s", out, want)
	}
	running := `{"d": 0.0, "i": 2.0, "i_clamp": 12.0, "p": 12.0}`
	if out := run("set", `{"p": 12}`); out != running {
		t.Errorf("set p 12: reply %s, want %s", out, running)
	}
	if err := hood.Command(0.3, d.Now()); err != nil { // the PID runs, so its state is this cycle's
		t.Fatal(err)
	}
	tooltest.Eventually(t, 10*time.Second, "hood p 12 in the loop", func() bool { return pidP() == 12 })
	tooltest.Eventually(t, 10*time.Second, "/hood_position/pid/p 12 on the parameter server", func() bool {
		out, err := e.Run("rosparam", "get", "/hood_position/pid/p")
		return err == nil && strings.TrimSpace(out) == "12.0"
	})
	refused := hood.Refused()
	for _, v := range []string{`{"i": NaN}`, `{"i": -1.0}`, `{"d": -0.5}`} {
		if out := run("set", v); out != running { // the reply: the gains still running
			t.Errorf("set %s: reply %s, want %s", v, out, running)
		}
	}
	if n := hood.Refused() - refused; n != 3 {
		t.Errorf("%d refused, want 3", n)
	}
	if g := hood.Gains(); g.P != 12 || g.I != 2 || g.D != 0 || math.IsNaN(g.I) {
		t.Errorf("hood gains %+v, want p 12 and the YAML's i 2, d 0", g)
	}
	if out := get(); out != running {
		t.Errorf("get after the refusals: %s, want %s", out, running)
	}
	if n := logged("/hood_position/pid/set_parameters refused"); n != 3 {
		t.Errorf("%d refusals logged, want 3", n)
	}

	// What dynamic_reconfigure.client never sends (it checks names and
	// types against the description), from a goroslib client: control_toolbox's
	// i_clamp_min, a bool, a string, and over 64 parameters at once; each
	// refused and counted, the reply the running gains.
	u, err := url.Parse(e.MasterURI)
	if err != nil {
		t.Fatal(err)
	}
	n, err := goroslib.NewNode(goroslib.NodeConf{Name: "reconf_client", MasterAddress: u.Host, Host: "127.0.0.1", LogDestinations: goroslib.LogDestinationCallback})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	sc, err := goroslib.NewServiceClient(goroslib.ServiceClientConf{Node: n, Name: "/hood_position/pid/set_parameters", Srv: &ros.Reconfigure{}})
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	many := make([]ros.DRDouble, 65)
	for i := range many {
		many[i] = ros.DRDouble{Key: "p", Value: 1}
	}
	refused = hood.Refused()
	for _, req := range []ros.ReconfigureReq{
		{Config: ros.DRConfig{Doubles: []ros.DRDouble{{Key: "i_clamp_min", Value: -1}}}},
		{Config: ros.DRConfig{Bools: []ros.DRBool{{Key: "antiwindup", Value: true}}, Strs: []ros.DRStr{{Key: "p", Value: "1"}}}},
		{Config: ros.DRConfig{Doubles: many}},
	} {
		var res ros.ReconfigureRes
		if err := sc.Call(&req, &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Config.Doubles) != 4 || res.Config.Doubles[0].Key != "p" || res.Config.Doubles[0].Value != 12 {
			t.Errorf("reply %+v, want the running gains (p 12)", res.Config.Doubles)
		}
	}
	if n := hood.Refused() - refused; n != 4 {
		t.Errorf("%d refused, want 4 (i_clamp_min, a bool, a string, 65 parameters)", n)
	}
	if g := hood.Gains(); g.P != 12 {
		t.Errorf("hood p %v after the refused requests, want 12", g.P)
	}
	// Retuned elsewhere: parameter_updates follows at the next poll.
	if err := hood.SetGain(control.GainID{Term: control.GainD}, 0.25, d.Now()); err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, 10*time.Second, "get following the controller", func() bool {
		return get() == `{"d": 0.25, "i": 2.0, "i_clamp": 12.0, "p": 12.0}`
	})

	// Debian's dynparam (its package.xml, which roslib needs to load it,
	// is in libdynamic-reconfigure-config-init-mutex-dev), run by
	// /usr/bin/python3: its "#!/usr/bin/env python3" may find another
	// Python on PATH, without rospy.
	e.MustRun(t, "/usr/bin/python3", dynparam.Name, "set", "/hood_position/pid", "p", "14")
	if g := hood.Gains(); g.P != 14 {
		t.Errorf("hood p %v after dynparam set p 14", g.P)
	}
	if out := e.MustRun(t, "/usr/bin/python3", dynparam.Name, "get", "/hood_position/pid"); !strings.Contains(out, "'p': 14.0") {
		t.Errorf("dynparam get: %s, want p 14", out)
	}

	// A trajectory controller: a server per joint at
	// /arm_trajectory/gains/JOINT, as joint_trajectory_controller's Pids.
	elevator := "/arm_trajectory/gains/elevator_joint"
	if out, want := runAt(elevator, "get"), `{"d": 2.0, "i": 4.0, "i_clamp": 3.0, "p": 40.0}`; out != want {
		t.Errorf("%s get: %s, want %s", elevator, out, want)
	}
	if out, want := runAt(elevator, "set", `{"d": 0.75}`), `{"d": 0.75, "i": 4.0, "i_clamp": 3.0, "p": 40.0}`; out != want {
		t.Errorf("%s set d 0.75: %s, want %s", elevator, out, want)
	}
	arm := d.Loop.Controller("arm_trajectory")
	for joint, want := range map[string]float64{"elevator_joint": 0.75, "shoulder_joint": 2} {
		if g, _ := arm.Gain(control.GainID{Joint: joint, Term: control.GainD}); g != want {
			t.Errorf("arm_trajectory %s d %v, want %v", joint, g, want)
		}
	}
}
