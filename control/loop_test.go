package control

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

const testURDF = `<robot name="t">
  <link name="base"/><link name="a"/><link name="b"/><link name="c"/><link name="d"/><link name="e"/>
  <joint name="arm" type="revolute"><parent link="base"/><child link="a"/>
    <limit lower="-1" upper="2" effort="1" velocity="1"/>
    <sensor name="enc"/><sensor name="up"/><sensor name="lo"/></joint>
  <joint name="flap" type="prismatic"><parent link="base"/><child link="b"/><limit lower="0" upper="0.3" effort="1" velocity="1"/></joint>
  <joint name="free" type="continuous"><parent link="base"/><child link="c"/></joint>
  <joint name="twin" type="revolute"><parent link="base"/><child link="d"/><limit lower="-4" upper="4" effort="1" velocity="1"/>
    <mimic joint="arm" multiplier="2" offset="0.5"/></joint>
  <joint name="claw" type="revolute"><parent link="base"/><child link="e"/><limit lower="0" upper="1" effort="1" velocity="1"/></joint>
</robot>`

const testYAML = `joints:
  - {name: pdp, type: pdp, id: 0}
  - {name: arm, type: talon, id: 0, pdp_ch: 3, k_eff: 2}
  - {name: enc, type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 0.01}
  - {name: up, type: digital_input, dio_channel: 2, limit: upper}
  - {name: lo, type: digital_input, dio_channel: 3, limit: lower}
  - {name: flap, type: double_solenoid, forward_id: 0, reverse_id: 1}
  - {name: claw, type: solenoid, id: 2}
controllers:
  - {name: arm_v, type: voltage_controllers/JointVoltageController, joint: arm, timeout: 0.1}
  - {name: flap_c, type: frcd_controllers/DoubleSolenoidController, joint: flap}
`

// fakeDev stands for a device: it records calls and fails Read on demand.
type fakeDev struct {
	name    string
	readErr error
	log     *[]string
	quiet   bool
}

func (f *fakeDev) Name() string                      { return f.name }
func (f *fakeDev) Read(now, dt time.Duration) error  { return f.readErr }
func (f *fakeDev) Write(now, dt time.Duration) error { f.record("write"); return nil }
func (f *fakeDev) Halt() error                       { f.record("halt"); return nil }
func (f *fakeDev) record(what string) {
	if !f.quiet {
		*f.log = append(*f.log, what+" "+f.name)
	}
}

func nan() float64      { return math.NaN() }
func inf(s int) float64 { return math.Inf(s) }

type fakeDS struct{ st hal.DSState }

func (d *fakeDS) DS() hal.DSState { return d.st }

// rig is a loop over fake devices whose handles the test sets directly.
type rig struct {
	l     *Loop
	ds    *fakeDS
	devs  map[string]*fakeDev
	log   []string
	enc   interfaces.RateState
	up    interfaces.BinaryState
	lo    interfaces.BinaryState
	pdp   interfaces.PDPState
	volts interfaces.AnalogState
	flap  interfaces.TernaryState
	claw  interfaces.BinaryState
	vcmd  interfaces.JointCommand
	fcmd  interfaces.TernaryCommand
	bcmd  interfaces.BinaryCommand
	spare interfaces.JointCommand // a command handle no controller claims
}

func newRig(t *testing.T) *rig {
	t.Helper()
	return newRigWith(t, testYAML)
}

// newRigWith is newRig with another YAML (its controllers, say).
func newRigWith(t *testing.T, yaml string) *rig {
	t.Helper()
	u, ul := urdf.Parse("t.urdf", []byte(testURDF))
	c, cl := config.Parse("t.yaml", []byte(yaml))
	r, xl := robot.Check(u, c)
	if ul.Errors()+cl.Errors()+xl.Errors() > 0 {
		t.Fatalf("robot: %v %v %v", ul, cl, xl)
	}
	g := &rig{ds: &fakeDS{hal.DSState{Enabled: true, Attached: true}}, devs: map[string]*fakeDev{}}
	reg := interfaces.NewRegistry()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(interfaces.RegisterState(reg, "enc", interfaces.Rate, &g.enc))
	must(interfaces.RegisterState(reg, "up", interfaces.Binary, &g.up))
	must(interfaces.RegisterState(reg, "lo", interfaces.Binary, &g.lo))
	must(interfaces.RegisterState(reg, "pdp", interfaces.PDP, &g.pdp))
	must(interfaces.RegisterState(reg, "arm", interfaces.Voltage, &g.volts))
	must(interfaces.RegisterState(reg, "flap", interfaces.Ternary, &g.flap))
	must(interfaces.RegisterState(reg, "claw", interfaces.Binary, &g.claw))
	must(interfaces.RegisterCommand(reg, "arm", "arm", interfaces.Voltage, &g.vcmd))
	must(interfaces.RegisterCommand(reg, "flap", "flap", interfaces.Ternary, &g.fcmd))
	must(interfaces.RegisterCommand(reg, "claw", "claw", interfaces.Binary, &g.bcmd))
	must(interfaces.RegisterCommand(reg, "led", "led", interfaces.Analog, &g.spare))
	var devs []Device
	for _, n := range []string{"pdp", "arm", "enc", "up", "lo", "flap", "claw"} {
		d := &fakeDev{name: n, log: &g.log}
		g.devs[n] = d
		devs = append(devs, d)
	}
	l, err := New(r, reg, devs, g.ds, Options{})
	must(err)
	g.l = l
	return g
}

func (g *rig) joint(t *testing.T, name string) interfaces.JointState {
	t.Helper()
	js, ok := g.l.JointState(name)
	if !ok {
		t.Fatalf("no joint %q", name)
	}
	return js
}

func TestMerge(t *testing.T) {
	g := newRig(t)
	g.enc = interfaces.RateState{State: 0.5, Rate: 1.5}
	g.pdp.Current[3] = 10
	g.volts.Value = -6
	g.l.Cycle(10 * time.Millisecond)

	arm := g.joint(t, "arm")
	if arm.Has != interfaces.HasPosition|interfaces.HasVelocity|interfaces.HasEffort || arm.Position != 0.5 || arm.Velocity != 1.5 || arm.Effort != -20 {
		t.Errorf("arm %+v, want pos 0.5 vel 1.5 effort -20 (10 A x 2, signed by -6 V)", arm)
	}
	if twin := g.joint(t, "twin"); twin.Position != 1.5 || twin.Velocity != 3 || twin.Has&interfaces.HasEffort != 0 {
		t.Errorf("mimic twin %+v, want pos 2*0.5+0.5, vel 2*1.5, no effort", twin)
	}
	if free := g.joint(t, "free"); free.Has != 0 {
		t.Errorf("free joint with no source %+v, want absent", free)
	}
	if flap := g.joint(t, "flap"); flap.Has != 0 {
		t.Errorf("double solenoid never moved: %+v, want absent", flap)
	}
	if claw := g.joint(t, "claw"); claw.Position != 0 || claw.Has&interfaces.HasPosition == 0 {
		t.Errorf("claw off %+v, want its lower limit 0", claw)
	}
	// Forward, then off: the flap stays at its upper limit.
	g.flap.Value = interfaces.Forward
	g.claw.Value = true
	g.l.Cycle(20 * time.Millisecond)
	g.flap.Value = interfaces.Off
	g.l.Cycle(30 * time.Millisecond)
	if flap := g.joint(t, "flap"); flap.Position != 0.3 {
		t.Errorf("flap after forward then off %+v, want 0.3", flap)
	}
	if claw := g.joint(t, "claw"); claw.Position != 1 {
		t.Errorf("claw on %+v, want 1", claw)
	}
	g.flap.Value = interfaces.Reverse
	g.l.Cycle(40 * time.Millisecond)
	if flap := g.joint(t, "flap"); flap.Position != 0 {
		t.Errorf("flap reversed %+v, want 0", flap)
	}
	// A device that fails to read leaves its joint's values absent: the
	// encoder's position and velocity go, the PDP's effort stays.
	g.devs["enc"].readErr = errors.New("unplugged")
	g.l.Cycle(50 * time.Millisecond)
	if arm := g.joint(t, "arm"); arm.Has != interfaces.HasEffort {
		t.Errorf("arm with a failed encoder %+v, want effort only", arm)
	}
	if g.l.Stats().DeviceErrors != 1 {
		t.Errorf("device errors %d", g.l.Stats().DeviceErrors)
	}
	// With no encoder, a pressed limit switch gives the position.
	g.up.Value = true
	g.l.Cycle(60 * time.Millisecond)
	if arm := g.joint(t, "arm"); arm.Position != 2 || arm.Velocity != 0 {
		t.Errorf("arm on its upper switch %+v, want 2", arm)
	}
}

func TestSafety(t *testing.T) {
	g := newRig(t)
	ctl := g.l.Controller("arm_v")
	now := 10 * time.Millisecond
	if err := ctl.Command(6, now); err != nil {
		t.Fatal(err)
	}
	g.l.Cycle(now)
	if !g.vcmd.Set || g.vcmd.Value != 6 {
		t.Fatalf("voltage command %+v, want 6", g.vcmd)
	}
	// The upper switch blocks a positive voltage, not a negative one.
	g.up.Value = true
	g.l.Cycle(20 * time.Millisecond)
	if g.vcmd.Value != 0 || g.l.Stats().Blocked != 1 {
		t.Errorf("into the upper switch: %+v blocked %d", g.vcmd, g.l.Stats().Blocked)
	}
	_ = ctl.Command(-6, 25*time.Millisecond)
	g.l.Cycle(30 * time.Millisecond)
	if g.vcmd.Value != -6 {
		t.Errorf("away from the upper switch: %+v", g.vcmd)
	}
	// Not finite: refused at the door, counted, the last good command holds.
	for _, bad := range []float64{nan(), inf(1), inf(-1)} {
		if err := ctl.Command(bad, 31*time.Millisecond); !errors.Is(err, ErrRefused) {
			t.Errorf("Command(%v) = %v, want ErrRefused", bad, err)
		}
	}
	if ctl.Refused() != 3 {
		t.Errorf("refused %d", ctl.Refused())
	}
	g.l.Cycle(40 * time.Millisecond)
	if g.vcmd.Value != -6 {
		t.Errorf("after refused commands: %+v", g.vcmd)
	}
	// Stale after its 0.1 s timeout (command at 25 ms): neutral at 130 ms.
	g.l.Cycle(120 * time.Millisecond)
	if !g.vcmd.Set {
		t.Errorf("dropped before its timeout")
	}
	g.l.Cycle(130 * time.Millisecond)
	if g.vcmd.Set || g.l.Stats().Stale != 1 {
		t.Errorf("after the timeout: %+v stale %d", g.vcmd, g.l.Stats().Stale)
	}
	// A tri-state must be -1, 0 or 1.
	if err := g.l.Controller("flap_c").Command(0.5, 0); !errors.Is(err, ErrRefused) {
		t.Errorf("tri-state 0.5: %v", err)
	}
	// A non-finite value that got into a handle anyway (not through a
	// controller) never reaches Write.
	g.spare.Put(inf(1), 135*time.Millisecond)
	g.l.Cycle(140 * time.Millisecond)
	if g.spare.Set || g.l.Stats().Refused != 1 {
		t.Errorf("+Inf in a handle: %+v refused %d", g.spare, g.l.Stats().Refused)
	}
}

func TestDisable(t *testing.T) {
	g := newRig(t)
	_ = g.l.Controller("arm_v").Command(6, 0)
	g.l.Cycle(10 * time.Millisecond)
	if want := "write claw,write flap,write lo,write up,write enc,write arm,write pdp"; strings.Join(g.log, ",") != want {
		t.Errorf("writes %v, want reverse order %s", g.log, want)
	}
	g.log = nil
	g.ds.st.Enabled = false
	g.l.Cycle(20 * time.Millisecond)
	if want := "halt claw,halt flap,halt lo,halt up,halt enc,halt arm,halt pdp"; strings.Join(g.log, ",") != want {
		t.Errorf("disabled: %v, want every device halted in reverse order", g.log)
	}
	if g.vcmd.Set {
		t.Errorf("voltage command kept while disabled: %+v", g.vcmd)
	}
	// Re-enabled, the old command (still within its timeout) is gone.
	g.ds.st.Enabled = true
	g.l.Cycle(30 * time.Millisecond)
	if g.vcmd.Set {
		t.Errorf("old command came back after re-enable: %+v", g.vcmd)
	}
	g.ds.st.EStop = true
	g.log = nil
	g.l.Cycle(40 * time.Millisecond)
	if len(g.log) != 7 || !strings.HasPrefix(g.log[0], "halt") {
		t.Errorf("e-stopped: %v", g.log)
	}
}

func TestCycleAllocs(t *testing.T) {
	g := newRig(t)
	ctl := g.l.Controller("arm_v")
	now := time.Duration(0)
	g.l.Cycle(now)
	for _, f := range g.devs {
		f.quiet = true
	}
	a := testing.AllocsPerRun(500, func() {
		now += time.Millisecond
		_ = ctl.Command(3, now)
		g.l.Cycle(now)
	})
	if a != 0 {
		t.Errorf("Cycle allocates %v", a)
	}
}

func TestTwoControllersOneJoint(t *testing.T) {
	u, _ := urdf.Parse("t.urdf", []byte(testURDF))
	c, _ := config.Parse("t.yaml", []byte(testYAML+"  - {name: arm_pos, type: voltage_controllers/JointVoltageController, joint: arm}\n"))
	r, _ := robot.Check(u, c)
	reg := interfaces.NewRegistry()
	var v interfaces.JointCommand
	if err := interfaces.RegisterCommand(reg, "arm", "arm", interfaces.Voltage, &v); err != nil {
		t.Fatal(err)
	}
	_, err := New(r, reg, nil, &fakeDS{}, Options{})
	if err == nil || !strings.Contains(err.Error(), `arm_pos: command handle "arm/voltage" is already claimed by arm_v`) {
		t.Errorf("New: %v, want the second claim refused naming both", err)
	}
}

// TestGroupController: a group takes one value per joint, in its order,
// refuses a command of another length or with a NaN whole, and lets every
// joint go neutral when its command goes stale.
func TestGroupController(t *testing.T) {
	const gURDF = `<robot name="g"><link name="base"/><link name="l"/><link name="r"/>
  <joint name="left" type="continuous"><parent link="base"/><child link="l"/></joint>
  <joint name="right" type="continuous"><parent link="base"/><child link="r"/></joint></robot>`
	const gYAML = "joints:\n  - {name: left, type: talon, id: 0}\n  - {name: right, type: talon, id: 1}\n" +
		"controllers:\n  js: {type: joint_state_controller/JointStateController}\n" +
		"  drive: {type: voltage_controllers/JointGroupVoltageController, joints: [right, left], timeout: 0.05}\n"
	var left, right interfaces.JointCommand
	l := voltageLoop(t, gURDF, gYAML, map[string]*interfaces.JointCommand{"left": &left, "right": &right})
	if len(l.Controllers()) != 1 {
		t.Fatalf("controllers %d, want 1 (the joint state controller takes no commands)", len(l.Controllers()))
	}
	drive := l.Controller("drive")
	if drive.Takes() != Float64Array || strings.Join(drive.Joints, ",") != "right,left" {
		t.Fatalf("drive takes %v joints %v", drive.Takes(), drive.Joints)
	}
	now := 10 * time.Millisecond
	if err := drive.CommandGroup([]float64{3, -4}, now); err != nil {
		t.Fatal(err)
	}
	l.Cycle(now)
	if right.Value != 3 || left.Value != -4 || !right.Set || !left.Set {
		t.Errorf("right %+v left %+v, want 3 and -4", right, left)
	}
	for _, bad := range [][]float64{{1}, {1, 2, 3}, {1, nan()}, nil} {
		if err := drive.CommandGroup(bad, now); !errors.Is(err, ErrRefused) {
			t.Errorf("CommandGroup(%v) = %v, want refused", bad, err)
		}
	}
	if err := drive.Command(1, now); !errors.Is(err, ErrRefused) {
		t.Errorf("Command on a group = %v, want refused", err)
	}
	drive.Refuse()
	if drive.Refused() != 6 {
		t.Errorf("refused %d, want 6", drive.Refused())
	}
	now += 10 * time.Millisecond
	l.Cycle(now)
	if right.Value != 3 || left.Value != -4 {
		t.Errorf("a refused command changed the outputs: right %+v left %+v", right, left)
	}
	now += 50 * time.Millisecond // past the timeout
	l.Cycle(now)
	if right.Set || left.Set {
		t.Errorf("stale group command still drives: right %+v left %+v", right, left)
	}
}

// TestSnapshotStates: the snapshot carries the PDPs' states with their
// device's health, and Notify signals each cycle without ever blocking.
func TestSnapshotStates(t *testing.T) {
	g := newRig(t)
	updated := g.l.Notify()
	g.pdp.Voltage, g.pdp.Current[3] = 12.3, 7
	g.l.Cycle(10 * time.Millisecond)
	g.l.Cycle(20 * time.Millisecond) // a second signal is dropped, not waited on
	select {
	case <-updated:
	default:
		t.Fatal("no update signalled")
	}
	select {
	case <-updated:
		t.Fatal("two signals queued; want the newest only")
	default:
	}
	s := g.l.NewSnapshot()
	g.l.ReadSnapshot(s)
	if len(s.PDPs) != 1 || s.PDPs[0].Name != "pdp" || !s.PDPs[0].OK || s.PDPs[0].State.Voltage != 12.3 || s.PDPs[0].State.Current[3] != 7 {
		t.Errorf("PDPs %+v", s.PDPs)
	}
	if len(s.IMUs) != 0 || len(s.Compressors) != 0 {
		t.Errorf("IMUs %v compressors %v, want none", s.IMUs, s.Compressors)
	}
	g.devs["pdp"].readErr = errors.New("gone")
	g.l.Cycle(30 * time.Millisecond)
	g.l.ReadSnapshot(s)
	if s.PDPs[0].OK {
		t.Error("PDP sample OK after a failed read")
	}
}
