package control

import (
	"fmt"
	"math"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

// Commands outside a physically meaningful range are refused and counted,
// not clamped: a finite but absurd value (1e300 V) says the sender is
// broken, and full output is the worst answer to it. Small overshoots are
// still clamped where they always were (a speed controller's ±battery, a
// joint's limits).
const (
	// MaxCommandVolts bounds a voltage command: an FRC battery reads at
	// most about 13.5 V charged; beyond 16 V a command is no overshoot.
	MaxCommandVolts = 16.0
	// PositionMargin is how far past a joint's limits, as a fraction of
	// its range, a position command may go (and be clamped by the joint).
	PositionMargin = 0.1
	// SpeedFactor bounds a velocity (effort) command at this many times
	// the joint's URDF velocity (effort) limit.
	SpeedFactor = 2.0
	// analogLow, analogHigh bound an analog output's command, as volts:
	// its range is 0 to 5 V. The command is in the output's units (its
	// scale and offset), so the bound is too.
	analogLow, analogHigh, analogFull = -1.0, 6.0, 5.0
	// MaxJointVelocity bounds a velocity on a joint whose URDF gives no
	// velocity limit (continuous wheels usually declare no <limit>), rad/s
	// or m/s: about 95,000 rpm, 5× the fastest FRC motor's free speed
	// (a 775pro's 18,730 rpm), so no gearing on a robot reaches it. The
	// loop holds such a joint's velocity handle to it; a velocity PID's
	// set point beyond SpeedFactor × it is refused.
	MaxJointVelocity = 1e4
	// MaxJointPosition bounds a position on a joint without limits (a
	// continuous joint, or one whose URDF gives none), rad or m: about
	// 160,000 turns, far beyond what any device counts yet well inside a
	// float32 (a SPARK's set point).
	MaxJointPosition = 1e6
	// MaxTwistLinear and MaxTwistAngular bound a drive base's twist, m/s
	// and rad/s: the largest linear.max_velocity and angular.max_velocity
	// the keys take (drive.go). A twist beyond them is refused; within,
	// the configured limits clamp it as diff_drive_controller's do.
	MaxTwistLinear, MaxTwistAngular = 100.0, 1000.0
)

// commandRange is the range of values a controller takes, or a command
// handle or set point is held to.
type commandRange struct {
	lo, hi float64
	what   string // the range in words, for the refusal
}

// anyValue is the range of a controller that checks nothing but finiteness.
var anyValue = commandRange{lo: math.Inf(-1), hi: math.Inf(1)}

func (r commandRange) holds(v float64) bool { return v >= r.lo && v <= r.hi }

// clamp is v held to r.
func (r commandRange) clamp(v float64) float64 { return max(r.lo, min(r.hi, v)) }

// bounded: r holds something back.
func (r commandRange) bounded() bool { return r.lo > math.Inf(-1) || r.hi < math.Inf(1) }

// Limits: every command path is held to its joint's limits here, in one
// place. A command of a joint controller (Controller.Command) is refused
// outside rangeOf and, inside it, clamped to limitOf (counted as clamped);
// a trajectory's points are refused past PositionMargin and its samples
// clamped to positionLimit; and each cycle, whatever a controller wrote,
// the loop clamps every position, velocity and voltage command handle of a joint
// to handleLimit (Counters.Clamped) before the devices write.

// unlimitedPosition is where a joint without limits may be put.
var unlimitedPosition = commandRange{-MaxJointPosition, MaxJointPosition, fmt.Sprintf("±%g, frcd's bound on a joint without limits", MaxJointPosition)}

// positionLimit is where joint j may be put: its URDF limits
// (±MaxJointPosition for a continuous or unlimited joint), within the
// travel of dev, the device that drives it (a servo's
// min_angle..max_angle, config.Facts.Travel).
func positionLimit(j *mergedJoint, dev *config.Device) commandRange {
	r, limited := unlimitedPosition, j != nil && j.limited && !j.continuous && j.lower <= j.upper
	if limited {
		r = commandRange{j.lower, j.upper, fmt.Sprintf("joint %q's limits %g..%g", j.name, j.lower, j.upper)}
	}
	if dev == nil || dev.Type == nil || dev.Type.Travel[0] == "" {
		return r
	}
	a, b := dev.Float(dev.Type.Travel[0]), dev.Float(dev.Type.Travel[1])
	lo, hi := max(r.lo, min(a, b)), min(r.hi, max(a, b))
	if !(lo <= hi) { // no overlap: frcd validate warns; the joint's limits rule
		return r
	}
	if lo == r.lo && hi == r.hi {
		return r
	}
	what := fmt.Sprintf("%s's range %g..%g", dev.Type.Name, lo, hi)
	if limited {
		what = fmt.Sprintf("%g..%g, joint %q's limits within %s's range", lo, hi, j.name, dev.Type.Name)
	}
	return commandRange{lo, hi, what}
}

// speedLimit is ± a URDF limit (velocity or effort) of joint j; none when
// the URDF gives none.
func speedLimit(j *mergedJoint, limit float64, what string) commandRange {
	if j == nil || !(limit > 0) {
		return anyValue
	}
	return commandRange{-limit, limit, fmt.Sprintf("±%g, joint %q's %s limit", limit, j.name, what)}
}

// velocityLimit is ± joint j's URDF velocity limit, or ±MaxJointVelocity
// when the URDF gives none.
func velocityLimit(j *mergedJoint) commandRange {
	if j != nil && j.maxVelocity > 0 {
		return speedLimit(j, j.maxVelocity, "velocity")
	}
	return commandRange{-MaxJointVelocity, MaxJointVelocity, fmt.Sprintf("±%g, frcd's bound on a joint without a velocity limit", MaxJointVelocity)}
}

// twistRanges is what a drive base's twist [vx, vy, wz] takes.
var twistRanges = []commandRange{
	{-MaxTwistLinear, MaxTwistLinear, fmt.Sprintf("±%g m/s, the largest linear.max_velocity", MaxTwistLinear)},
	{-MaxTwistLinear, MaxTwistLinear, fmt.Sprintf("±%g m/s, the largest linear.max_velocity", MaxTwistLinear)},
	{-MaxTwistAngular, MaxTwistAngular, fmt.Sprintf("±%g rad/s, the largest angular.max_velocity", MaxTwistAngular)},
}

// handleLimit is what the loop holds joint j's command handle of
// interface iface to each cycle: a position to positionLimit, a velocity
// (a device's own loop) to velocityLimit, volts to
// ±MaxCommandVolts (a PID's max_voltage may be set up to 24 V; the device
// then clamps to its battery).
func handleLimit(j *mergedJoint, iface string, dev *config.Device) commandRange {
	switch iface {
	case interfaces.Position:
		return positionLimit(j, dev)
	case interfaces.Velocity:
		return velocityLimit(j)
	case interfaces.Voltage:
		return commandRange{-MaxCommandVolts, MaxCommandVolts, fmt.Sprintf("±%g V", MaxCommandVolts)}
	}
	return anyValue
}

// limitOf is what c's commands are clamped to once taken: a position
// (a PID's set point, a device loop's or a servo's angle) to
// positionLimit, a velocity or effort PID's set point to the URDF's
// velocity or effort limit.
func limitOf(c *Controller, j *mergedJoint, target *config.Device) commandRange {
	switch {
	case c.kind == kindPosition || c.kind == kindProfiled || c.kind == kindForward && c.typ.iface == interfaces.Position:
		return positionLimit(j, target)
	case c.kind == kindVelocity:
		return velocityLimit(j)
	case c.kind == kindEffort:
		return speedLimit(j, j.maxEffort, "effort")
	}
	return anyValue
}

// rangeOf is the range of c's commands: volts for a voltage or group
// controller, an analog output's -1..6 V in its units (target, the
// output's device, has its scale and offset), a position's limit (lim,
// limitOf) widened by PositionMargin of its span, a velocity or effort
// PID's SpeedFactor × the URDF's velocity or effort limit. Others (a
// profiled goal has its own check) take any finite value.
func rangeOf(c *Controller, iface string, target *config.Device, lim commandRange) commandRange {
	switch {
	case iface == interfaces.Voltage && (c.kind == kindForward || c.kind == kindGroup):
		return commandRange{-MaxCommandVolts, MaxCommandVolts, fmt.Sprintf("±%g V, beyond a battery's plausible range", MaxCommandVolts)}
	case iface == interfaces.Analog:
		return analogRange(target)
	case (c.kind == kindPosition || c.kind == kindForward && iface == interfaces.Position) && lim.bounded() && !c.continuous:
		return widen(lim)
	case c.continuous && lim.bounded():
		return lim
	case c.kind == kindVelocity && lim.bounded():
		v := SpeedFactor * lim.hi
		return commandRange{-v, v, fmt.Sprintf("±%g, %g× %s", v, SpeedFactor, lim.what)}
	case c.kind == kindEffort && lim.bounded():
		e := SpeedFactor * lim.hi
		return commandRange{-e, e, fmt.Sprintf("±%g, %g× %s", e, SpeedFactor, lim.what)}
	}
	return anyValue
}

// widen is a position limit give or take PositionMargin of its span: the
// positions taken (and clamped to it); beyond, refused.
func widen(lim commandRange) commandRange {
	if !lim.bounded() {
		return lim
	}
	m := PositionMargin * (lim.hi - lim.lo)
	return commandRange{lim.lo - m, lim.hi + m, fmt.Sprintf("%s (give or take %g)", lim.what, m)}
}

// analogRange is an analog output's command range in its units: value =
// offset + volts/5 V × scale, for volts from analogLow to analogHigh
// (0..5 V give or take 1 V, which the output clamps).
func analogRange(d *config.Device) commandRange {
	scale, offset := analogFull, 0.0 // volts as they are
	if d != nil && d.Has("scale") && d.Has("offset") {
		scale, offset = d.Float("scale"), d.Float("offset")
	}
	lo, hi := offset+scale*analogLow/analogFull, offset+scale*analogHigh/analogFull
	if lo > hi {
		lo, hi = hi, lo
	}
	return commandRange{lo, hi, fmt.Sprintf("%g..%g, the output's 0..5 V in its units (offset %g, scale %g) give or take 1 V", lo, hi, offset, scale)}
}
