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
)

// commandRange is the range of values a controller takes.
type commandRange struct {
	lo, hi float64
	what   string // the range in words, for the refusal
}

// anyValue is the range of a controller that checks nothing but finiteness.
var anyValue = commandRange{lo: math.Inf(-1), hi: math.Inf(1)}

func (r commandRange) holds(v float64) bool { return v >= r.lo && v <= r.hi }

// rangeOf is the range of c's commands: volts for a voltage or group
// controller, an analog output's -1..6 V in its units (target, the
// output's device, has its scale and offset), a position PID's joint limits
// widened by PositionMargin, a velocity or effort PID's SpeedFactor × the
// URDF's velocity or effort limit. Others (a profiled goal has its own
// check, a servo's angle) take any finite value.
func rangeOf(c *Controller, iface string, target *config.Device) commandRange {
	switch {
	case iface == interfaces.Voltage && (c.kind == kindForward || c.kind == kindGroup):
		return commandRange{-MaxCommandVolts, MaxCommandVolts, fmt.Sprintf("±%g V, beyond a battery's plausible range", MaxCommandVolts)}
	case iface == interfaces.Analog:
		return analogRange(target)
	case c.kind == kindPosition && c.joint != nil && c.joint.limited && !c.continuous:
		m := PositionMargin * (c.joint.upper - c.joint.lower)
		return commandRange{c.joint.lower - m, c.joint.upper + m, fmt.Sprintf("joint %q's limits %g..%g (give or take %g)", c.joint.name, c.joint.lower, c.joint.upper, m)}
	case c.kind == kindVelocity && c.joint != nil && c.joint.maxVelocity > 0:
		v := SpeedFactor * c.joint.maxVelocity
		return commandRange{-v, v, fmt.Sprintf("±%g, %g× joint %q's velocity limit", v, SpeedFactor, c.joint.name)}
	case c.kind == kindEffort && c.joint != nil && c.joint.maxEffort > 0:
		e := SpeedFactor * c.joint.maxEffort
		return commandRange{-e, e, fmt.Sprintf("±%g, %g× joint %q's effort limit", e, SpeedFactor, c.joint.name)}
	}
	return anyValue
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
