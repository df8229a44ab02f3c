package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(cancoderDriver) }

// cancoderDriver declares the type: its keys and facts, driver, CAN
// traffic and HAL needs.
var cancoderDriver = Driver{Type: cancoderType, New: newCANcoder, CAN: &CANTraffic{Kind: canCANcoder, NumberKey: "id"}, Needs: phoenix6.Cap}

var cancoderType = &config.Type{
	Name: "cancoder", Class: "CANcoder", Group: "sensor",
	Summary: "A CTRE CANcoder (magnetic absolute encoder) on the CAN bus, through CTRE's Phoenix 6.",
	Doc: "State: a RateState (position and velocity through sensor_to_mechanism_ratio and distance_per_rotation) with an " +
		"AnalogState handle on the position; linked to a joint (a swerve module's steering, say) it sets the joint's " +
		"position and velocity. The position is the CANcoder's, which starts from its absolute position at boot.",
	Place: config.JointSensor, Provides: config.Position | config.Velocity,
	Keys: []config.Key{
		{Name: "id", Kind: config.Int, Required: true, Resource: config.CANDevice, Scope: "can_bus", Doc: "The CAN id of the CANcoder."},
		p6InvertedKey, config.SensorRatioKey, config.DistancePerRotationKey,
		config.CANBusKey, config.RequiredKey, config.JointKey,
	},
	Facts: config.Facts{Joint: config.RateSource, JointOnly: true, CAN: true},
}

// cancoder reads a CTRE CANcoder through phoenix6.CANcoder: position =
// rotations / sensor_to_mechanism_ratio × distance_per_rotation, negated
// when inverted; velocity likewise. A stale status is the HAL's
// hal.ErrTimeout.
type cancoder struct {
	name   string
	c      phoenix6.CANcoder
	perRot float64
	rate   interfaces.RateState
	pos    interfaces.AnalogState
	rErr   opError
	id     int
}

var (
	_ Device       = (*cancoder)(nil)
	_ hal.Reporter = (*cancoder)(nil)
)

func newCANcoder(d *config.Device, env *Env) (Device, error) {
	p6, err := phoenix6.Open(env.HAL)
	if err != nil {
		return nil, err
	}
	c, err := p6.OpenCANcoder(d.CANBus(), d.Int("id"))
	if err != nil {
		return nil, fmt.Errorf("CANcoder %d: %w", d.Int("id"), err)
	}
	if err := phoenix6.SetSignalRates(c); err != nil {
		return nil, fmt.Errorf("CANcoder %d: setting its signals' update frequencies: %w", d.Int("id"), err)
	}
	e := &cancoder{name: d.Name, c: c, id: d.Int("id"), perRot: d.JointPerRotation(), rErr: newOpError(d, "read")}
	if err := registerRate(env, d.Name, &e.rate, &e.pos); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *cancoder) Name() string { return e.name }

func (e *cancoder) Read(now, dt time.Duration) error {
	pos, vel, _, _, err := e.c.Read()
	if err != nil {
		return e.rErr.wrap(err)
	}
	if !interfaces.Finite(pos) || !interfaces.Finite(vel) {
		return e.rErr.wrap(errNotFinite)
	}
	e.rate.State, e.rate.Rate = pos*e.perRot, vel*e.perRot
	e.pos.Value = e.rate.State
	return nil
}

// Report gives the CANcoder's health for /diagnostics (p6Report).
func (e *cancoder) Report(dst []hal.Report) []hal.Report {
	h, err := e.c.Health()
	return append(dst, p6Report(fmt.Sprintf("%s (CANcoder %d)", e.name, e.id), h, err))
}

// Write does nothing: a CANcoder takes no commands.
func (e *cancoder) Write(now, dt time.Duration) error { return nil }

// Halt does nothing: a CANcoder has no outputs.
func (e *cancoder) Halt() error { return nil }
