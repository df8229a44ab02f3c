//go:build systemcore && cgo && !roborio

package main

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/hal/heartbeat"
	"github.com/frcd/frcd/hal/linux"
	"github.com/frcd/frcd/hal/systemcore"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/internal/fakehal"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
)

// systemcoreIO loads examples/systemcore_io and gives the Systemcore
// backend's options for it with the HAL library lib, and its parts with a
// fake CAN bus for each of its buses (classic, not CAN FD).
func systemcoreIO(t *testing.T, lib string) (*robot.Robot, systemcore.Options, linux.Parts, map[string]bool) {
	t.Helper()
	r, list, err := robot.Load("../../examples/systemcore_io/robot.urdf", "../../examples/systemcore_io/robot.yaml")
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	o := systemcore.OptionsFrom(r.Config)
	o.HALLibrary = lib
	p := linux.Parts{Buses: map[string]hal.CANBus{}}
	fd := map[string]bool{}
	for _, n := range o.CAN {
		p.Buses[n] = haltest.NewCAN()
		fd[n] = false
	}
	return r, o, p, fd
}

// examples/systemcore_io (the competition robot's style re-wired for
// Systemcore) on the systemcore backend over the fake 2027 HAL
// (internal/fakehal: WPILib's HAL functions as its headers declare them,
// playing a Driver Station), the daemon's loop stepped by the test. make
// systemcore-test runs it as an arm64 binary under qemu-aarch64 with the
// fake built for arm64. This machine's kernel has no AF_CAN, so the CAN
// buses are fakes here (the CAN side runs on a real kernel in
// TestSystemcoreIOOnKernel). Checked: the Driver Station's enable makes
// the PWM pulses follow the voltage commands; the pot, the limit switch
// and the IMU reach the joint states and handles; joysticks and the match
// reach the backend; disable, no Driver Station, outputs disabled, a stale
// Driver Station and e-stop (latched) each set every PWM neutral within
// one cycle; the final halt holds the heartbeat disabled and Close leaves
// every pulse 0.
func TestExampleOnFakeHAL(t *testing.T) {
	tooltest.Require(t, tooltest.CC)
	lib, f := fakehal.Setup(t, "2027")
	r, o, p, fd := systemcoreIO(t, lib)
	// The universal heartbeat on can_s0, sent here (on Systemcore the OS
	// sends it): its enable bit must follow the HAL's Driver Station.
	can0 := p.Buses["can_s0"].(*haltest.CAN)
	on, _ := heartbeat.ParseMode("on")
	p.Heartbeats, p.HeartbeatBuses = []linux.Heartbeat{heartbeat.New(can0, on)}, []string{"can_s0"}
	hbEnabled := func() bool {
		h, err := hal.ParseHeartbeat(can0.Last[hal.HeartbeatID])
		return err == nil && h.Enabled
	}
	b, err := systemcore.New(o, p, fd)
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.New(r, b, daemon.Options{Rate: 100, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()

	cmd, vt := 0.0, time.Duration(0)
	pulses := func() [6]int {
		calls, err := f.Calls()
		if err != nil {
			t.Fatal(err)
		}
		return fakehal.LastPulses(calls)
	}
	// step runs one cycle, sending the drive and arm commands as a ROS
	// controller would.
	step := func() {
		for _, c := range []string{"left_voltage", "right_voltage", "arm_voltage"} {
			d.Loop.Controller(c).Command(cmd, vt+d.Loop.Period())
		}
		vt += d.Loop.Period()
		d.Step()
	}
	// within runs at most n cycles until ok holds; it returns how many.
	within := func(what string, n int, ok func() bool) int {
		t.Helper()
		for i := 0; i <= n; i++ {
			if ok() {
				return i
			}
			step()
		}
		t.Fatalf("%s: not within %d cycles (pulses %v; DS %+v; %s)", what, n, pulses(), b.DS(), d.StatusLine())
		return 0
	}
	neutral := func() bool { p := pulses(); return p[0] == 0 && p[1] == 0 && p[2] == 0 }
	driving := func() bool { p := pulses(); return p[0] > 1500 && p[1] > 0 && p[1] < 1500 && p[2] > 1500 }

	cmd = 6
	within("neutral while disabled", 3, neutral)
	if hbEnabled() {
		t.Error("the CAN heartbeat says enabled before the Driver Station does")
	}
	calls, _ := f.Calls()
	for _, want := range []string{"HAL_InitializePWMPort channel=0", "HAL_SetPWMOutputPeriod h=0x10000 period=3", "HAL_InitializeAnalogInputPort channel=3",
		"HAL_InitializeDIOPort channel=4 input=1", "HAL_InitializeDIOPort channel=5 input=0"} {
		if !strings.Contains(strings.Join(calls, "\n"), want) {
			t.Errorf("no %q among the HAL calls", want)
		}
	}

	// Inputs: the pot at 1.65 V, the limit switch closed (low, inverted),
	// the IMU turned 90° about z and turning.
	f.Set("ai 3 1.65", "dio 4 0", "quat 0.7071067811865476 0 0 0.7071067811865476", "gyro 0 0 0.7853981633974483", "accel 0 0 9.80665")
	want := 1.65/5*4.697 - 0.5
	within("the pot in arm_joint's position", 3, func() bool {
		js, ok := d.Loop.JointState("arm_joint")
		return ok && math.Abs(js.Position-want) < 1e-9
	})
	limit, err := interfaces.State[interfaces.BinaryState](d.Handles, "arm_lower_limit", interfaces.Binary)
	if err != nil {
		t.Fatal(err)
	}
	imu, err := interfaces.State[interfaces.IMUState](d.Handles, "base_imu", interfaces.IMU)
	if err != nil {
		t.Fatal(err)
	}
	within("the limit switch pressed", 3, func() bool { return limit.Value })
	within("the IMU's reading", 3, func() bool {
		return math.Abs(imu.Orientation[2]-math.Sqrt2/2) < 1e-12 && math.Abs(imu.Orientation[3]-math.Sqrt2/2) < 1e-12 &&
			math.Abs(imu.AngularVelocity[2]-math.Pi/4) < 1e-12 && imu.LinearAcceleration[2] == hal.Gravity
	})

	// Enabled by the Driver Station (teleop): the PWMs follow.
	f.Set("cw 1 2 0 0 1", "joyaxes 0 0.5 -0.25", "joybuttons 0 0x5 0xf", "matchinfo 2027test 2 12 0", "gamedata R")
	within("PWM pulses follow the commands once enabled", 3, driving)
	within("the CAN heartbeat enabled by the Driver Station", 3, hbEnabled)
	var j hal.JoystickState
	if err := b.Joystick(0, &j); err != nil || j.NumAxes != 2 || j.Axes[0] != 0.5 || !j.Button(1) || j.Button(2) || !j.Button(3) {
		t.Errorf("joystick 0: %+v, %v", j, err)
	}
	if m, err := b.MatchInfo(); err != nil || m.Label() != "Q12" || m.Event != "2027test" || m.GameMessage != "R" {
		t.Errorf("match %+v, %v", m, err)
	}
	cmd = -6
	within("and follow them reversed", 3, func() bool { p := pulses(); return p[0] > 0 && p[0] < 1500 && p[1] > 1500 })
	cmd = 6
	within("forward again", 3, driving)

	// Each way the Driver Station stops the robot: neutral within a cycle.
	for _, c := range []struct{ name, off, on string }{
		{"disabled", "cw 0 2 0 0 1", "cw 1 2 0 0 1"},
		{"no Driver Station", "cw 1 2 0 0 0", "cw 1 2 0 0 1"},
		{"outputs disabled (Systemcore's watchdog)", "outputs 0", "outputs 1"},
		{"the Driver Station stale", "stale 1", "stale 0"},
	} {
		f.Set(c.off)
		n := within(c.name+": neutral", 1, neutral)
		t.Logf("%s: every PWM neutral after %d cycle(s) of %v", c.name, n, d.Loop.Period())
		within(c.name+": the CAN heartbeat disabled", 3, func() bool { return !hbEnabled() })
		f.Set(c.on)
		within(c.name+": driving again", 3, driving)
	}

	// E-stop, last: it latches.
	f.Set("cw 1 2 1 0 1")
	n := within("e-stopped: neutral", 1, neutral)
	t.Logf("e-stop: every PWM neutral after %d cycle(s)", n)
	f.Set("cw 1 2 0 0 1")
	for range 20 {
		step()
		if !neutral() || b.DS().Enabled {
			t.Fatalf("e-stop did not latch: pulses %v, DS %+v", pulses(), b.DS())
		}
	}
	// The final halt, then Close, as on SIGTERM: the heartbeat's last
	// frame says disabled, the Driver Station is told so and every pulse
	// is 0 (measured under qemu-aarch64 by make systemcore-test).
	start := time.Now()
	d.Halt() // its error is the fake CAN's: no PDP or PH answers there
	b.AdvanceTo(vt + d.Loop.Period())
	halted := time.Since(start)
	if hbEnabled() || b.DS().Enabled {
		t.Errorf("after the halt: heartbeat enabled %v, DS %+v", hbEnabled(), b.DS())
	}
	if err := b.Close(); err != nil {
		t.Error(err)
	}
	closed := time.Since(start)
	t.Logf("halt: %v; halt and close (every SmartIO output freed at 0, the HAL shut down): %v", halted, closed)
	if !neutral() {
		t.Errorf("after Close: pulses %v", pulses())
	}
}
