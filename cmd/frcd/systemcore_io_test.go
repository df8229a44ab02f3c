package main

import (
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/hal/heartbeat"
	"github.com/frcd/frcd/hal/linux"
	"github.com/frcd/frcd/hal/systemcore"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/internal/systemservertest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
)

// examples/systemcore_io (the competition robot's style re-wired for
// Systemcore) on the systemcore backend against the emulated system
// server, the daemon's loop stepped by the test. This machine's host
// kernel has no AF_CAN, so the five CAN buses are fakes here (the CAN
// side runs on a real kernel with vcan in TestSystemcoreCANOnKernel).
// Checked: the Driver Station's enable from the server enables the
// outputs, PWM valsets follow the voltage commands, the pot, the limit
// switch and the IMU from the server reach the joint states and handles,
// and disable, e-stop, a Driver Station gone silent and the server's
// connection lost all set the PWM valsets neutral (0).
func TestExampleOnEmulatedSystemServer(t *testing.T) {
	srv, err := systemservertest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	r, list, err := robot.Load("../../examples/systemcore_io/robot.urdf", "../../examples/systemcore_io/robot.yaml")
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	o := systemcore.OptionsFrom(r.Config)
	o.SystemServer = srv.Addr()
	p := linux.Parts{Buses: map[string]hal.CANBus{}}
	fd := map[string]bool{}
	for _, n := range o.CAN {
		p.Buses[n] = haltest.NewCAN()
		fd[n] = false
	}
	// The universal heartbeat on can_s0, always sent: its enable bit must
	// follow the system server's Driver Station.
	can0 := p.Buses["can_s0"].(*haltest.CAN)
	on, _ := heartbeat.ParseMode("on")
	p.Heartbeats, p.HeartbeatBuses = []linux.Heartbeat{heartbeat.New(can0, on)}, []string{"can_s0"}
	hbEnabled := func() bool {
		h, err := hal.ParseHeartbeat(can0.Last[hal.HeartbeatID])
		return err == nil && h.Enabled
	}
	b := systemcore.New(o, p, fd)
	d, err := daemon.New(r, b, daemon.Options{Rate: 100, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()

	const deadline = 10 * time.Second
	// run steps the loop, sending the drive and arm commands every cycle
	// as a ROS controller would, until ok holds. Step runs the loop on
	// its own time (a period a step), so the commands carry that time.
	cmd, vt := 0.0, time.Duration(0)
	step := func() { vt += d.Loop.Period(); d.Step() }
	valset := func(ch string) int64 { v, _ := srv.Int("/io/" + ch + "/valset"); return v }
	run := func(what string, ok func() bool) {
		t.Helper()
		end := time.Now().Add(deadline)
		for !ok() {
			if time.Now().After(end) {
				js, _ := d.Loop.JointState("arm_joint")
				t.Fatalf("%s: not within %v (arm_joint %+v; valsets %d %d %d; DS %+v; inhibited %q; %s; %+v)", what, deadline, js,
					valset("0"), valset("1"), valset("2"), b.DS(), d.Loop.Inhibited(), d.StatusLine(), b.Report(nil))
			}
			for _, c := range []string{"left_voltage", "right_voltage", "arm_voltage"} {
				d.Loop.Controller(c).Command(cmd, vt+d.Loop.Period())
			}
			step()
			runtime.Gosched() // the server's values come on their own goroutines
		}
	}
	neutral := func() bool { return valset("0") == 0 && valset("1") == 0 && valset("2") == 0 }
	driving := func() bool { return valset("0") > 1500 && valset("1") > 0 && valset("1") < 1500 && valset("2") > 1500 }

	// Disabled (no Driver Station yet): the modes are set, every PWM neutral.
	run("SmartIO modes published", func() bool {
		for ch, mode := range []int64{4, 4, 4, 2, 0, 1} {
			if v, ok := srv.Int("/io/" + string(rune('0'+ch)) + "/type"); !ok || v != mode {
				return false
			}
		}
		return true
	})
	cmd = 6
	run("neutral while disabled", neutral)
	if hbEnabled() {
		t.Error("the CAN heartbeat says enabled before the Driver Station does")
	}

	// Inputs: the pot at 1.65 V, the limit switch closed (low, inverted),
	// the IMU turned 90° about z and turning.
	srv.SetValget(3, 1650)
	srv.SetValget(4, 0)
	srv.SetIMU([4]float64{math.Sqrt2 / 2, 0, 0, math.Sqrt2 / 2}, [3]float64{0, 0, 45}, [3]float64{0, 0, 1})
	want := 1.65/5*4.697 - 0.5
	run("the pot in arm_joint's position", func() bool {
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
	run("the limit switch pressed", func() bool { return limit.Value })
	run("the IMU's reading", func() bool {
		return math.Abs(imu.Orientation[2]-math.Sqrt2/2) < 1e-12 && math.Abs(imu.Orientation[3]-math.Sqrt2/2) < 1e-12 &&
			math.Abs(imu.AngularVelocity[2]-math.Pi/4) < 1e-12 && imu.LinearAcceleration[2] == hal.Gravity
	})
	srv.SetValget(4, 1)
	run("the limit switch released", func() bool { return !limit.Value })

	// Enabled by the Driver Station through the server: the PWMs follow.
	enabled := systemservertest.Control{Enabled: true, DSConnected: true, Watchdog: true, Mode: 2}
	srv.SetControl(&enabled)
	run("PWM valsets follow the commands once enabled", driving)
	run("the CAN heartbeat enabled by the system server's Driver Station", hbEnabled)
	cmd = -6
	run("and follow them reversed", func() bool { return valset("0") > 0 && valset("0") < 1500 && valset("1") > 1500 })
	cmd = 6
	run("forward again", driving)

	for _, c := range []struct {
		name string
		mod  func(c *systemservertest.Control)
	}{
		{"disabled", func(c *systemservertest.Control) { c.Enabled = false }},
		{"no Driver Station", func(c *systemservertest.Control) { c.DSConnected = false }},
	} {
		c2 := enabled
		c.mod(&c2)
		srv.SetControl(&c2)
		run(c.name+": neutral", neutral)
		run(c.name+": the CAN heartbeat disabled", func() bool { return !hbEnabled() })
		srv.SetControl(&enabled)
		run(c.name+": driving again", driving)
	}
	srv.SetControl(nil)
	run("the Driver Station silent: neutral", neutral)
	srv.SetControl(&enabled)
	run("driving again", driving)

	// The connection lost: the Driver Station reads disabled and the loop
	// sets every output neutral; on the new connection every output is
	// published neutral before anything else.
	srv.Pause()
	run("disabled while the server is gone", func() bool { return !b.DS().Enabled })
	for range 5 {
		step()
	}
	if err := srv.Resume(); err != nil {
		t.Fatal(err)
	}
	tooltest.Eventually(t, deadline, "a valset on the new connection", func() bool {
		v, ok := srv.Int("/io/0/valset")
		if ok && v != 0 {
			t.Fatalf("the first valset on the new connection is %d, not neutral", v)
		}
		return ok
	})
	run("driving again on the new connection", driving)

	// E-stop, last: the daemon latches it, as the roboRIO does.
	estop := enabled
	estop.EStop = true
	srv.SetControl(&estop)
	run("e-stopped: neutral", neutral)
	srv.SetControl(&enabled)
	run("the Driver Station enabled again", func() bool { return b.DS().Enabled })
	// A negative check needs a window: cycles commanded until the server
	// has sent five more control messages (every 20 ms), so that many of
	// frcd's flushes (every 5 ms) have gone out in between.
	sent := srv.Sent()
	run("five control messages commanded through after the e-stop", func() bool { return srv.Sent() >= sent+5 || !neutral() })
	if !neutral() {
		t.Errorf("e-stop did not latch: valsets %d %d %d", valset("0"), valset("1"), valset("2"))
	}
	d.Halt() // its error is the fake CAN's: no PDP or PH answers there
	// The server's Driver Station still says enabled: the heartbeat's
	// last frame must say disabled all the same (a device whose neutral
	// frame was lost then stops at the heartbeat).
	if hbEnabled() || b.DS().Enabled {
		t.Errorf("after the halt, with the server's DS enabled: heartbeat enabled %v, DS %+v", hbEnabled(), b.DS())
	}
	tooltest.Eventually(t, deadline, "neutral after the halt", neutral)
}
