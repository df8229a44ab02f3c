package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister("analog_input", newAnalogInput) }

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
	in, err := env.HAL.OpenAnalogIn(ch, d.Int("average_bits"), d.Int("oversample_bits"))
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
