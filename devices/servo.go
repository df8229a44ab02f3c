package devices

import (
	"fmt"
	"math"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(Driver{Type: servoType, New: newServo, Needs: hal.CapPWM}) }

var servoType = &config.Type{
	Name: "servo", Class: "Servo", Group: "actuator",
	Summary: "A hobby servo on a roboRIO PWM channel.",
	Doc: "State: the last commanded position as a JointState (position only); command: a position JointHandle. " +
		"min_angle..max_angle maps linearly onto min_pulse_us..max_pulse_us.",
	Place: config.DrivesJoint, Provides: config.Position,
	Keys: []config.Key{
		{Name: "id", Kind: config.Int, Required: true, Resource: config.PWM, Doc: "The PWM channel."},
		{Name: "min_angle", Kind: config.Float, Default: 0.0, Unit: "rad", Doc: "The joint position at the shortest pulse."},
		{Name: "max_angle", Kind: config.Float, Default: math.Pi, Unit: "rad", Doc: "The joint position at the longest pulse."},
		{Name: "min_pulse_us", Kind: config.Int, Default: 600, HasRange: true, Min: 500, Max: 2500, Unit: "µs", Doc: "The shortest pulse the servo accepts."},
		{Name: "max_pulse_us", Kind: config.Int, Default: 2400, HasRange: true, Min: 500, Max: 2500, Unit: "µs", Doc: "The longest pulse the servo accepts."},
	},
	Check: func(d *config.Device, c *config.Checker) {
		if d.Int("min_pulse_us") >= d.Int("max_pulse_us") {
			c.Errorf(d.ValuePos("max_pulse_us"), "%s: max_pulse_us (%d) must be greater than min_pulse_us (%d)", d, d.Int("max_pulse_us"), d.Int("min_pulse_us"))
		}
		if d.Float("min_angle") == d.Float("max_angle") {
			c.Errorf(d.ValuePos("max_angle"), "%s: min_angle and max_angle are equal", d)
		}
	},
	Facts: config.Facts{Joint: config.PositionSource, Travel: [2]string{"min_angle", "max_angle"}, Pulse: [2]string{"min_pulse_us", "max_pulse_us"},
		Roles: []config.Role{config.ServoPositionController}},
}

// servo drives a hobby servo on the PWM channel `id` from the
// name/position JointCommand (rad): the angle, clamped to min_angle ..
// max_angle, maps linearly onto min_pulse_us .. max_pulse_us:
//
//	pulse = min_pulse_us + (angle - min_angle) / (max_angle - min_angle) × (max_pulse_us - min_pulse_us)
//
// rounded to the nanosecond. No command (or one not finite) and Halt
// disable the output (width 0): the servo goes limp. Its name/position
// AnalogState is the last angle sent, after clamping; a limp servo keeps
// reporting it, having no other. Before the first command it is 0 rad
// clamped to the range.
type servo struct {
	name                string
	out                 hal.PWM
	minAngle, maxAngle  float64 // rad
	minPulse, maxPulse  float64 // µs
	lowAngle, highAngle float64 // the clamp: min and max of the two angles

	cmd   interfaces.JointCommand
	state interfaces.AnalogState

	wErr, hErr opError
}

var _ Device = (*servo)(nil)

func newServo(d *config.Device, env *Env) (Device, error) {
	s := &servo{
		name:     d.Name,
		minAngle: d.Float("min_angle"), maxAngle: d.Float("max_angle"),
		minPulse: float64(d.Int("min_pulse_us")), maxPulse: float64(d.Int("max_pulse_us")),
		wErr: newOpError(d, "write"), hErr: newOpError(d, "halt"),
	}
	if s.minAngle == s.maxAngle || !interfaces.Finite(s.minAngle) || !interfaces.Finite(s.maxAngle) {
		return nil, fmt.Errorf("min_angle %g and max_angle %g make no range", s.minAngle, s.maxAngle)
	}
	s.lowAngle, s.highAngle = min(s.minAngle, s.maxAngle), max(s.minAngle, s.maxAngle)
	s.state.Value = max(s.lowAngle, min(s.highAngle, 0))
	out, err := hal.OpenPWM(env.HAL, d.Int("id"))
	if err != nil {
		return nil, fmt.Errorf("PWM %d: %w", d.Int("id"), err)
	}
	s.out = out
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.Position, &s.state); err != nil {
		return nil, err
	}
	if err := interfaces.RegisterCommand(env.Handles, d.Name, d.Name, interfaces.Position, &s.cmd); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *servo) Name() string { return s.name }

// Read does nothing: a servo reports nothing.
func (s *servo) Read(now, dt time.Duration) error { return nil }

func (s *servo) Write(now, dt time.Duration) error {
	if !s.cmd.Set || !interfaces.Finite(s.cmd.Value) {
		return s.wErr.wrap(s.out.SetPulse(0))
	}
	a := max(s.lowAngle, min(s.highAngle, s.cmd.Value))
	s.state.Value = a
	return s.wErr.wrap(s.out.SetPulse(s.pulse(a)))
}

// pulse is the width for angle a, within the clamp.
func (s *servo) pulse(a float64) time.Duration {
	us := s.minPulse + (a-s.minAngle)/(s.maxAngle-s.minAngle)*(s.maxPulse-s.minPulse)
	return time.Duration(math.Round(us * float64(time.Microsecond)))
}

func (s *servo) Halt() error { return s.hErr.wrap(s.out.SetPulse(0)) }
