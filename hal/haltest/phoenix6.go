package haltest

import (
	"github.com/frcd/frcd/hal/phoenix6"
)

// TalonFX is a fake Talon FX: the last control request and the gains
// applied, and the status it reports.
type TalonFX struct {
	Bus       string
	Last      phoenix6.FXControl
	Controls  int
	Gains     [3]phoenix6.FXGains
	GainsSet  int
	Reported  phoenix6.FXStatus
	StatusErr error
	Err       error // fails Control
	Healthy         // what Health returns
	// Applied is the neutral mode and current limits last applied
	// (Applies counts them); Config reads back Holds when set, else
	// Applied.
	Applied phoenix6.FXConfig
	Applies int
	Holds   *phoenix6.FXConfig
}

// ApplyConfig records the configuration.
func (t *TalonFX) ApplyConfig(c phoenix6.FXConfig) error {
	t.Applied = c
	t.Applies++
	return nil
}

// Config reads back Holds, or what was applied.
func (t *TalonFX) Config() (phoenix6.FXConfig, error) {
	if t.Holds != nil {
		return *t.Holds, nil
	}
	return t.Applied, nil
}

// Healthy is a fake Phoenix 6 device's health: Health returns HealthOf,
// HealthErr.
type Healthy struct {
	HealthOf  phoenix6.Health
	HealthErr error
}

// Health returns HealthOf, HealthErr.
func (h *Healthy) Health() (phoenix6.Health, error) { return h.HealthOf, h.HealthErr }

// Pigeon2 is a fake Pigeon 2.
type Pigeon2 struct {
	Pigeon
	Healthy
}

// Control records the request.
func (t *TalonFX) Control(c phoenix6.FXControl) error {
	if t.Err != nil {
		return t.Err
	}
	t.Last = c
	t.Controls++
	return nil
}

// SetGains records slot's gains.
func (t *TalonFX) SetGains(slot int, g phoenix6.FXGains) error {
	t.Gains[slot] = g
	t.GainsSet++
	return nil
}

// Status returns Reported, StatusErr.
func (t *TalonFX) Status() (phoenix6.FXStatus, error) { return t.Reported, t.StatusErr }

// CANcoder is a fake CANcoder.
type CANcoder struct {
	Bus           string
	Pos, Vel, Abs float64 // rotations, rotations/s
	Faults        uint32
	Err           error
	Healthy
}

// Read returns the fields.
func (c *CANcoder) Read() (pos, vel, abs float64, faults uint32, err error) {
	return c.Pos, c.Vel, c.Abs, c.Faults, c.Err
}

// OpenTalonFX opens TalonFXs[id], adding it when missing.
func (b *Backend) OpenTalonFX(bus string, id int) (phoenix6.TalonFX, error) {
	if err := b.claim("talon fx", id, 63); err != nil {
		return nil, err
	}
	t := b.TalonFXs[id]
	if t == nil {
		t = &TalonFX{}
		b.TalonFXs[id] = t
	}
	t.Bus = bus
	return t, nil
}

// OpenCANcoder opens CANcoders[id], adding it when missing.
func (b *Backend) OpenCANcoder(bus string, id int) (phoenix6.CANcoder, error) {
	if err := b.claim("CANcoder", id, 63); err != nil {
		return nil, err
	}
	c := b.CANcoders[id]
	if c == nil {
		c = &CANcoder{}
		b.CANcoders[id] = c
	}
	c.Bus = bus
	return c, nil
}

// OpenPigeon2 opens Pigeon2s[id], adding it when missing.
func (b *Backend) OpenPigeon2(bus string, id int) (phoenix6.Pigeon2, error) {
	if err := b.claim("pigeon 2", id, 63); err != nil {
		return nil, err
	}
	p := b.Pigeon2s[id]
	if p == nil {
		p = &Pigeon2{Pigeon: Pigeon{Q: [4]float64{1, 0, 0, 0}}}
		b.Pigeon2s[id] = p
	}
	return p, nil
}
