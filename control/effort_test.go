package control

import (
	"errors"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

// A Talon FX measures its joint: its rotor (Joint RateSource) gives the
// joint's position and velocity, its name/effort (EffortState) the
// joint's effort.
func TestMergeActuatorSensorAndEffort(t *testing.T) {
	u, ul := urdf.Parse("t.urdf", []byte(`<robot name="t"><link name="base"/><link name="arm_link"/>
  <joint name="arm" type="revolute"><parent link="base"/><child link="arm_link"/><axis xyz="0 0 1"/><limit lower="-2" upper="2" effort="10" velocity="5"/></joint>
</robot>`))
	c, cl := config.Parse("t.yaml", []byte("joints:\n  - {name: arm, type: talon_fx, id: 1, k_eff: 0.5}\n"))
	r, xl := robot.Check(u, c)
	if ul.Errors()+cl.Errors()+xl.Errors() > 0 {
		t.Fatalf("robot: %v %v %v", ul, cl, xl)
	}
	reg := interfaces.NewRegistry()
	var rate interfaces.RateState
	var pos, volts, effort interfaces.AnalogState
	var cmd interfaces.JointCommand
	for _, err := range []error{
		interfaces.RegisterState(reg, "arm", interfaces.Rate, &rate),
		interfaces.RegisterState(reg, "arm", interfaces.Analog, &pos),
		interfaces.RegisterState(reg, "arm", interfaces.Voltage, &volts),
		interfaces.RegisterState(reg, "arm", interfaces.Effort, &effort),
		interfaces.RegisterCommand(reg, "arm", "arm", interfaces.Voltage, &cmd),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	var log []string
	dev := &fakeDev{name: "arm", log: &log}
	l, err := New(r, reg, []Device{dev}, &fakeDS{hal.DSState{Enabled: true, Attached: true}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rate, effort.Value = interfaces.RateState{State: 0.25, Rate: -1}, 7.5
	l.Cycle(10 * time.Millisecond)
	js, _ := l.JointState("arm")
	if js.Has != interfaces.HasPosition|interfaces.HasVelocity|interfaces.HasEffort || js.Position != 0.25 || js.Velocity != -1 || js.Effort != 7.5 {
		t.Errorf("arm %+v, want the Talon's 0.25 rad, -1 rad/s, 7.5 N·m", js)
	}
	dev.readErr = errors.New("unplugged")
	l.Cycle(20 * time.Millisecond)
	if js, _ := l.JointState("arm"); js.Has != 0 {
		t.Errorf("arm with its Talon failing to read %+v, want nothing", js)
	}
}
