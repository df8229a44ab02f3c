package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(Driver{Type: analogInputType, New: newAnalogInput, Needs: hal.CapAnalogIn}) }

var analogInputType = &config.Type{
	Name: "analog_input", Class: "AnalogInput", Group: "sensor",
	Summary: "An analog sensor (potentiometer, ultrasonic, pressure) on a roboRIO analog input.",
	Doc: "State: a RateState (position and rate) with an AnalogState handle on the position. " +
		"Linked to a joint, it sets the JointState's position (volts / 5 V × scale + offset) and velocity; effort is not set.",
	Place: config.JointSensor, Provides: config.Position | config.Velocity,
	Keys: []config.Key{
		{Name: "ain_channel", Kind: config.Int, Required: true, Resource: config.AnalogIn, Doc: "The analog input channel of the sensor (4-7 are on the MXP)."},
		{Name: "scale", Kind: config.Float, Required: true, NonZero: true, Unit: "rad or m", Doc: "The full-scale value of the sensor: the reading at 5 V, less the offset."},
		{Name: "offset", Kind: config.Float, Required: true, Unit: "rad or m", Doc: "The offset value of the sensor: the reading at 0 V."},
		{Name: "average_bits", Kind: config.Int, Default: 7, HasRange: true, Min: 0, Max: 7, Doc: "The FPGA averages 2^average_bits samples per reading."},
		{Name: "oversample_bits", Kind: config.Int, Default: 0, HasRange: true, Min: 0, Max: 7, Doc: "The FPGA oversamples 2^oversample_bits samples per reading."},
		{Name: "accumulator", Kind: config.Bool, Default: false, Doc: "Integrate the input in the FPGA's accumulator (analog channels 0 and 1 only)."},
		config.JointKey,
	},
	Check: func(d *config.Device, c *config.Checker) {
		if d.Bool("accumulator") && d.Int("ain_channel") > 1 {
			c.Errorf(d.ValuePos("accumulator"), "%s: the roboRIO has accumulators on analog inputs 0 and 1 only, not on %d", d, d.Int("ain_channel"))
		} else if d.Bool("accumulator") {
			c.Warnf(d.ValuePos("accumulator"), "%s: frcd's HAL has no accumulator yet, so `frcd run` refuses accumulator: true", d)
		}
	},
	Facts: config.Facts{Joint: config.RateSource},
}

// analogInput reads an analog sensor on `ain_channel`, averaged and
// oversampled by the FPGA as `average_bits` and `oversample_bits` say. Its
// value is volts / 5 V × scale + offset (rad or m); its rate is estimated
// from successive values over at least rateWindow. Both go to name/rate
// (RateState) and the value to name/analog (AnalogState).
//
// The FPGA's accumulator (`accumulator: true`) has no HAL capability yet:
// such an entry is refused rather than silently read without it.
type analogInput struct {
	name          string
	in            hal.AnalogIn
	scale, offset float64

	rate interfaces.RateState
	pos  interfaces.AnalogState
	est  rateEstimator
	rErr opError
}

var _ Device = (*analogInput)(nil)

func newAnalogInput(d *config.Device, env *Env) (Device, error) {
	if d.Bool("accumulator") {
		return nil, fmt.Errorf("accumulator: %w", hal.ErrUnsupported)
	}
	ch := d.Int("ain_channel")
	in, err := hal.OpenAnalogIn(env.HAL, ch, d.Int("average_bits"), d.Int("oversample_bits"))
	if err != nil {
		return nil, fmt.Errorf("analog input %d: %w", ch, err)
	}
	a := &analogInput{name: d.Name, in: in, scale: d.Float("scale"), offset: d.Float("offset"), rErr: newOpError(d, "read")}
	if err := registerRate(env, d.Name, &a.rate, &a.pos); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *analogInput) Name() string { return a.name }

func (a *analogInput) Read(now, dt time.Duration) error {
	v, err := a.in.Voltage()
	if err != nil {
		return a.rErr.wrap(err)
	}
	if !interfaces.Finite(v) {
		return a.rErr.wrap(errNotFinite)
	}
	x := v/5*a.scale + a.offset
	a.rate.State, a.rate.Rate, a.pos.Value = x, a.est.update(now, x), x
	return nil
}

// Write does nothing: an analog input is a sensor.
func (a *analogInput) Write(now, dt time.Duration) error { return nil }

// Halt does nothing: an analog input has no outputs.
func (a *analogInput) Halt() error { return nil }
