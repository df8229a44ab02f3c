package ros2bridge_test

import (
	"math"
	"os"
	"testing"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

func TestMain(m *testing.M) {
	code := m.Run()
	ddstest.Cleanup()
	os.Exit(code)
}

// clientEvent is a line of testdata/cyclone/action_client.c.
type clientEvent struct {
	Sent       int  `json:"sent"`
	Accepted   *int `json:"accepted"`
	Status     int  `json:"status"`
	ErrorCode  int  `json:"error_code"`
	Feedback   int  `json:"feedback"`
	StatusMsgs int  `json:"status_msgs"`
	Cancel     *int `json:"cancel"`
	Canceling  int  `json:"canceling"`
}

// TestCycloneCommands runs the competition robot with a diff drive and a
// trajectory controller on the sim in real time, its ROS 2 node on
// Cyclone's domain, and a client on Cyclone DDS 0.10.2 in
// rmw_cyclonedds's conventions (testdata/cyclone/action_client.c, the
// types from their .msg definitions by idlc): 2 s of TwistStamped at 50 Hz
// on /drive/cmd_vel move the base forward; a FollowJointTrajectory goal
// is accepted, reports feedback and status, and SUCCEEDED (4) with error
// code 0 and the joints at the goal; a second one, cancelled after 1 s,
// ends CANCELED (5) with the shoulder stopped between its start and goal.
func TestCycloneCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a Cyclone DDS peer: skipped with -short")
	}
	bin := ddstest.Cyclone.Program(t, "testdata/cyclone/action_client.c", "testdata/ActionCyclone.idl")
	d, domain := cycloneSim(t, motionYAML(t))
	env := ddstest.Env(domain)

	p0, _ := d.Sim.Pose()
	tw := tooltest.StartJSON[clientEvent](t, env, bin, "twist", "2")
	e := tw.Wait("the twists sent", func(e clientEvent) bool { return e.Sent > 0 })
	p1, _ := d.Sim.Pose()
	t.Logf("%d twists; the base from x %.3f to %.3f; stats %+v", e.Sent, p0.X, p1.X, d.Bridge2.Stats())
	if p1.X-p0.X < 0.3 || d.Bridge2.Stats().Commands < 50 {
		t.Errorf("2 s of 0.5 m/s moved the base %.3f m (want 0.3 or more); stats %+v", p1.X-p0.X, d.Bridge2.Stats())
	}

	run := func(mode string) clientEvent {
		c := tooltest.StartJSON[clientEvent](t, env, bin, mode)
		return c.Wait(mode+": the result", func(e clientEvent) bool { return e.Accepted != nil })
	}
	e = run("succeed")
	sh, _ := d.Sim.Joint("shoulder_joint")
	el, _ := d.Sim.Joint("elevator_joint")
	t.Logf("succeed: %+v; shoulder %.3f elevator %.3f", e, sh.Position, el.Position)
	if *e.Accepted != 1 || e.Status != int(ros2msg.GoalSucceeded) || e.ErrorCode != 0 || e.Feedback == 0 || e.StatusMsgs == 0 ||
		math.Abs(sh.Position-0.8) > 0.05 || math.Abs(el.Position-0.4) > 0.05 {
		t.Errorf("want accepted, SUCCEEDED (4), code 0, feedback and status, the shoulder at 0.8 and the elevator at 0.4")
	}
	c := tooltest.StartJSON[clientEvent](t, env, bin, "cancel")
	cancelled := c.Wait("cancel: the cancel's answer", func(e clientEvent) bool { return e.Cancel != nil })
	e = c.Wait("cancel: the result", func(e clientEvent) bool { return e.Accepted != nil })
	sh, _ = d.Sim.Joint("shoulder_joint")
	t.Logf("cancel: %+v then %+v; shoulder %.3f", cancelled, e, sh.Position)
	if *cancelled.Cancel != int(ros2msg.CancelNone) || cancelled.Canceling != 1 || e.Status != int(ros2msg.GoalCanceled) ||
		sh.Position > 0.77 || sh.Position < 0.53 {
		t.Errorf("want the cancel taken (0, 1 goal), CANCELED (5), the shoulder stopped between 0.8 and 0.5")
	}
}

// servicesEvent is a line of testdata/cyclone/services_client.c.
type servicesEvent struct {
	Phase   int     `json:"phase"`
	Name    string  `json:"name"`
	State   string  `json:"state"`
	Claimed string  `json:"claimed"`
	Rate    int     `json:"rate"`
	Switch  *int    `json:"switch"`
	Message string  `json:"message"`
	Get     *int    `json:"get"`
	Value   float64 `json:"value"`
	Set     *int    `json:"set"`
	Reason  string  `json:"reason"`
	CType   string  `json:"ctype"`
	HWSet   *int    `json:"hwset"`
	HWID    int     `json:"hw_id"`
	HWLabel string  `json:"hw_label"`
	componentEvent
}

// componentEvent is a line of testdata/cyclone/components.h: a hardware
// component (RWRate only in Jazzy's layout).
type componentEvent struct {
	Component string `json:"component"`
	Type      string `json:"type"`
	Class     string `json:"class"`
	StateID   int    `json:"state_id"`
	Label     string `json:"label"`
	Commands  int    `json:"commands"`
	Available int    `json:"available"`
	States    int    `json:"states"`
	RWRate    int    `json:"rw_rate"`
}

// TestCycloneServices: a Cyclone DDS client (testdata/cyclone/services_client.c,
// Jazzy's controller_manager_msgs and rcl_interfaces types by idlc) lists
// the example robot's controllers (turret_position active, claiming
// turret_joint/command, at the loop's 100 Hz; hood_position as
// pid_controller/PidController), deactivates turret_position (STRICT)
// and sees it inactive, claiming nothing, its commands refused; lists the
// hardware components (frcd's robot, active, at 100 Hz); sets frcd's
// hardware inactive (listed inactive, no command interface available) and
// active again; reads turret_position.pid.p as the YAML has it, sets it
// 1.5 higher (the controller has it), and is refused an integer for it.
func TestCycloneServices(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a Cyclone DDS peer: skipped with -short")
	}
	bin := ddstest.Cyclone.Program(t, "testdata/cyclone/services_client.c", "testdata/ServicesCyclone.idl")
	r, list, err := robot.Load(exampleURDF, exampleYAML)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	domain := ddstest.Domain()
	d, err := daemon.NewSim(r, daemon.SimOptions{Enabled: true}, daemon.Options{ROS2: &daemon.ROS2Options{
		Node: ros2node.Config{Name: "frcd", RTPS: rtps.Config{Domain: domain, MaxPeerID: ddstest.MaxPeerID}}, Logf: t.Logf}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	turret := d.Loop.Controller("turret_position")
	yamlP := turret.Gains().P
	c := tooltest.StartJSON[servicesEvent](t, ddstest.Env(domain), bin)
	e := c.Wait("turret_position listed", func(e servicesEvent) bool { return e.Phase == 1 && e.Name == "turret_position" })
	if e.State != "active" || e.Claimed != "turret_joint/command" || e.Rate != 100 {
		t.Errorf("turret_position: %+v, want active, claiming turret_joint/command, at 100 Hz", e)
	}
	if e = c.Wait("hood_position listed", func(e servicesEvent) bool { return e.Phase == 1 && e.Name == "hood_position" }); e.CType != "pid_controller/PidController" {
		t.Errorf("hood_position: type %q, want ros2_controllers' pid_controller/PidController", e.CType)
	}
	if e = c.Wait("the switch", func(e servicesEvent) bool { return e.Switch != nil }); *e.Switch != 1 {
		t.Errorf("deactivating turret_position: %+v", e)
	}
	if e = c.Wait("turret_position listed again", func(e servicesEvent) bool { return e.Phase == 2 && e.Name == "turret_position" }); e.State != "inactive" || e.Claimed != "" {
		t.Errorf("turret_position after the switch: %+v, want inactive, claiming nothing", e)
	}
	if err := turret.Command(0.3, d.Now()); err == nil {
		t.Error("the inactive turret_position took a command")
	}
	e = c.Wait("the hardware component", func(e servicesEvent) bool { return e.Component != "" })
	if ce := e.componentEvent; ce.Component != "frcd" || ce.Type != "system" || ce.Class == "" || ce.StateID != 3 || ce.Label != "active" ||
		ce.Commands == 0 || ce.States != 3*len(d.Loop.NewSnapshot().Joints) || ce.RWRate != 100 {
		t.Errorf("list_hardware_components: %+v, want frcd, a system, active (3), its interfaces, at 100 Hz", ce)
	}
	if e = c.Wait("set inactive", func(e servicesEvent) bool { return e.HWSet != nil }); *e.HWSet != 1 || e.HWID != 2 || e.HWLabel != "inactive" {
		t.Errorf("set_hardware_component_state frcd inactive: %+v, want ok, 2 inactive", e)
	}
	if e = c.Wait("the inactive component", func(e servicesEvent) bool { return e.Component != "" }); e.StateID != 2 || e.Label != "inactive" || e.Available != 0 {
		t.Errorf("list_hardware_components while inactive: %+v, want 2 inactive, no command interface available", e.componentEvent)
	}
	if e = c.Wait("set active", func(e servicesEvent) bool { return e.HWSet != nil }); *e.HWSet != 1 || e.HWID != 3 || e.HWLabel != "active" {
		t.Errorf("set_hardware_component_state frcd active: %+v, want ok, 3 active", e)
	}
	if e = c.Wait("the gain", func(e servicesEvent) bool { return e.Get != nil }); *e.Get != 3 || e.Value != yamlP {
		t.Errorf("turret_position.pid.p: %+v, want a double, %v", e, yamlP)
	}
	if e = c.Wait("the set", func(e servicesEvent) bool { return e.Set != nil }); *e.Set != 1 || turret.Gains().P != yamlP+1.5 {
		t.Errorf("set p to %v: %+v; the controller has %v", yamlP+1.5, e, turret.Gains().P)
	}
	if e = c.Wait("the integer set", func(e servicesEvent) bool { return e.Set != nil }); *e.Set != 0 || e.Reason == "" {
		t.Errorf("an integer for p: %+v, want refused with a reason", e)
	}
	if e = c.Wait("the gain again", func(e servicesEvent) bool { return e.Get != nil }); e.Value != yamlP+1.5 {
		t.Errorf("turret_position.pid.p at the end: %+v, want %v", e, yamlP+1.5)
	}
	if r := d.Loop.Deactivated(); r != "" {
		t.Errorf("still deactivated after set active: %q", r)
	}
}

// TestFastDDSAction: a FollowJointTrajectory client on Fast DDS 2.9.1 in
// rmw_fastrtps's convention (testdata/fastdds/action_client.cpp, types by
// fastddsgen from ActionFastDDS.idl: the request identity inline, so the
// deferred get_result reply must carry it back) sends a goal and asks for
// its result at once: accepted, SUCCEEDED (4), code 0, the joints at the
// goal.
func TestFastDDSAction(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a Fast DDS peer: skipped with -short")
	}
	bin := ddstest.FastDDS.Program(t, "testdata/fastdds/action_client.cpp", "testdata/ActionFastDDS.idl")
	r, list, err := robot.Load(exampleURDF, motionYAML(t))
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	domain := ddstest.Domain()
	d, err := daemon.NewSim(r, daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{ROS2: &daemon.ROS2Options{
		Node: ros2node.Config{Name: "frcd", RTPS: rtps.Config{Domain: domain, MaxPeerID: ddstest.MaxPeerID}}, Logf: t.Logf}})
	if err != nil {
		t.Fatal(err)
	}
	tooltest.Serve(t, d.Run)
	c := tooltest.StartJSON[clientEvent](t, ddstest.Env(domain), bin)
	e := c.Wait("the result", func(e clientEvent) bool { return e.Accepted != nil })
	sh, _ := d.Sim.Joint("shoulder_joint")
	el, _ := d.Sim.Joint("elevator_joint")
	t.Logf("%+v; shoulder %.3f elevator %.3f", e, sh.Position, el.Position)
	if *e.Accepted != 1 || e.Status != int(ros2msg.GoalSucceeded) || e.ErrorCode != 0 || math.Abs(sh.Position-0.8) > 0.05 || math.Abs(el.Position-0.4) > 0.05 {
		t.Errorf("want accepted, SUCCEEDED (4), code 0, the shoulder at 0.8 and the elevator at 0.4")
	}
}
