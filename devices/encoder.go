package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister("encoder", newEncoder) }

// encoder reads a quadrature encoder on DIO channels `ch_a` and `ch_b`,
// decoded 1x, 2x or 4x (`encoding`). Its position is count / encoding ×
// dist_per_pulse (rad or m), negated when inverted; its rate is estimated
// from successive positions over at least rateWindow. Both go to
// name/rate (RateState) and the position to name/analog (AnalogState).
type encoder struct {
	name     string
	enc      hal.Encoder
	perCount float64 // dist_per_pulse / encoding, negated when inverted

	rate interfaces.RateState
	pos  interfaces.AnalogState
	est  rateEstimator
	rErr opError
}

var _ Device = (*encoder)(nil)

func newEncoder(d *config.Device, env *Env) (Device, error) {
	encoding := d.Int("encoding")
	switch encoding {
	case 1, 2, 4:
	default:
		return nil, fmt.Errorf("encoding %d: want 1, 2 or 4", encoding)
	}
	enc, err := env.HAL.OpenEncoder(d.Int("ch_a"), d.Int("ch_b"), hal.Encoding(encoding))
	if err != nil {
		return nil, fmt.Errorf("encoder on DIO %d and %d: %w", d.Int("ch_a"), d.Int("ch_b"), err)
	}
	e := &encoder{name: d.Name, enc: enc, perCount: d.Float("dist_per_pulse") / float64(encoding), rErr: newOpError(d, "read")}
	if d.Bool("inverted") {
		e.perCount = -e.perCount
	}
	if err := registerRate(env, d.Name, &e.rate, &e.pos); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *encoder) Name() string { return e.name }

func (e *encoder) Read(now, dt time.Duration) error {
	n, err := e.enc.Count()
	if err != nil {
		return e.rErr.wrap(err)
	}
	x := float64(n) * e.perCount
	e.rate.State, e.rate.Rate, e.pos.Value = x, e.est.update(now, x), x
	return nil
}

// Write does nothing: an encoder is a sensor.
func (e *encoder) Write(now, dt time.Duration) error { return nil }

// Halt does nothing: an encoder has no outputs.
func (e *encoder) Halt() error { return nil }
