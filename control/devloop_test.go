package control

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

const devLoopURDF = `<robot name="t"><link name="base"/><link name="a"/><link name="b"/>
  <joint name="arm" type="revolute"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="2" effort="10" velocity="5"/><sensor name="up"/></joint>
  <joint name="lift" type="prismatic"><parent link="base"/><child link="b"/><limit lower="0" upper="1" effort="10" velocity="5"/></joint>
</robot>`

// devLoopRig is a loop with a Talon FX closing its own loop on arm
// (closed_loop: device) and one closing on the roboRIO on lift.
type devLoopRig struct {
	l                       *Loop
	armRate, liftRate       interfaces.RateState
	up                      interfaces.BinaryState
	armV, armPos, armVel    interfaces.JointCommand
	liftV, liftPos, liftVel interfaces.JointCommand
	armVolts, liftVolts     interfaces.AnalogState
	armAnalog, liftAnalog   interfaces.AnalogState
	armEffort, liftEffort   interfaces.AnalogState
}

func newDevLoopRig(t *testing.T, yaml string) *devLoopRig {
	t.Helper()
	u, ul := urdf.Parse("t.urdf", []byte(devLoopURDF))
	c, cl := config.Parse("t.yaml", []byte(yaml))
	r, xl := robot.Check(u, c)
	if ul.Errors()+cl.Errors()+xl.Errors() > 0 {
		t.Fatalf("robot: %v %v %v", ul, cl, xl)
	}
	g := &devLoopRig{}
	reg := interfaces.NewRegistry()
	for _, err := range []error{
		interfaces.RegisterState(reg, "arm", interfaces.Rate, &g.armRate),
		interfaces.RegisterState(reg, "arm", interfaces.Analog, &g.armAnalog),
		interfaces.RegisterState(reg, "arm", interfaces.Voltage, &g.armVolts),
		interfaces.RegisterState(reg, "arm", interfaces.Effort, &g.armEffort),
		interfaces.RegisterCommand(reg, "arm", "arm", interfaces.Voltage, &g.armV),
		interfaces.RegisterCommand(reg, "arm", "arm", interfaces.Position, &g.armPos),
		interfaces.RegisterCommand(reg, "arm", "arm", interfaces.Velocity, &g.armVel),
		interfaces.RegisterState(reg, "lift", interfaces.Rate, &g.liftRate),
		interfaces.RegisterState(reg, "lift", interfaces.Analog, &g.liftAnalog),
		interfaces.RegisterState(reg, "lift", interfaces.Voltage, &g.liftVolts),
		interfaces.RegisterState(reg, "lift", interfaces.Effort, &g.liftEffort),
		interfaces.RegisterCommand(reg, "lift", "lift", interfaces.Voltage, &g.liftV),
		interfaces.RegisterState(reg, "up", interfaces.Binary, &g.up),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	var log []string
	var devs []Device
	for _, n := range []string{"arm", "lift", "up"} {
		devs = append(devs, &fakeDev{name: n, log: &log, quiet: true})
	}
	l, err := New(r, reg, devs, &fakeDS{hal.DSState{Enabled: true, Attached: true}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	g.l = l
	return g
}

const devLoopYAML = `joints:
  - {name: arm, type: talon_fx, id: 1, closed_loop: device, kp: 2}
  - {name: lift, type: talon_fx, id: 2}
  - {name: up, type: digital_input, dio_channel: 2, limit: upper}
controllers:
  - {name: arm_pos, type: effort_controllers/JointPositionController, joint: arm, timeout: 0.1}
  - {name: lift_pos, type: effort_controllers/JointPositionController, joint: lift, pid: {p: 10}, timeout: 0.1}
`

// With closed_loop: device, position and velocity controllers hand their
// setpoints to the device's own loop (name/position, name/velocity)
// instead of a PID on name/voltage; without it, the PID runs as before.
func TestDeviceClosedLoopBinding(t *testing.T) {
	g := newDevLoopRig(t, devLoopYAML)
	pos, lift := g.l.Controller("arm_pos"), g.l.Controller("lift_pos")
	g.armRate = interfaces.RateState{State: 0.5}
	g.liftRate = interfaces.RateState{State: 0.2}
	now := 10 * time.Millisecond
	for _, err := range []error{pos.Command(1.5, now), lift.Command(0.7, now)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	g.l.Cycle(now)
	if !g.armPos.Set || g.armPos.Value != 1.5 || g.armV.Set {
		t.Errorf("arm: position %+v voltage %+v; want the setpoint 1.5 on name/position only", g.armPos, g.armV)
	}
	if !g.liftV.Set || !near(g.liftV.Value, 5) { // 10 × (0.7 - 0.2)
		t.Errorf("lift: voltage %+v, want the roboRIO PID's 5 V", g.liftV)
	}
	// A position command beyond the joint's limits (give or take 10 %) is
	// refused as for a PID.
	if err := pos.Command(3, now); err == nil {
		t.Error("a position of 3 rad on a -1..2 joint was taken")
	}
	// The upper limit switch pressed: a position past the upper limit is
	// clamped to it (ranges.go), where the switch puts the measured
	// position, so the device holds there; one below it passes.
	g.up.Value = true
	_ = pos.Command(2.1, 25*time.Millisecond) // the measured position is the switch's: the upper limit, 2
	g.l.Cycle(30 * time.Millisecond)
	if !g.armPos.Set || g.armPos.Value != 2 || pos.Clamped() != 1 || g.l.Stats().Blocked != 0 {
		t.Errorf("into the upper switch: position %+v, clamped %d, blocked %d; want 2, 1, 0", g.armPos, pos.Clamped(), g.l.Stats().Blocked)
	}
	_ = pos.Command(1, 35*time.Millisecond)
	g.l.Cycle(40 * time.Millisecond)
	if g.armPos.Value != 1 || !g.armPos.Set {
		t.Errorf("away from the switch: position %+v", g.armPos)
	}
	// Stale: the setpoint is dropped after the timeout.
	g.up.Value = false
	g.l.Cycle(200 * time.Millisecond)
	if g.armPos.Set {
		t.Errorf("after the timeout: position %+v", g.armPos)
	}
	// Disabled: every command dropped.
	_ = pos.Command(1, 210*time.Millisecond)
	g.l.Cycle(215 * time.Millisecond)
	g.l.ds.(*fakeDS).st.Enabled = false
	g.l.Cycle(220 * time.Millisecond)
	if g.armPos.Set {
		t.Errorf("disabled: position %+v", g.armPos)
	}
}

func near(a, b float64) bool { d := a - b; return d < 1e-9 && d > -1e-9 }

// A velocity controller on a device that closes its loop takes
// name/velocity; a limit switch drops a velocity toward it.
func TestDeviceClosedLoopVelocity(t *testing.T) {
	g := newDevLoopRig(t, `joints:
  - {name: arm, type: talon_fx, id: 1, closed_loop: device, kv: 0.12}
  - {name: lift, type: talon_fx, id: 2}
  - {name: up, type: digital_input, dio_channel: 2, limit: upper}
controllers:
  - {name: arm_vel, type: effort_controllers/JointVelocityController, joint: arm}
`)
	vel := g.l.Controller("arm_vel")
	if err := vel.Command(-4, 5*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	g.l.Cycle(10 * time.Millisecond)
	if !g.armVel.Set || g.armVel.Value != -4 || g.armV.Set || g.armPos.Set {
		t.Errorf("velocity %+v voltage %+v position %+v; want -4 on name/velocity only", g.armVel, g.armV, g.armPos)
	}
	if err := vel.Command(11, 15*time.Millisecond); err == nil {
		t.Error("11 rad/s on a joint whose limit is 5 rad/s was taken")
	}
	g.up.Value = true
	_ = vel.Command(3, 15*time.Millisecond)
	g.l.Cycle(20 * time.Millisecond)
	if g.armVel.Set || g.l.Stats().Blocked != 1 {
		t.Errorf("toward the pressed switch: %+v blocked %d", g.armVel, g.l.Stats().Blocked)
	}
	_ = vel.Command(-3, 25*time.Millisecond)
	g.l.Cycle(30 * time.Millisecond)
	if !g.armVel.Set || g.armVel.Value != -3 {
		t.Errorf("away from it: %+v", g.armVel)
	}
}

// Controller gains on a device that closes its loop itself warn, and no
// gains are needed.
func TestDeviceClosedLoopControllerGains(t *testing.T) {
	_, list := config.Parse("t.yaml", []byte(`joints:
  - {name: arm, type: talon_fx, id: 1, closed_loop: device, kp: 2}
controllers:
  - {name: arm_pos, type: effort_controllers/JointPositionController, joint: arm, pid: {p: 5}}
`))
	if list.Errors() != 0 || list.Warnings() != 1 || !strings.Contains(fmt.Sprint(list), `t.yaml:4:89: warning: controller "arm_pos": pid.p has no effect: talon_fx "arm" closes the loop itself`) {
		t.Errorf("findings: %v", list)
	}
}

// A cycle handing setpoints to a device's own loop, with a limit switch
// pressed, allocates nothing.
func TestDeviceClosedLoopCycleAllocs(t *testing.T) {
	g := newDevLoopRig(t, devLoopYAML)
	pos, lift := g.l.Controller("arm_pos"), g.l.Controller("lift_pos")
	g.up.Value = true
	now := time.Duration(0)
	n := testing.AllocsPerRun(100, func() {
		now += 10 * time.Millisecond
		_ = pos.Command(2.1, now)
		_ = lift.Command(0.5, now)
		g.l.Cycle(now)
	})
	if n != 0 {
		t.Errorf("%v allocations per cycle", n)
	}
}
