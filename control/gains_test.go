package control_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/frcd/frcd/control"
)

// gainsYAML: a profiled controller (one PID, with pid.f) on the arm and
// a joint trajectory controller (a PID per joint) on the table.
const gainsYAML = `joints:
  - {name: arm_joint, type: talon_srx, id: 1}
  - {name: arm_encoder, type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 0.001}
  - {name: table_joint, type: can_victor_spx, id: 2}
  - {name: table_encoder, type: encoder, ch_a: 2, ch_b: 3, dist_per_pulse: 0.001}
controllers:
  arm: {type: frcd_controllers/ProfiledPositionController, joint: arm_joint, pid: {p: 60, i: 20, d: 1, i_clamp: 1, f: 1.22}, max_acceleration: 10}
  table: {type: effort_controllers/JointTrajectoryController, joints: [table_joint], pid: {p: 40, d: 2}}
loop: {rate_hz: 200}
sim:
  joints:
    - {name: arm_joint, motor: 775pro, gearing: 200, inertia: 0.5}
    - {name: table_joint, motor: 775pro, gearing: 200, inertia: 0.5}
`

// SetGain checks each gain against its YAML key's range and reaches the
// PID only at the loop's next cycle, where the state the loop reports
// (JointControllerState's p, i, d, i_clamp) shows it; a refused one is
// counted and the old value kept. A trajectory controller's gains are
// per joint. Setting a gain and the cycle that takes it allocate nothing.
func TestSetGain(t *testing.T) {
	d := profiledRobot(t, gainsYAML)
	arm, table := d.Loop.Controller("arm"), d.Loop.Controller("table")
	want := []control.GainID{{"", "p"}, {"", "i"}, {"", "d"}, {"", "i_clamp"}, {"", "f"}}
	if !slices.Equal(arm.GainIDs(), want) {
		t.Errorf("arm's gains %v, want %v", arm.GainIDs(), want)
	}
	if ids := table.GainIDs(); len(ids) != 5 || ids[0] != (control.GainID{Joint: "table_joint", Term: "p"}) {
		t.Errorf("table's gains %v", ids)
	}
	if g, ok := arm.Gain(control.GainID{Term: "i_clamp"}); !ok || g != 1 {
		t.Errorf("arm i_clamp %v %v, want the YAML's 1", g, ok)
	}
	// The ranges SetGain takes, as dynamic_reconfigure describes them.
	if lo, hi, ok := arm.GainRange(control.GainID{Term: "p"}); !ok || lo != 0 || hi <= lo {
		t.Errorf("arm p range %v..%v %v, want 0..a positive bound", lo, hi, ok)
	}
	if _, hi, ok := arm.GainRange(control.GainID{Term: "i_clamp"}); !ok || arm.SetGain(control.GainID{Term: "i_clamp"}, hi*2, d.Now()) == nil {
		t.Errorf("arm i_clamp range ..%v %v: SetGain took twice its max", hi, ok)
	}
	if _, _, ok := arm.GainRange(control.GainID{Term: "i_clamp_min"}); ok {
		t.Error("a range for a gain the arm does not have")
	}
	if err := arm.Command(0.5, d.Now()); err != nil {
		t.Fatal(err)
	}
	d.Step()
	pidState := func() control.ControllerSample {
		s := d.Loop.NewSnapshot()
		d.Loop.ReadSnapshot(s)
		for _, p := range s.PIDs {
			if p.Name == "arm" {
				return p
			}
		}
		t.Fatal("no arm state")
		return control.ControllerSample{}
	}
	if err := arm.SetGain(control.GainID{Term: "p"}, 12, d.Now()); err != nil {
		t.Fatal(err)
	}
	if err := arm.SetGain(control.GainID{Term: "i_clamp"}, 0.5, d.Now()); err != nil {
		t.Fatal(err)
	}
	if st := pidState(); st.P != 60 || st.IClamp != 1 {
		t.Errorf("the PID changed before a cycle: %+v", st)
	}
	d.Step()
	if st := pidState(); st.P != 12 || st.IClamp != 0.5 || st.I != 20 {
		t.Errorf("after a cycle: p %v i %v i_clamp %v, want 12, 20, 0.5", st.P, st.I, st.IClamp)
	}
	if g := arm.Gains(); g.P != 12 || g.F != 1.22 {
		t.Errorf("Gains %+v", g)
	}
	refused := arm.Refused()
	for _, c := range []struct {
		id control.GainID
		v  float64
	}{
		{control.GainID{Term: "p"}, math.NaN()},
		{control.GainID{Term: "i"}, -1},
		{control.GainID{Term: "d"}, math.Inf(1)},
		{control.GainID{Term: "i_clamp"}, 25}, // over pid.i_clamp's 24 V
		{control.GainID{Term: "p"}, 2e6},      // over 1e6
		{control.GainID{Term: "q"}, 1},
		{control.GainID{Joint: "table_joint", Term: "p"}, 1}, // the arm's PID has no joint
	} {
		if err := arm.SetGain(c.id, c.v, d.Now()); !errors.Is(err, control.ErrRefused) {
			t.Errorf("SetGain(%v, %v): %v, want refused", c.id, c.v, err)
		}
	}
	if n := arm.Refused() - refused; n != 7 {
		t.Errorf("%d refusals counted, want 7", n)
	}
	d.Step()
	if st := pidState(); st.P != 12 || st.I != 20 || st.D != 1 || st.IClamp != 0.5 {
		t.Errorf("a refused gain reached the PID: %+v", st)
	}
	if g, _ := arm.Gain(control.GainID{Term: "f"}); g != 1.22 {
		t.Errorf("f %v", g)
	}
	if err := arm.SetGain(control.GainID{Term: "f"}, -0.5, d.Now()); err != nil { // pid.f may be negative
		t.Errorf("f -0.5: %v", err)
	}
	tp := control.GainID{Joint: "table_joint", Term: "p"}
	if err := table.SetGain(tp, 55, d.Now()); err != nil {
		t.Fatal(err)
	}
	if err := table.SetGain(control.GainID{Term: "p"}, 55, d.Now()); !errors.Is(err, control.ErrRefused) {
		t.Errorf("a trajectory controller's gain without its joint: %v", err)
	}
	d.Step()
	if g, _ := table.Gain(tp); g != 55 {
		t.Errorf("table p %v", g)
	}
	i := control.GainID{Term: "i"}
	if a := testing.AllocsPerRun(200, func() {
		if err := arm.SetGain(i, 3, d.Now()); err != nil {
			t.Fatal(err)
		}
		d.Step()
	}); a != 0 {
		t.Errorf("%v allocations per SetGain and cycle", a)
	}
}

// BenchmarkSetGain: a gain handed to a running controller, from outside
// the loop (a transport's goroutine): a mutex and a copy, no allocation.
func BenchmarkSetGain(b *testing.B) {
	d := profiledRobot(b, gainsYAML)
	arm := d.Loop.Controller("arm")
	id := control.GainID{Term: control.GainP}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := arm.SetGain(id, float64(i%100), d.Now()); err != nil {
			b.Fatal(err)
		}
	}
}

// SetGains (a dashboard's /Tunables or tuning/ gains, /frcd's
// NAME.pid.p) holds each gain to its YAML key's range, as SetGain does:
// a p over pid.p's 1e6 is refused and counted, the old gains kept; a
// negative f (pid.f's range is -1e6..1e6) is taken. (Review: SetGains
// checked only finite and >= 0, so /Tunables took p = 1e300, which ROS
// 2's controller node refused, and refused every gain of a controller
// whose f was negative.)
func TestSetGainsRange(t *testing.T) {
	d := profiledRobot(t, gainsYAML)
	arm := d.Loop.Controller("arm")
	refused := arm.Refused()
	for _, g := range []control.Gains{{P: 2e6}, {P: 1, I: 1e300}, {P: 1, D: 1.5e6}, {P: 1, F: 2e6}} {
		if err := arm.SetGains(g, d.Now()); !errors.Is(err, control.ErrRefused) {
			t.Errorf("SetGains(%+v): %v, want refused", g, err)
		}
	}
	if n := arm.Refused() - refused; n != 4 {
		t.Errorf("%d refusals counted, want 4", n)
	}
	if g := arm.Gains(); g != (control.Gains{P: 60, I: 20, D: 1, F: 1.22}) {
		t.Errorf("gains %+v after refusals, want the YAML's", g)
	}
	if err := arm.SetGains(control.Gains{P: 1e6, I: 3, D: 0, F: -0.5}, d.Now()); err != nil { // pid.f may be negative, as SetGain takes it
		t.Errorf("gains at their bounds, f -0.5: %v", err)
	}
	for _, g := range []control.Gains{{P: -1}, {I: -1}, {D: -1}, {F: -2e6}} {
		if err := arm.SetGains(g, d.Now()); !errors.Is(err, control.ErrRefused) {
			t.Errorf("SetGains(%+v): %v, want refused", g, err)
		}
	}
}

// TestSetGainTerm: a dashboard's change to one gain keeps the others as
// they are at that instant: a change to p made meanwhile by another
// client (a ROS 2 parameter set) survives a change to d, which a read of
// the four gains and a write of all four back could undo. One out of
// range, not finite, or of no such term is refused and counted, and
// changes nothing.
func TestSetGainTerm(t *testing.T) {
	d := profiledRobot(t, gainsYAML)
	arm := d.Loop.Controller("arm")
	const n = 2000
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range n {
			if err := arm.SetGain(control.GainID{Term: "p"}, float64(i), d.Now()); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for i := range n {
		if err := arm.SetGainTerm(control.GainD, float64(i%7), d.Now()); err != nil {
			t.Fatal(err)
		}
	}
	<-done
	if g := arm.Gains(); g.P != n-1 || g.D != float64((n-1)%7) || g.I != 20 || g.F != 1.22 {
		t.Errorf("gains %+v after both clients: want p %d (the other client's last), d %d, i 20, f 1.22", g, n-1, (n-1)%7)
	}
	before, refused := arm.Gains(), arm.Refused()
	for _, c := range []struct {
		term string
		v    float64
	}{{control.GainP, -1}, {control.GainI, math.Inf(1)}, {control.GainF, math.NaN()}, {control.GainIClamp, 1}, {"q", 1}} {
		if err := arm.SetGainTerm(c.term, c.v, d.Now()); !errors.Is(err, control.ErrRefused) {
			t.Errorf("%s = %v: %v, want refused", c.term, c.v, err)
		}
	}
	if g := arm.Gains(); g != before || arm.Refused() != refused+5 {
		t.Errorf("refused changes: gains %+v (was %+v), refused %d (was %d); want unchanged, 5 more", g, before, arm.Refused(), refused)
	}
}

// TestWatchGains: every change of a gain, by any of the three setters,
// signals each watcher without blocking it (a buffer of one coalesces);
// a refused one does not; after stop nothing is signalled.
func TestWatchGains(t *testing.T) {
	d := profiledRobot(t, gainsYAML)
	arm := d.Loop.Controller("arm")
	a, b := make(chan struct{}, 1), make(chan struct{}, 1)
	stopA, stopB := arm.WatchGains(a), arm.WatchGains(b)
	defer stopB()
	fired := func(ch chan struct{}) bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	sets := []func() error{
		func() error { return arm.SetGain(control.GainID{Term: "p"}, 50, d.Now()) },
		func() error { return arm.SetGains(control.Gains{P: 51, I: 20, D: 1, F: 1.22}, d.Now()) },
		func() error { return arm.SetGainTerm(control.GainD, 2, d.Now()) },
	}
	for i, set := range sets {
		if err := set(); err != nil {
			t.Fatal(err)
		}
		if !fired(a) || !fired(b) {
			t.Errorf("set %d: not signalled to both watchers", i)
		}
	}
	if arm.SetGain(control.GainID{Term: "p"}, -1, d.Now()) == nil || fired(a) {
		t.Error("a refused gain was taken or signalled")
	}
	for range 3 { // nobody reads: the setter does not block
		if err := arm.SetGain(control.GainID{Term: "i"}, 3, d.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if !fired(a) || fired(a) {
		t.Error("three changes unread: want one signal pending")
	}
	stopA()
	_ = arm.SetGain(control.GainID{Term: "i"}, 4, d.Now())
	if fired(a) || !fired(b) {
		t.Error("signalled after stop, or the other watcher not")
	}
}
