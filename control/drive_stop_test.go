package control

import (
	"math"
	"testing"
	"time"

	"github.com/frcd/frcd/interfaces"
)

// testDiff is a differential base of one wheel a side (radius 0.1 m,
// 0.5 m apart), each on a wheel PID of P 1 V per rad/s, under a
// controller with a 0.5 s cmd_vel_timeout, 2 m/s² linear acceleration
// limit and stop_time hold.
func testDiff(hold time.Duration) (*Controller, []interfaces.JointState, []interfaces.JointCommand) {
	st := make([]interfaces.JointState, 2)
	out := make([]interfaces.JointCommand, 2)
	d := &diffDrive{base: &base{radius: 0.1, lin: axisLimit{maxAcc: 2}, hold: hold}, sep: 0.5}
	for i := range st {
		st[i].SetPosition(0)
		st[i].SetVelocity(0)
		w := &wheel{st: &st[i], out: &out[i], sgn: 1, pid: PID{P: 1, Max: 12, IClamp: 12}}
		if i == 0 {
			d.left = append(d.left, w)
		} else {
			d.right = append(d.right, w)
		}
	}
	c := &Controller{Name: "drive", typ: diffDriveType, kind: kindRunner, timeout: 500 * time.Millisecond, valid: anyValue, limit: anyValue,
		run: d, stop: d, vals: make([]float64, 3), zero: make([]float64, 3)}
	c.in.values = make([]float64, 3)
	return c, st, out
}

// After cmd_vel_timeout a drive base is driven to rest as
// diff_drive_controller drives it: a zero twist through its acceleration
// limits (1 m/s at 2 m/s²: 0.5 s), its wheels held at zero velocity (a
// wheel still turning gets the PID's braking volts) for stop_time, and
// only then are its outputs neutral. The stale command is counted once.
func TestDriveStopsActively(t *testing.T) {
	c, st, out := testDiff(time.Second)
	const step = 10 * time.Millisecond
	var now time.Duration
	if err := c.CommandGroup([]float64{1, 0, 0}, 0); err != nil {
		t.Fatal(err)
	}
	stales := 0
	for now = step; now <= 3*time.Second; now += step {
		// the wheels turn forward at 5 rad/s (0.5 m/s) throughout: a PID
		// holding zero velocity drives them back
		st[0].SetVelocity(5)
		st[1].SetVelocity(5)
		stale, noFB := c.update(now, step.Seconds())
		if stale {
			stales++
		}
		if noFB {
			t.Fatalf("%v: no feedback", now)
		}
		driven := out[0].Set && out[1].Set
		switch {
		case now <= 500*time.Millisecond: // fresh
			if !driven {
				t.Fatalf("%v: a fresh twist, the wheels not driven", now)
			}
		case now < 2010*time.Millisecond: // the ramp down (to 1 s), then the hold (from the first zero cycle, 1.01 s)
			if !driven {
				t.Fatalf("%v: stopping, the wheels neutral", now)
			}
			if now >= 1010*time.Millisecond && (out[0].Value != -5 || out[1].Value != -5) {
				t.Fatalf("%v: held at zero velocity, the wheels at %v V and %v V; want -5 V (P 1 × -5 rad/s)", now, out[0].Value, out[1].Value)
			}
		default:
			if out[0].Set || out[1].Set {
				t.Fatalf("%v: past stop_time, the wheels still driven (%v V)", now, out[0].Value)
			}
		}
	}
	if stales != 1 {
		t.Errorf("the stale twist counted %d times, want once", stales)
	}
}

// A fresh twist while stopping drives the base again; a disable (drop)
// while stopping makes the outputs neutral at once; stop_time 0 makes
// them neutral at the timeout, as before stop_time.
func TestDriveStopInterrupted(t *testing.T) {
	const step = 10 * time.Millisecond
	c, _, out := testDiff(time.Second)
	run := func(from, to time.Duration) {
		for now := from; now <= to; now += step {
			c.update(now, step.Seconds())
		}
	}
	_ = c.CommandGroup([]float64{1, 0, 0}, 0)
	run(step, 700*time.Millisecond)
	if !out[0].Set || !c.stopping {
		t.Fatalf("stopping: output set %v, stopping %v", out[0].Set, c.stopping)
	}
	_ = c.CommandGroup([]float64{0.5, 0, 0}, 700*time.Millisecond)
	run(710*time.Millisecond, 800*time.Millisecond)
	if !out[0].Set || c.stopping || out[0].Value <= 0 {
		t.Fatalf("a fresh twist: output %+v, stopping %v", out[0], c.stopping)
	}
	run(810*time.Millisecond, 1300*time.Millisecond)
	if !c.stopping {
		t.Fatal("stale again: not stopping")
	}
	c.drop()
	if out[0].Set || out[1].Set || c.stopping {
		t.Fatalf("dropped while stopping: outputs %+v %+v", out[0], out[1])
	}
	run(1310*time.Millisecond, 1400*time.Millisecond)
	if out[0].Set {
		t.Fatal("dropped: the stop resumed")
	}

	c, _, out = testDiff(0)
	_ = c.CommandGroup([]float64{1, 0, 0}, 0)
	run(step, 500*time.Millisecond)
	if !out[0].Set {
		t.Fatal("stop_time 0: a fresh twist not driven")
	}
	run(510*time.Millisecond, 510*time.Millisecond)
	if out[0].Set || out[1].Set {
		t.Fatalf("stop_time 0: driven past the timeout: %+v", out[0])
	}
}

// Stopping allocates nothing: the loop runs it every cycle.
func TestDriveStopDoesNotAllocate(t *testing.T) {
	c, _, out := testDiff(time.Hour)
	_ = c.CommandGroup([]float64{1, 0, 0}, 0)
	c.update(10*time.Millisecond, 0.01) // fresh
	now := time.Second                  // then stale
	allocs := testing.AllocsPerRun(100, func() {
		now += 10 * time.Millisecond
		c.update(now, 0.01)
	})
	if allocs != 0 || !c.stopping || !out[0].Set {
		t.Errorf("stopping allocates %v times (stopping %v, driven %v)", allocs, c.stopping, out[0].Set)
	}
}

// TestDriveStopBoundedInTime: the stop's ramp followed the configured
// acceleration limit however small: a base at 4 m/s with
// linear.max_acceleration 0.25 drove on for 16 s (about 32 m) after its
// twist went stale. The ramp now ends within MaxStopRamp (at least the
// speed when the twist went stale over MaxStopRamp), so the outputs are
// neutral by cmd_vel_timeout + MaxStopRamp + a cycle + stop_time; and
// the next twist ramps up through the configured limit again.
func TestDriveStopBoundedInTime(t *testing.T) {
	c, st, out := testDiff(time.Second)
	bs := c.run.(*diffDrive).base
	bs.lin.maxAcc, bs.ang.maxAcc = 0.25, 0.5
	bs.last = [3]float64{4, 0, 3} // already at speed
	const step = 10 * time.Millisecond
	if err := c.CommandGroup([]float64{4, 0, 3}, 0); err != nil {
		t.Fatal(err)
	}
	bound := c.timeout + MaxStopRamp + step + bs.hold
	var now, neutralAt time.Duration
	for now = step; now <= 30*time.Second && neutralAt == 0; now += step {
		st[0].SetVelocity(0)
		st[1].SetVelocity(0)
		c.update(now, step.Seconds())
		if now > c.timeout && !out[0].Set && !out[1].Set {
			neutralAt = now
		}
	}
	if neutralAt == 0 || neutralAt > bound {
		t.Fatalf("neutral at %v; want by %v (cmd_vel_timeout %v + MaxStopRamp %v + a cycle + stop_time %v)", neutralAt, bound, c.timeout, MaxStopRamp, bs.hold)
	}
	if neutralAt <= c.timeout+bs.hold {
		t.Errorf("neutral at %v: the ramp from 4 m/s took no time", neutralAt)
	}
	// a fresh twist: the configured 0.25 m/s² again, not the stop's ramp
	if err := c.CommandGroup([]float64{4, 0, 0}, now); err != nil {
		t.Fatal(err)
	}
	c.update(now+step, step.Seconds())
	if v := bs.last[0]; math.Abs(v-0.25*step.Seconds()) > 1e-12 {
		t.Errorf("the first cycle of a new twist commands %v m/s; want %v", v, 0.25*step.Seconds())
	}
}
