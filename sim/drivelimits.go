package sim

import "math"

// driveLimits is what an emulated CAN motor controller does with its
// motor beyond the duty it is told: its neutral mode and its current
// limits, in its vendor's terms, as the driver applied them (or the
// vendor's factory values). Zero limits are off.
//
// Brake: at zero output (neutral, disabled, e-stopped, a command gone
// stale) the controller shorts the motor's windings, so its back-EMF
// drives a current that brakes it (the plant's implicit back-EMF term,
// with no voltage applied); coast leaves them open and the motor turns
// freely but for its own drag.
//
// The limits bound the voltage it applies, each substep, from the motor's
// speed then: a stator (motor) current limit holds the voltage within
// back-EMF ± limit × R; a supply current limit holds the battery current,
// the motor current × the duty, to its limit.
type driveLimits struct {
	brake bool

	stator float64 // A, all the joint's motors together: Phoenix 6's StatorCurrentLimit, REV's secondary limit

	// Phoenix 6's supply limit: supply, then lower after lowerTime s at
	// the limit (0: never).
	supply, lower, lowerTime float64
	limitedFor               float64 // s the supply limit has held
	lowered                  bool

	// REV's smart current limit (smart > 0): stall below smartRPM, then
	// linearly to free at the motor's free speed.
	smart, free, smartRPM float64

	// Phoenix 5's (Talon SRX) limit on its supply current, while p5 is on:
	// once over peak for peakS, held to continuous.
	p5                      bool
	peak, peakS, continuous float64
	overFor                 float64
	p5Active                bool
}

// statorLimit is the stator current limit at the motor's speed (rad/s at
// its shaft), A; 0 is none.
func (l *driveLimits) statorLimit(j *joint) float64 {
	lim := l.stator
	if l.smart > 0 {
		s := l.smart
		rpm := math.Abs(j.gear*j.vel) * 60 / (2 * math.Pi)
		freeRPM := j.motor.free * 60 / (2 * math.Pi)
		if rpm > l.smartRPM && freeRPM > l.smartRPM {
			s += (l.free - l.smart) * min(1, (rpm-l.smartRPM)/(freeRPM-l.smartRPM))
		}
		if lim == 0 || s < lim {
			lim = s
		}
	}
	return lim
}

// limit is the duty (plant direction) the controller applies, told duty,
// at terminal voltage v over a substep of h s.
func (l *driveLimits) limit(j *joint, duty, v, h float64) float64 {
	if duty == 0 || v <= 0 || j.motors <= 0 {
		return duty
	}
	m := &j.motor
	n := j.motors
	volts, emf := duty*v, j.backEMF()
	if lim := l.statorLimit(j); lim > 0 {
		d := lim / n * m.r
		volts = max(emf-d, min(emf+d, volts))
	}
	// The supply current of all the motors at that voltage (positive
	// while the battery drives them).
	supplyA := func(x float64) float64 { return n * x * (x - emf) / m.r / v }
	if ls := l.supplyLimit(supplyA(volts), h); ls > 0 && supplyA(volts) > ls {
		k := ls * m.r * v / n
		r := math.Sqrt(emf*emf + 4*k)
		if volts > 0 {
			volts = (emf + r) / 2
		} else {
			volts = (emf - r) / 2
		}
	}
	return max(-1, min(1, volts/v))
}

// supplyLimit is the supply current limit now, A (0: none), given the
// supply current the controller is asked for and the substep, advancing
// the Phoenix 6 lower limit's and Phoenix 5's timers.
func (l *driveLimits) supplyLimit(asked, h float64) float64 {
	switch {
	case l.p5:
		if asked > l.peak {
			l.overFor += h
		} else {
			l.overFor = 0
		}
		if l.overFor >= l.peakS && asked > l.peak {
			l.p5Active = true
		}
		if asked < l.continuous {
			l.p5Active = false
		}
		if l.p5Active {
			return l.continuous
		}
		return 0
	case l.supply > 0:
		if l.lowered && asked < l.lower {
			l.lowered, l.limitedFor = false, 0
		}
		if l.lowered {
			return l.lower
		}
		if asked > l.supply {
			l.limitedFor += h
			if l.lowerTime > 0 && l.limitedFor >= l.lowerTime {
				l.lowered = true
				return l.lower
			}
		} else {
			l.limitedFor = 0
		}
		return l.supply
	}
	return 0
}
