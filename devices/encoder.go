package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(Driver{Type: encoderType, New: newEncoder, Needs: hal.CapEncoder}) }

var encoderType = &config.Type{
	Name: "encoder", Class: "Encoder", Group: "sensor",
	Summary: "A quadrature encoder on two roboRIO DIO channels.",
	Doc:     "State: a RateState (position and rate) with an AnalogState handle on the position. Linked to a joint, it sets the JointState's position and velocity; effort is not set.",
	Place:   config.JointSensor, Provides: config.Position | config.Velocity,
	Keys: []config.Key{
		{Name: "ch_a", Kind: config.Int, Required: true, Resource: config.DIO, Doc: "The DIO channel of signal A."},
		{Name: "ch_b", Kind: config.Int, Required: true, Resource: config.DIO, Doc: "The DIO channel of signal B."},
		{Name: "dist_per_pulse", Kind: config.Float, Required: true, NonZero: true, Unit: "rad or m", Doc: "The distance travelled on each tick of the encoder."},
		{Name: "inverted", Kind: config.Bool, Default: false, Doc: "Whether the direction is inverted."},
		{Name: "encoding", Kind: config.Int, Default: 4, Enum: []string{"1", "2", "4"}, Doc: "The sampling mode: 1x, 2x or 4x decoding of the quadrature edges."},
		config.JointKey,
	},
	Check: func(d *config.Device, c *config.Checker) {
		if d.Has("ch_a") && d.Has("ch_b") && d.Int("ch_a") == d.Int("ch_b") {
			c.Errorf(d.ValuePos("ch_b"), "%s: ch_a and ch_b are both DIO %d; an encoder needs two channels", d, d.Int("ch_a"))
		}
	},
	Facts: config.Facts{Joint: config.RateSource, JointOnly: true},
}

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
	enc, err := hal.OpenEncoder(env.HAL, d.Int("ch_a"), d.Int("ch_b"), hal.Encoding(encoding))
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
