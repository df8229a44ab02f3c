package daemon

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
)

// stepped is a hardware backend with work on the loop's beat and a
// software enable, as the Linux backend has.
type stepped struct {
	*haltest.Backend
	advanced []time.Duration
	enabled  []bool // the DS's enable at each AdvanceTo
	closed   bool
}

func (s *stepped) AdvanceTo(now time.Duration) {
	s.advanced = append(s.advanced, now)
	s.enabled = append(s.enabled, s.DSState.Enabled)
}
func (s *stepped) SetEnabled(on bool) { s.DSState.Enabled = on }
func (s *stepped) Close() error       { s.closed = true; return nil }

// exampleRobot loads an example robot with its YAML passed through edit.
func exampleRobot(t *testing.T, example string, edit func(yaml string) string) *robot.Robot {
	t.Helper()
	y, err := os.ReadFile("../examples/" + example + "/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	yp := filepath.Join(t.TempDir(), "robot.yaml")
	if err := os.WriteFile(yp, []byte(edit(string(y))), 0o644); err != nil {
		t.Fatal(err)
	}
	r, list, err := robot.Load("../examples/"+example+"/robot.urdf", yp)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("load: %v %v", err, list)
	}
	return r
}

// withArmVoltage adds a voltage controller on the minimal robot's arm.
func withArmVoltage(y string) string {
	return y + "controllers:\n  arm_voltage: {type: voltage_controllers/JointVoltageController, joint: arm_joint}\n"
}

// minimal is the minimal example robot with a voltage controller on its
// arm.
func minimal(t *testing.T) *robot.Robot { return exampleRobot(t, "minimal", withArmVoltage) }

// TestNewOnHardware runs the minimal robot on a hardware backend (the
// fake HAL): the loop drives the PWM through it, the backend is advanced
// before every cycle, /frcd/enable reaches its software enable, there is
// no ground truth, and Close closes it.
func TestNewOnHardware(t *testing.T) {
	b := &stepped{Backend: haltest.New()}
	b.Time = 5 * time.Second
	b.DSState = hal.DSState{Attached: true}
	before := time.Now()
	d, err := New(minimal(t), b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Sim != nil {
		t.Error("Sim set on hardware")
	}
	if e := d.Epoch(); e.After(before.Add(-5*time.Second+time.Second)) || e.Before(before.Add(-5*time.Second-time.Minute)) {
		t.Errorf("epoch %v, want about 5 s before %v", e, before)
	}
	var truth ros.Truth
	if d.Truth(&truth) {
		t.Error("ground truth on hardware")
	}
	if err := d.Loop.Controller("arm_voltage").Command(6, d.Now()); err != nil {
		t.Fatal(err)
	}
	center := frc.PWMTalon.Center
	d.now = b.Time
	d.Step()
	if b.PWM[0].Pulse != 0 && b.PWM[0].Pulse != center {
		t.Errorf("disabled: PWM 0 pulse %v, want neutral", b.PWM[0].Pulse)
	}
	d.SetEnabled(true)
	if !b.DSState.Enabled {
		t.Fatal("SetEnabled did not reach the backend")
	}
	b.Time += d.Loop.Period()
	if err := d.Loop.Controller("arm_voltage").Command(6, b.Time); err != nil {
		t.Fatal(err)
	}
	d.Step()
	if b.PWM[0].Pulse <= center {
		t.Errorf("enabled at +6 V: PWM 0 pulse %v, want above centre %v", b.PWM[0].Pulse, center)
	}
	if len(b.advanced) != 2 || b.advanced[1] != d.now {
		t.Errorf("advanced at %v, want twice, last at %v", b.advanced, d.now)
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	if b.PWM[0].Pulse != 0 && b.PWM[0].Pulse != center {
		t.Errorf("halted: PWM 0 pulse %v, want neutral", b.PWM[0].Pulse)
	}
	if n := len(b.enabled); n != 3 || !b.enabled[1] || b.enabled[2] {
		t.Errorf("enabled at each advance %v: the halt's advance must see the robot disabled", b.enabled)
	}
	if err := d.Close(); err != nil || !b.closed {
		t.Errorf("Close: %v, closed %v", err, b.closed)
	}
}

// TestNewWithoutEnabler: on a backend only the Driver Station enables (a
// roboRIO), SetEnabled does nothing.
func TestNewWithoutEnabler(t *testing.T) {
	b := haltest.New()
	d, err := New(minimal(t), b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d.SetEnabled(true)
	if b.DSState.Enabled {
		t.Error("SetEnabled enabled a robot only the Driver Station may enable")
	}
}

// TestNewClosesBackendOnFailure: a New that fails (the arm's PWM is
// already taken) closes the backend it was given.
func TestNewClosesBackendOnFailure(t *testing.T) {
	b := &stepped{Backend: haltest.New()}
	if _, err := b.OpenPWM(0); err != nil {
		t.Fatal(err)
	}
	if _, err := New(minimal(t), b, Options{}); err == nil {
		t.Fatal("New bound the arm's motor to a PWM already in use")
	}
	if !b.closed {
		t.Error("the backend was left open")
	}
}

// TestSimOptionsOnlyOnSim: the sim's options cannot reach real hardware.
// New takes no SimOptions, and Options has no field of the same name as
// one of SimOptions' (as RealTime, Seed, Enabled, Scenario and WPILibWS
// once were), which New could only ignore or refuse at run time.
func TestSimOptionsOnlyOnSim(t *testing.T) {
	simOpts := reflect.TypeOf(SimOptions{})
	newType := reflect.TypeOf(New)
	for i := 0; i < newType.NumIn(); i++ {
		if newType.In(i) == simOpts {
			t.Errorf("New takes %v", simOpts)
		}
	}
	opts := reflect.TypeOf(Options{})
	for i := 0; i < simOpts.NumField(); i++ {
		name := simOpts.Field(i).Name
		if _, ok := opts.FieldByName(name); ok {
			t.Errorf("Options has the sim's %s", name)
		}
	}
	if simOpts.NumField() == 0 {
		t.Error("SimOptions has no fields")
	}
}
