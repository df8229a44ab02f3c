package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(analogOutputDriver) }

// analogOutputDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var analogOutputDriver = Driver{Type: analogOutputType, New: newAnalogOutput, Needs: hal.CapAnalogOut}

var analogOutputType = &config.Type{
	Name: "analog_output", Class: "AnalogOutput", Group: "actuator",
	Summary: "A roboRIO analog output (MXP).",
	Doc: "State: the last commanded value as a RateState; command: an AnalogCommand. Named after a URDF joint, it sets " +
		"that JointState's position and velocity; named otherwise (an LED, say), it gets no joint state.",
	Place: config.Output, Provides: config.Position | config.Velocity,
	Keys: []config.Key{
		{Name: "aout_channel", Kind: config.Int, Required: true, Resource: config.AnalogOut, Doc: "The analog output channel."},
		{Name: "scale", Kind: config.Float, Required: true, NonZero: true, Unit: "rad or m", Doc: "The full-scale value of the output: the value at 5 V, less the offset."},
		{Name: "offset", Kind: config.Float, Required: true, Unit: "rad or m", Doc: "The offset value of the output: the value at 0 V."},
	},
	Facts: config.Facts{Joint: config.RateSource, Roles: []config.Role{config.AnalogOutputController}},
}

// analogOutput drives an MXP analog output (`aout_channel`) from the
// name/analog AnalogCommand, in the user's units: volts = (value - offset)
// / scale × 5 V, clamped to 0-5 V. Its state (name/rate RateState, with
// the estimated rate of change, and name/analog AnalogState) is the value
// written, in the user's units: the command, or the value at the clamp
// when the command was beyond the output's range. Neutral (no command, or
// one not finite) and Halt write 0 V, whose value is the offset.
type analogOutput struct {
	name          string
	out           hal.AnalogOut
	scale, offset float64

	cmd  interfaces.AnalogCommand
	rate interfaces.RateState
	val  interfaces.AnalogState
	est  rateEstimator

	wErr, hErr opError
}

var _ Device = (*analogOutput)(nil)

func newAnalogOutput(d *config.Device, env *Env) (Device, error) {
	ch := d.Int("aout_channel")
	out, err := hal.OpenAnalogOut(env.HAL, ch)
	if err != nil {
		return nil, fmt.Errorf("analog output %d: %w", ch, err)
	}
	a := &analogOutput{
		name: d.Name, out: out, scale: d.Float("scale"), offset: d.Float("offset"),
		wErr: newOpError(d, "write"), hErr: newOpError(d, "halt"),
	}
	a.rate.State, a.val.Value = a.offset, a.offset
	if err := registerRate(env, d.Name, &a.rate, &a.val); err != nil {
		return nil, err
	}
	if err := interfaces.RegisterCommand(env.Handles, d.Name, d.Name, interfaces.Analog, &a.cmd); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *analogOutput) Name() string { return a.name }

// Read does nothing: the state is set when written.
func (a *analogOutput) Read(now, dt time.Duration) error { return nil }

func (a *analogOutput) Write(now, dt time.Duration) error {
	volts, value := 0.0, a.offset
	if a.cmd.Set && interfaces.Finite(a.cmd.Value) {
		value = a.cmd.Value
		volts = (value - a.offset) / a.scale * 5
		if volts < 0 || volts > 5 {
			volts = max(0, min(5, volts))
			value = volts/5*a.scale + a.offset
		}
	}
	a.rate.State, a.rate.Rate, a.val.Value = value, a.est.update(now, value), value
	return a.wErr.wrap(a.out.SetVoltage(volts))
}

func (a *analogOutput) Halt() error {
	a.est.reset()
	a.rate.State, a.rate.Rate, a.val.Value = a.offset, 0, a.offset
	return a.hErr.wrap(a.out.SetVoltage(0))
}
