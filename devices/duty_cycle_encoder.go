package devices

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() {
	MustRegister(Driver{Type: dutyCycleEncoderType, New: newDutyCycleEncoder, Needs: hal.CapDutyCycleIn})
}

// The position and the connected test are WPILib's DutyCycleEncoder's
// (allwpilib caf0fb2dcc
// wpilibc/src/main/native/cpp/hardware/rotation/DutyCycleEncoder.cpp: Get
// is output × fullRange − expectedZero wrapped into 0..fullRange;
// IsConnected is a frequency above 100 Hz).
var dutyCycleEncoderType = &config.Type{
	Name: "duty_cycle_encoder", Class: "DutyCycleEncoder", Group: "sensor",
	Summary: "An absolute encoder (REV Through Bore, a CANcoder's PWM output) read as its PWM signal's duty cycle on a roboRIO DIO or a Systemcore SmartIO channel.",
	Doc: "State: a RateState (position and rate) with an AnalogState handle on the position. Linked to a joint, it sets the " +
		"JointState's position (duty cycle × full_range − expected_zero, wrapped into 0 to full_range, as WPILib's DutyCycleEncoder) " +
		"and velocity (from the unwrapped position); effort is not set. A signal slower than min_frequency (no sensor plugged in) " +
		"is a read error: the joint's position is not updated.",
	Place: config.JointSensor, Provides: config.Position | config.Velocity,
	Keys: []config.Key{
		{Name: "dio_channel", Kind: config.Int, Required: true, Resource: config.DIO, Doc: "The channel of the sensor's PWM output: on the roboRIO a DIO channel (0-9 on the header, 10-25 on the MXP; " +
			"8 duty-cycle inputs in all), on Systemcore a SmartIO channel (0-5)."},
		{Name: "full_range", Kind: config.Float, Default: 2 * math.Pi, NonZero: true, Unit: "rad or m",
			Doc: "The position at a duty cycle of 1: one turn of the sensor (2π rad) times the joint's travel per sensor turn."},
		{Name: "expected_zero", Kind: config.Float, Default: 0.0, Unit: "rad or m", Doc: "The reading (duty cycle × full_range) at the joint's zero."},
		{Name: "min_frequency", Kind: config.Float, Default: 100.0, HasRange: true, Min: 0, Max: 1e6, Unit: "Hz",
			Doc: "Below this frequency the sensor counts as unplugged (WPILib's connected threshold)."},
		config.JointKey,
	},
	Check: func(d *config.Device, c *config.Checker) {
		// A reading is 0 to full_range: a zero beyond it is most often
		// written in degrees (180 for half a turn).
		full, zero := math.Abs(d.Float("full_range")), d.Float("expected_zero")
		if d.Has("expected_zero") && (zero < -full || zero > full) {
			c.Warnf(d.ValuePos("expected_zero"), "%s: expected_zero %g is beyond the sensor's range 0..%.4g (full_range); it is in full_range's units (rad for 2π a turn), not degrees: %g° is expected_zero: %.4g",
				d, zero, full, zero, zero*math.Pi/180)
		}
	},
	Facts: config.Facts{Joint: config.RateSource},
}

// errUnplugged is a read's error when the signal is slower than
// min_frequency.
var errUnplugged = errors.New("no signal: the sensor is unplugged or unpowered")

// dutyCycleEncoder reads an absolute encoder's PWM output on
// `dio_channel`. Its position goes to name/rate (RateState) and
// name/analog (AnalogState); the rate comes from the position unwrapped
// across full_range, so that a joint turning past the sensor's zero does
// not read as a jump.
type dutyCycleEncoder struct {
	name             string
	in               hal.DutyCycleIn
	full, zero, minF float64

	rate      interfaces.RateState
	pos       interfaces.AnalogState
	est       rateEstimator
	unwrapped float64
	seen      bool
	rErr      opError
}

var _ Device = (*dutyCycleEncoder)(nil)

func newDutyCycleEncoder(d *config.Device, env *Env) (Device, error) {
	ch := d.Int("dio_channel")
	in, err := hal.OpenDutyCycleIn(env.HAL, ch)
	if err != nil {
		return nil, fmt.Errorf("duty-cycle input %d: %w", ch, err)
	}
	e := &dutyCycleEncoder{name: d.Name, in: in, full: d.Float("full_range"), zero: d.Float("expected_zero"), minF: d.Float("min_frequency"),
		rErr: newOpError(d, "read")}
	if err := registerRate(env, d.Name, &e.rate, &e.pos); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *dutyCycleEncoder) Name() string { return e.name }

// position is WPILib's DutyCycleEncoder.Get: out × full − zero wrapped
// into [0, full) (full may be negative: then (full, 0]).
func (e *dutyCycleEncoder) position(out float64) float64 {
	p := math.Mod(max(0, min(1, out))*e.full-e.zero, e.full)
	if p != 0 && (p < 0) != (e.full < 0) {
		p += e.full
	}
	return p
}

func (e *dutyCycleEncoder) Read(now, dt time.Duration) error {
	f, err := e.in.Frequency()
	if err != nil {
		return e.rErr.wrap(err)
	}
	if !(f >= e.minF) {
		return e.rErr.wrap(fmt.Errorf("%w (%.0f Hz, below min_frequency %.0f Hz)", errUnplugged, f, e.minF))
	}
	out, err := e.in.Output()
	if err != nil {
		return e.rErr.wrap(err)
	}
	if !interfaces.Finite(out) {
		return e.rErr.wrap(errNotFinite)
	}
	x := e.position(out)
	// The unwrapped position: each step taken the short way round.
	if !e.seen {
		e.unwrapped, e.seen = x, true
	} else {
		step := math.Remainder(x-e.pos.Value, e.full)
		e.unwrapped += step
	}
	e.rate.State, e.rate.Rate, e.pos.Value = x, e.est.update(now, e.unwrapped), x
	return nil
}

// Write does nothing: an encoder is a sensor.
func (e *dutyCycleEncoder) Write(now, dt time.Duration) error { return nil }

// Halt does nothing: an encoder has no outputs.
func (e *dutyCycleEncoder) Halt() error { return nil }
