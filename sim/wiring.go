package sim

import (
	"errors"
	"fmt"
	"math"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

func drivenBy(rj *robot.Joint) string {
	if rj.Actuator == nil {
		return "this one has no actuator"
	}
	return "this one is driven by " + rj.Actuator.String()
}

// settableInLink reports whether a sensor of that type in a link senses
// something SetSensor sets: a digital input (on or off), an analog input
// (a value in its units); not an encoder, which measures a joint only.
func settableInLink(t *config.Type) bool {
	return t != nil && (t.Joint == config.SwitchSource || t.Joint == config.RateSource && !t.JointOnly)
}

func isSpeedController(d *config.Device) bool {
	if d == nil || d.Type == nil {
		return false
	}
	return d.Type.Speed
}

// newJoint builds a joint's plant from the robot and the overrides.
func (s *Sim) newJoint(rj *robot.Joint, p JointParams, pw powerOf) (*joint, error) {
	uj := rj.URDF
	j := &joint{name: rj.Name, rj: rj, sign: 1, bounded: uj.HasLimits(), pdpCh: -1}
	if j.bounded {
		j.lower, j.upper = uj.Limit.Lower, uj.Limit.Upper
		if j.upper < j.lower {
			j.lower, j.upper = j.upper, j.lower
		}
	}
	j.stops() // start at 0, or the nearest limit

	// The plant every joint has (a passive one too).
	if s.bodies == nil {
		s.bodies = newBodies(s.r.URDF)
	}
	mass, inertia := s.bodies.subtree(uj)
	switch {
	case p.Inertia > 0:
		j.inertia = p.Inertia
	case uj.Type == urdf.Prismatic && mass > 0:
		j.inertia = mass
	case uj.Type != urdf.Prismatic && inertia > 0:
		j.inertia = inertia
	case uj.Type != urdf.Prismatic && mass > 0:
		j.inertia = mass * fallbackRadius2
	default:
		j.inertia = defaultInertia
	}
	j.damping, j.friction, j.load = p.Damping, p.Friction, p.Load
	if dy := uj.Dynamics; dy != nil {
		if j.damping == 0 && dy.Damping > 0 {
			j.damping = dy.Damping
		}
		if j.friction == 0 && dy.Friction > 0 {
			j.friction = dy.Friction
		}
	}
	j.travel = p.Travel
	if j.travel == 0 {
		j.travel = defaultTravel
	}
	j.rate = j.span() / j.travel.Seconds()

	d := rj.Actuator
	if d == nil || d.Type == nil {
		return j, nil
	}
	if isSpeedController(d) {
		name := p.Motor
		if name == "" {
			name = partOf(d.Type).motor // the motor the controller is sold with
		}
		if name == "" {
			name = "cim"
		}
		j.motor = motorTable[name].model()
		j.motors = float64(max(p.Motors, 1))
		switch {
		case p.Gearing > 0:
			j.gear = p.Gearing
		case d.Type.Effort != nil && d.Has(d.Type.Effort.Scale) && d.Float(d.Type.Effort.Scale) > 0:
			j.gear = d.Float(d.Type.Effort.Scale) / (j.motor.kt * j.motors)
		case uj.Limit != nil && uj.Limit.Velocity > 0:
			j.gear = j.motor.free / uj.Limit.Velocity
		default:
			j.gear = defaultGearing
		}
		if !(j.gear > 0) || math.IsInf(j.gear, 0) {
			j.gear = defaultGearing
		}
		if d.Bool("inverted") {
			j.sign = -1
		}
		if rj.PDP != nil {
			j.pdp, j.pdh, j.pdpCh = pw.pdp[rj.PDP], pw.pdh[rj.PDP], rj.PDPChannel
		}
	}
	if wire := partOf(d.Type).actuator; wire != nil {
		wire(s, d, j)
	}
	if p.Brake {
		if j.kind != kindPWMMotor {
			return nil, fmt.Errorf("sim: joint %q: jumper applies to PWM motor controllers; %s (a CAN controller's brake is its entry's neutral_mode)", rj.Name, drivenBy(rj))
		}
		j.jumper = true
	}
	return j, j.checkChannels(d)
}

// checkChannels refuses channel numbers the roboRIO does not have (the
// robot's validation reports them; a Sim must not index out of range).
func (j *joint) checkChannels(d *config.Device) error {
	bad := func(what string, v, n int) error {
		if v < 0 || v >= n {
			return fmt.Errorf("sim: %s: %s %d is out of range 0-%d: %w", d, what, v, n-1, hal.ErrNoDevice)
		}
		return nil
	}
	var errs []error
	switch j.kind {
	case kindPWMMotor, kindServo:
		errs = append(errs, bad("PWM channel", j.pwm, numPWM))
	case kindNidec:
		errs = append(errs, bad("PWM channel", j.pwm, numPWM), bad("DIO channel", j.dio, numDIO))
	case kindDOut:
		errs = append(errs, bad("DIO channel", j.dio, numDIO))
	case kindRelay:
		errs = append(errs, bad("relay channel", j.ch, numRelay))
	case kindAOut:
		errs = append(errs, bad("analog output", j.ch, numAO))
	case kindSolenoid:
		errs = append(errs, bad("pneumatics channel", j.ch, j.pcm.channels()))
	case kindDouble:
		errs = append(errs, bad("pneumatics channel", j.ch, j.pcm.channels()), bad("pneumatics channel", j.rev, j.pcm.channels()))
	case kindCANMotor:
		errs = append(errs, bad("CAN id", j.can.canID(), maxCANID+1))
	}
	if j.kind == kindServo && j.maxPulse <= j.minPulse {
		errs = append(errs, fmt.Errorf("sim: %s: max_pulse_us must be greater than min_pulse_us", d))
	}
	if j.kind == kindAOut && (j.scale == 0 || math.IsNaN(j.scale)) {
		errs = append(errs, fmt.Errorf("sim: %s: scale must not be 0", d))
	}
	return errors.Join(errs...)
}

// sensor wires a YAML sensor to its joint (nil: a link sensor), through
// its type's part.
func (s *Sim) sensor(d *config.Device, j *joint) {
	if wire := partOf(d.Type).sensor; wire != nil {
		wire(s, d, j)
	}
}
