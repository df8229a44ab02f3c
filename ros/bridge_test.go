package ros

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros/master"
	"github.com/frcd/frcd/urdf"
)

func TestEnv(t *testing.T) {
	cases := []struct {
		env       Env
		uri, addr string
		host      string
		bad       bool
	}{
		{Env{}, "http://localhost:11311/", "localhost:11311", "", false},
		{Env{MasterURI: "http://10.1.2.2:11311", IP: "10.1.2.5", Hostname: "rio"}, "http://10.1.2.2:11311/", "10.1.2.2:11311", "10.1.2.5", false},
		{Env{MasterURI: "http://roborio-1234-frc.local/", Hostname: "rio"}, "http://roborio-1234-frc.local:11311/", "roborio-1234-frc.local:11311", "rio", false},
		{Env{MasterURI: "localhost:11311"}, "", "", "", true},
		{Env{MasterURI: "rosrpc://x:1"}, "", "", "", true},
	}
	for _, c := range cases {
		uri, addr, err := c.env.Master()
		if (err != nil) != c.bad || uri != c.uri || addr != c.addr || (!c.bad && c.env.Host() != c.host) {
			t.Errorf("%+v: %q %q %v host %q", c.env, uri, addr, err, c.env.Host())
		}
	}
	e := EnvFrom(func(k string) string {
		return map[string]string{"ROS_MASTER_URI": "http://m:1", "ROS_IP": "1.2.3.4"}[k]
	})
	if e.MasterURI != "http://m:1" || e.Host() != "1.2.3.4" {
		t.Errorf("EnvFrom: %+v", e)
	}
	if _, err := ParseMasterMode("embeded"); err == nil {
		t.Error("ParseMasterMode accepted a typo")
	}
	if m, err := ParseMasterMode("external"); err != nil || m != MasterExternal {
		t.Errorf("external: %v %v", m, err)
	}
}

const testURDF = `<robot name="t"><link name="base"/><link name="a"/><link name="w"/>
  <joint name="arm" type="revolute"><parent link="base"/><child link="a"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="wheel" type="continuous"><parent link="base"/><child link="w"/></joint></robot>`

func testLoop(t *testing.T, yaml string) (*control.Loop, *config.File, *interfaces.Registry) {
	t.Helper()
	u, ul := urdf.Parse("t.urdf", []byte(testURDF))
	c, cl := config.Parse("t.yaml", []byte(yaml))
	r, xl := robot.Check(u, c)
	if ul.Errors()+cl.Errors()+xl.Errors() > 0 {
		t.Fatalf("robot: %v %v %v", ul, cl, xl)
	}
	reg := interfaces.NewRegistry()
	for _, n := range []string{"arm", "wheel"} {
		var h interfaces.JointCommand
		if err := interfaces.RegisterCommand(reg, n, n, interfaces.Voltage, &h); err != nil {
			t.Fatal(err)
		}
	}
	l, err := control.New(r, reg, nil, dsFunc(func() hal.DSState { return hal.DSState{Enabled: true, Attached: true} }), control.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return l, c, reg
}

type dsFunc func() hal.DSState

func (f dsFunc) DS() hal.DSState { return f() }

const testYAML = "joints:\n  - {name: arm, type: talon, id: 0}\n  - {name: wheel, type: talon, id: 1}\n" +
	"controllers:\n  arm_v: {type: voltage_controllers/JointVoltageController, joint: arm}\n"

func TestPublishPeriod(t *testing.T) {
	for _, c := range []struct {
		yaml string
		loop time.Duration
		rate float64
		want time.Duration
	}{
		{testYAML, 10 * time.Millisecond, 0, 10 * time.Millisecond},
		{testYAML, time.Millisecond, 0, 10 * time.Millisecond}, // the loop's rate, at most 100 Hz
		{testYAML + "  js: {type: joint_state_controller/JointStateController, publish_rate: 25}\n", time.Millisecond, 0, 40 * time.Millisecond},
		{testYAML + "  js: {type: joint_state_controller/JointStateController, publish_rate: 500}\n", 10 * time.Millisecond, 0, 10 * time.Millisecond}, // never faster than the loop
		{testYAML + "  js: {type: joint_state_controller/JointStateController, publish_rate: 25}\n", time.Millisecond, 1000, time.Millisecond},         // the override wins
	} {
		f, list := config.Parse("t.yaml", []byte(c.yaml))
		if list.Errors() > 0 {
			t.Fatal(list)
		}
		if got := PublishPeriod(f, c.loop, c.rate); got != c.want {
			t.Errorf("loop %s: %s, want %s", c.loop, got, c.want)
		}
	}
}

// TestMessages: the JointState names every movable joint in one order
// from the first message, with every field: a position not yet measured
// is the joint's rest position, then the last measured, never NaN; an
// unmeasured velocity or effort is 0. Diagnostics report a device's
// health and a controller's refused commands once.
func TestMessages(t *testing.T) {
	l, c, _ := testLoop(t, testYAML)
	b, err := New(Options{Loop: l, Config: c, Clock: func() time.Duration { return 0 }, Epoch: time.Unix(1000, 0),
		Rest: map[string]float64{"arm": -0.5}})
	if err != nil {
		t.Fatal(err)
	}
	s := l.NewSnapshot()
	s.Now = 1500 * time.Millisecond
	m := newBuilder(s, b)
	want := func(step string, js *sensor_msgs.JointState, pos, vel, eff [2]float64) {
		t.Helper()
		if !reflect.DeepEqual(js.Name, []string{"arm", "wheel"}) || !reflect.DeepEqual(js.Position, pos[:]) ||
			!reflect.DeepEqual(js.Velocity, vel[:]) || !reflect.DeepEqual(js.Effort, eff[:]) {
			t.Errorf("%s: %+v, want positions %v velocities %v efforts %v", step, js, pos, vel, eff)
		}
	}
	set := func(name string, f func(st *interfaces.JointState)) {
		for i := range s.Joints {
			if s.Joints[i].Name == name {
				f(&s.Joints[i].State)
			}
		}
	}
	js := m.jointState()
	want("nothing measured", js, [2]float64{-0.5, 0}, [2]float64{}, [2]float64{})
	if js.Header.Seq != 1 || !js.Header.Stamp.Equal(time.Unix(1001, 5e8)) {
		t.Errorf("header %+v", js.Header)
	}
	set("arm", func(st *interfaces.JointState) { st.SetPosition(0.25) })
	set("wheel", func(st *interfaces.JointState) { st.SetEffort(3) })
	js = m.jointState()
	want("arm's position, wheel's effort", js, [2]float64{0.25, 0}, [2]float64{}, [2]float64{0, 3})
	if js.Header.Seq != 2 {
		t.Errorf("seq %d", js.Header.Seq)
	}
	set("arm", func(st *interfaces.JointState) { *st = interfaces.JointState{} })
	set("wheel", func(st *interfaces.JointState) { st.Position, st.Has = math.NaN(), interfaces.HasPosition })
	want("arm no longer measured, wheel NaN", m.jointState(), [2]float64{0.25, 0}, [2]float64{}, [2]float64{})

	ctl := l.Controller("arm_v")
	_ = ctl.Command(math.NaN(), 0)
	_ = ctl.Command(1e300, 0) // out of range
	l.ReadSnapshot(m.s)
	d := m.diagnostics()
	if d.Status[0].Level != levelWarn {
		t.Errorf("loop status %+v after refused commands, want WARN", d.Status[0])
	}
	var found bool
	for _, st := range d.Status {
		if st.Name == "frcd: controller arm_v" {
			found = true
			if st.Level != levelWarn || !strings.Contains(st.Message, "2 commands refused") {
				t.Errorf("controller status %+v", st)
			}
		}
	}
	if !found || d.Status[0].Name != "frcd: loop" {
		t.Errorf("statuses %+v", d.Status)
	}
	d = m.diagnostics()
	if d.Status[0].Level != levelOK {
		t.Errorf("loop status %+v with nothing refused since, want OK", d.Status[0])
	}
	for _, st := range d.Status {
		if st.Name == "frcd: controller arm_v" && (st.Level != levelOK || st.Values[2].Value != "2") {
			t.Errorf("second report %+v, want OK with the count kept", st)
		}
	}
}

func TestDeviceHealth(t *testing.T) {
	l, c, _ := testLoop(t, testYAML)
	b, _ := New(Options{Loop: l, Config: c, Clock: func() time.Duration { return 0 }})
	s := &control.Snapshot{Devices: []control.DeviceSample{
		{Name: "ok", OK: true},
		{Name: "stale", LastErr: hal.ErrTimeout, Errors: 3},
		{Name: "broken", LastErr: hal.ErrNoDevice, Errors: 1},
		{Name: "new"},
		{Name: "starting", Configuring: fmt.Errorf("spark: no answer yet: %w", hal.ErrConfiguring), LastErr: hal.ErrNoDevice, Errors: 1},
	}}
	m := newBuilder(s, b)
	want := map[string]int8{"ok": levelOK, "stale": levelStale, "broken": levelError, "new": levelStale, "starting": levelWarn}
	for _, st := range m.diagnostics().Status {
		name := strings.TrimPrefix(st.Name, "frcd: device ")
		if lvl, ok := want[name]; ok {
			if st.Level != lvl || (name == "broken" && !strings.Contains(st.Message, hal.ErrNoDevice.Error())) ||
				(name == "starting" && st.Message != "configuring: spark: no answer yet: starting up") {
				t.Errorf("%s: level %d message %q", name, st.Level, st.Message)
			}
			delete(want, name)
		}
	}
	if len(want) != 0 {
		t.Errorf("devices missing: %v", want)
	}
}

// TestWrongTypeCounted: a command topic the master knows by another type
// (a publisher of the wrong type, whose connection goroslib refuses) is
// counted once as a refused command of its controller, until it is right
// again.
func TestWrongTypeCounted(t *testing.T) {
	m := master.New(master.Options{})
	if err := m.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	l, c, _ := testLoop(t, testYAML)
	b, err := New(Options{Loop: l, Config: c, Clock: func() time.Duration { return 0 }, Env: Env{MasterURI: m.URI()}})
	if err != nil {
		t.Fatal(err)
	}
	port := 0
	register := func(node, topic, typ string) {
		t.Helper()
		port++ // an API of its own, as every node has
		if _, err := master.Call(context.Background(), m.URI(), "registerPublisher", node, topic, typ, fmt.Sprintf("http://127.0.0.1:%d/", port)); err != nil {
			t.Fatal(err)
		}
	}
	wrong := map[string]bool{}
	register("/ok", "/arm_v/command", "std_msgs/Float64")
	b.checkTypes(context.Background(), wrong)
	register("/bad", "/arm_v/command", "std_msgs/Bool")
	register("/other", "/other/command", "std_msgs/Bool") // no controller's topic
	b.checkTypes(context.Background(), wrong)
	b.checkTypes(context.Background(), wrong) // still wrong: counted once
	if n := l.Controller("arm_v").Refused(); n != 1 {
		t.Errorf("refused %d, want 1", n)
	}
	register("/ok2", "/arm_v/command", "std_msgs/Float64")
	b.checkTypes(context.Background(), wrong)
	register("/bad2", "/arm_v/command", "std_msgs/Int8")
	b.checkTypes(context.Background(), wrong)
	if n, s := l.Controller("arm_v").Refused(), b.Stats(); n != 2 || s.WrongType != 2 {
		t.Errorf("after a second wrong publisher: refused %d, stats %+v", n, s)
	}
}

// TestCommandCallbacks: each topic type reaches its controller; a group
// takes a Float64MultiArray, and one of the wrong length is refused.
func TestCommandCallbacks(t *testing.T) {
	l, c, reg := testLoop(t, testYAML+"  both: {type: voltage_controllers/JointGroupVoltageController, joints: [wheel]}\n")
	now := 7 * time.Millisecond
	b, _ := New(Options{Loop: l, Config: c, Clock: func() time.Duration { return now }})
	arm, both := l.Controller("arm_v"), l.Controller("both")
	if commandType(arm) != "std_msgs/Float64" || commandType(both) != "std_msgs/Float64MultiArray" {
		t.Fatalf("types %s %s", commandType(arm), commandType(both))
	}
	b.commandCallback(arm).(func(*std_msgs.Float64))(&std_msgs.Float64{Data: 3})
	b.commandCallback(arm).(func(*std_msgs.Float64))(&std_msgs.Float64{Data: math.Inf(1)})
	group := b.commandCallback(both).(func(*std_msgs.Float64MultiArray))
	group(&std_msgs.Float64MultiArray{Data: []float64{-2}})
	group(&std_msgs.Float64MultiArray{Data: []float64{1, 2}})
	if s := b.Stats(); s.Commands != 2 {
		t.Errorf("commands passed %d, want 2", s.Commands)
	}
	if arm.Refused() != 1 || both.Refused() != 1 {
		t.Errorf("refused: arm %d group %d, want 1 each", arm.Refused(), both.Refused())
	}
	l.Cycle(now)
	for joint, want := range map[string]float64{"arm": 3, "wheel": -2} {
		h, err := interfaces.LookupCommand[float64](reg, joint, interfaces.Voltage)
		if err != nil || !h.Set || h.Value != want {
			t.Errorf("%s voltage command %+v %v, want %v", joint, h, err, want)
		}
	}
}

// TestRegistered: Registered(n) closes once the bridge has registered n
// times in all, and stays open for a registration yet to come.
func TestRegistered(t *testing.T) {
	l, c, _ := testLoop(t, testYAML)
	b, err := New(Options{Loop: l, Config: c, Clock: func() time.Duration { return 0 }})
	if err != nil {
		t.Fatal(err)
	}
	closed := func(ch <-chan struct{}) bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	first, second := b.Registered(1), b.Registered(2)
	if !closed(b.Registered(0)) || closed(first) || closed(second) {
		t.Fatal("before any registration")
	}
	b.setConnected(true, 10)
	if !closed(first) || closed(second) {
		t.Fatal("after the first registration")
	}
	b.setConnected(false, 0)
	if closed(second) {
		t.Fatal("a loss is not a registration")
	}
	b.setConnected(true, 11)
	if !closed(second) || !closed(b.Registered(2)) || closed(b.Registered(3)) {
		t.Fatal("after the second registration")
	}
}

// TestTruthMessages: the ground truth's JointState copies the joints' true
// state; its Odometry holds the pose in odom, with the twist in the base's
// frame, and is absent without a drive base.
func TestTruthMessages(t *testing.T) {
	l, c, _ := testLoop(t, testYAML)
	b, err := New(Options{Loop: l, Config: c, Clock: func() time.Duration { return 0 }, Epoch: time.Unix(1000, 0)})
	if err != nil {
		t.Fatal(err)
	}
	s := l.NewSnapshot()
	s.Now = 2 * time.Second
	m := newBuilder(s, b)
	tr := &Truth{Names: []string{"arm", "wheel"}, Position: []float64{0.5, 10}, Velocity: []float64{0, 3}, Effort: []float64{1, 2},
		HasPose: true, BaseFrame: "chassis", X: 1, Y: -2, Yaw: math.Pi / 2, VX: 0.5, VY: 0.1, WZ: -0.3}
	js, odom := m.truth(tr)
	tr.Position[0] = 99 // the message is a copy: the Truth is the caller's
	if js.Name[1] != "wheel" || js.Position[0] != 0.5 || js.Velocity[1] != 3 || js.Effort[1] != 2 || !js.Header.Stamp.Equal(time.Unix(1002, 0)) {
		t.Errorf("joint truth %+v", js)
	}
	if odom == nil {
		t.Fatal("no odometry")
	}
	q := odom.Pose.Pose.Orientation
	if odom.Header.FrameId != "odom" || odom.ChildFrameId != "chassis" || odom.Pose.Pose.Position.X != 1 || odom.Pose.Pose.Position.Y != -2 ||
		math.Abs(q.Z-math.Sqrt(0.5)) > 1e-12 || math.Abs(q.W-math.Sqrt(0.5)) > 1e-12 || q.X != 0 || q.Y != 0 {
		t.Errorf("odometry pose %+v %+v", odom.Header, odom.Pose.Pose)
	}
	if tw := odom.Twist.Twist; tw.Linear.X != 0.5 || tw.Linear.Y != 0.1 || tw.Angular.Z != -0.3 {
		t.Errorf("odometry twist %+v", tw)
	}
	tr.HasPose = false
	if _, odom := m.truth(tr); odom != nil {
		t.Errorf("odometry without a base: %+v", odom)
	}
}

// TestExtraDiagnostics: Options.Diagnostics' statuses (the CAN buses, the
// inventory) come after the loop's, with their levels and values.
func TestExtraDiagnostics(t *testing.T) {
	l, c, _ := testLoop(t, testYAML)
	calls := 0
	b, _ := New(Options{Loop: l, Config: c, Clock: func() time.Duration { return 0 },
		Diagnostics: func(dst []Status) []Status {
			calls++
			return append(dst, Status{Level: LevelWarn, Name: "frcd: CAN can0", HardwareID: "can0", Message: "load 75.0 %",
				Values: [][2]string{{"load", "0.75"}, {"error frames", "3"}}})
		}})
	m := newBuilder(&control.Snapshot{}, b)
	for i := 1; i <= 2; i++ {
		d := m.diagnostics()
		last := d.Status[len(d.Status)-1]
		if last.Name != "frcd: CAN can0" || last.Level != levelWarn || last.HardwareId != "can0" || last.Message != "load 75.0 %" ||
			len(last.Values) != 2 || last.Values[1].Key != "error frames" || last.Values[1].Value != "3" {
			t.Errorf("report %d: last status %+v", i, last)
		}
		if n := len(d.Status); n < 2 || d.Status[n-2].Name == "frcd: CAN can0" {
			t.Errorf("report %d: the status appears more than once: %+v", i, d.Status)
		}
	}
	if calls != 2 {
		t.Errorf("Diagnostics called %d times, want 2", calls)
	}
}
