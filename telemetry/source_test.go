package telemetry_test

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/telemetry"
)

func source(t *testing.T) (*daemon.Daemon, *telemetry.Source, map[string]*telemetry.Topic) {
	t.Helper()
	return sourceOf(t, "competition")
}

// sourceOf is the telemetry of examples/NAME on the sim, enabled, and its
// topics by name.
func sourceOf(t *testing.T, example string) (*daemon.Daemon, *telemetry.Source, map[string]*telemetry.Topic) {
	t.Helper()
	dir := "../examples/" + example
	r, list, err := robot.Load(dir+"/robot.urdf", dir+"/robot.yaml")
	if err != nil || list.Errors() > 0 {
		t.Fatalf("example robot: %v %v", err, list)
	}
	d, err := daemon.NewSim(r, daemon.SimOptions{Enabled: true}, daemon.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d.Loop.EnableJournal(0)
	s := telemetry.New(telemetry.Options{Loop: d.Loop, Robot: r, Prefix: "robot/", Vin: d.Sim.Vin})
	byName := map[string]*telemetry.Topic{}
	for _, tp := range s.Topics {
		if byName[tp.Name] != nil {
			t.Fatalf("topic %s twice", tp.Name)
		}
		byName[tp.Name] = tp
	}
	return d, s, byName
}

// Topics carry their units; a value that did not change keeps its Seq;
// no new cycle, no sample.
func TestTopics(t *testing.T) {
	d, s, topics := source(t)
	for name, unit := range map[string]string{
		"/robot/joints/elevator_joint/position": `{"unit":"m"}`, "/robot/joints/shoulder_joint/velocity": `{"unit":"rad/s"}`,
		"/robot/joints/shoulder_joint/effort": `{"unit":"N*m"}`, "/robot/power/pdp/voltage": `{"unit":"V"}`,
	} {
		if tp := topics[name]; tp == nil || tp.Props != unit || tp.Type != "double" {
			t.Errorf("%s: %+v, want a double with %s", name, tp, unit)
		}
	}
	if s.Prefix() != "/robot" || topics["/robot/sim/pose"] != nil {
		t.Errorf("prefix %q; sim topics without a Truth: %v", s.Prefix(), topics["/robot/sim/pose"])
	}
	d.Step()
	if !s.Sample() || s.Sample() {
		t.Fatal("Sample: want true after a cycle, then false")
	}
	if v := topics["/robot/power/vin"]; v == nil || v.Double < 11 || v.Double > 13 {
		t.Errorf("power/vin %+v, want the sim's battery at about 12.8 V", v)
	}
	mode, cycles := topics["/robot/ds/mode"], topics["/robot/loop/cycles"]
	m, c := mode.Seq, cycles.Seq
	d.Step()
	s.Sample()
	if mode.Seq != m || cycles.Seq != c+1 || cycles.Int != 2 || mode.Str != "teleop" {
		t.Errorf("ds/mode seq %d->%d, loop/cycles seq %d->%d = %d", m, mode.Seq, c, cycles.Seq, cycles.Int)
	}
}

// A silent CAN device is an error Alert until it is heard again; an
// inhibited loop a warning.
func TestAlerts(t *testing.T) {
	d, s, topics := source(t)
	errs, warns := topics["/SmartDashboard/Alerts/errors"], topics["/SmartDashboard/Alerts/warnings"]
	if topics["/SmartDashboard/Alerts/.type"].Str != "Alerts" {
		t.Fatal("no Alerts .type")
	}
	run := func(dur time.Duration) {
		for end := d.Now() + dur; d.Now() < end; {
			d.Step()
			s.Sample()
		}
	}
	run(100 * time.Millisecond)
	if errs.Seq == 0 || len(errs.Strings) != 0 {
		t.Fatalf("errors %q (seq %d), want none", errs.Strings, errs.Seq)
	}
	if err := d.Sim.SetCANSilent("pdp", true); err != nil {
		t.Fatal(err)
	}
	run(200 * time.Millisecond)
	if len(errs.Strings) != 1 || !strings.HasPrefix(errs.Strings[0], "pdp: ") {
		t.Errorf("errors %q, want the PDP's", errs.Strings)
	}
	d.Sim.SetCANSilent("pdp", false)
	run(200 * time.Millisecond)
	if len(errs.Strings) != 0 {
		t.Errorf("errors %q once the PDP is heard", errs.Strings)
	}
	d.Loop.Inhibit("the CAN inventory is incomplete")
	run(50 * time.Millisecond)
	if len(warns.Strings) != 1 || warns.Strings[0] != "loop inhibited: the CAN inventory is incomplete" {
		t.Errorf("warnings %q", warns.Strings)
	}
	if st := topics["/robot/ds/state"].Str; st != "inhibited: the CAN inventory is incomplete" {
		t.Errorf("ds/state %q", st)
	}
	d.Loop.Uninhibit()
	run(50 * time.Millisecond)
	if len(warns.Strings) != 0 {
		t.Errorf("warnings %q once uninhibited", warns.Strings)
	}
}

// The Driver Station in WPILib's own tables follows enable, mode, e-stop
// and the field's attachment on the sim: /FMSInfo/FMSControlData (2026) and
// /DriverStation/ControlWord (2027, a struct with its schema).
func TestWPILibDriverStation(t *testing.T) {
	d, s, topics := source(t)
	fms, word := topics["/FMSInfo/FMSControlData"], topics["/DriverStation/ControlWord"]
	if fms == nil || fms.Type != "int" || word == nil || word.Type != "struct:ControlWord" {
		t.Fatalf("FMSControlData %+v, ControlWord %+v", fms, word)
	}
	if sc := topics["/.schema/struct:ControlWord"]; sc == nil || sc.Type != "structschema" || !strings.Contains(string(sc.Raw), "robotMode:2") {
		t.Errorf("the ControlWord schema: %+v", sc)
	}
	for _, n := range []string{"/FMSInfo/.type", "/DriverStation/.type"} {
		if topics[n] == nil || topics[n].Str != strings.Trim(n[:len(n)-len("/.type")], "/") {
			t.Errorf("%s: %+v", n, topics[n])
		}
	}
	step := func(ds hal.DSState) {
		t.Helper()
		d.Sim.SetDS(ds)
		d.Step()
		d.Step()
		s.Sample()
	}
	cw := func() uint64 { return binary.LittleEndian.Uint64(word.Raw) }
	for _, c := range []struct {
		name string
		ds   hal.DSState
		fms  int64  // enabled 1, autonomous 2, test 4, eStop 8, fms 16, ds 32
		word uint64 // robotMode<<56 | enabled<<58 | eStop<<59 | fms<<60 | ds<<61
	}{
		{"teleop enabled", hal.DSState{Enabled: true, Attached: true}, 1 | 32, 2<<56 | 1<<58 | 1<<61},
		{"autonomous enabled", hal.DSState{Enabled: true, Mode: hal.Autonomous, Attached: true}, 1 | 2 | 32, 1<<56 | 1<<58 | 1<<61},
		{"test disabled", hal.DSState{Mode: hal.Test, Attached: true}, 4 | 32, 3<<56 | 1<<61},
		// On the field: the HAL's fmsAttached bit reaches both tables.
		{"on the field, autonomous", hal.DSState{Enabled: true, Mode: hal.Autonomous, Attached: true, FMS: true}, 1 | 2 | 16 | 32, 1<<56 | 1<<58 | 1<<60 | 1<<61},
		{"off the field again", hal.DSState{Enabled: true, Attached: true}, 1 | 32, 2<<56 | 1<<58 | 1<<61},
		// Last: an e-stop latches.
		{"e-stopped", hal.DSState{EStop: true, Attached: true}, 8 | 32, 2<<56 | 1<<59 | 1<<61},
	} {
		step(c.ds)
		if fms.Int != c.fms || cw() != c.word {
			t.Errorf("%s: FMSControlData %#x (want %#x), ControlWord %#x (want %#x)", c.name, fms.Int, c.fms, cw(), c.word)
		}
	}
}

// The Mechanism2d: a side view of the URDF's arm and elevator, each
// ligament placed by the measured joints: the wrist's line is the arm
// from the shoulder (0.6 m), pointing where the shoulder turns it.
func TestMechanism2d(t *testing.T) {
	d, s, topics := source(t)
	base := "/robot/mechanism/"
	if tp := topics[base+".type"]; tp == nil || tp.Str != "Mechanism2d" {
		t.Fatalf("mechanism .type %+v", tp)
	}
	lig := base + "robot/elevator_joint/shoulder_joint/wrist_joint/"
	for _, n := range []string{lig + ".type", lig + "tip/angle", base + "robot/intake_deploy_joint/tip/length", base + "dims", base + "robot/x"} {
		if topics[n] == nil {
			t.Errorf("no %s", n)
		}
	}
	for name := range topics {
		if strings.Contains(name, "wheel") && strings.HasPrefix(name, base) {
			t.Errorf("%s: wheels are not mechanisms", name)
		}
	}
	const q = 1.0 // rad
	if err := d.Sim.SetJoint("shoulder_joint", q, 0); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		d.Step()
		s.Sample()
	}
	abs := 0.0
	for _, p := range []string{"robot/elevator_joint/", "robot/elevator_joint/shoulder_joint/", "robot/elevator_joint/shoulder_joint/wrist_joint/"} {
		abs += topics[base+p+"angle"].Double
	}
	t.Logf("arm: %v m at %v°", topics[lig+"length"].Double, abs)
	if l := topics[lig+"length"].Double; math.Abs(l-0.6) > 1e-6 || math.Abs(abs-q*180/math.Pi) > 1 {
		t.Errorf("the arm: length %v (want 0.6), angle %v° (want %v°)", l, abs, q*180/math.Pi)
	}
}

// Refused commands and the loop's overruns are warning Alerts, with their
// count, until a second passes without one.
func TestRefusedCommandAlert(t *testing.T) {
	d, s, topics := source(t)
	warns := topics["/SmartDashboard/Alerts/warnings"]
	step := func(n int) {
		for range n {
			d.Step()
			s.Sample()
		}
	}
	step(1)
	c := d.Loop.Controller("elevator_voltage")
	for range 3 {
		c.Command(math.NaN(), d.Now())
	}
	step(101)
	if len(warns.Strings) != 1 || warns.Strings[0] != "controller elevator_voltage: 3 commands refused (3 in all)" {
		t.Errorf("warnings %q, want the 3 refused", warns.Strings)
	}
	step(100)
	if len(warns.Strings) != 0 {
		t.Errorf("warnings %q a second later, want none", warns.Strings)
	}
	// A cycle that starts two periods late is an overrun, and a warning.
	d.Loop.Cycle(d.Now() + 3*d.Loop.Period())
	s.Sample()
	step(100)
	if len(warns.Strings) != 1 || warns.Strings[0] != "loop: 1 overruns (1 in all): cycles started late" {
		t.Errorf("warnings %q after an overrun", warns.Strings)
	}
}
