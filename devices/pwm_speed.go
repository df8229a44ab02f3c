package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

// pwmSpeed drives a PWM speed controller (every one but the Nidec): a
// voltage command becomes a duty cycle of the roboRIO's Vin, clamped to
// [-1, 1] and negated when inverted, sent as the pulse width the
// controller's calibration (its type's config.Facts.PWM) gives for it. Neutral
// (no command, or one that is not finite) is the calibration's center
// pulse; Halt disables the output (width 0), which the controller also
// reads as neutral.
type pwmSpeed struct {
	name     string
	out      hal.PWM
	power    hal.Power
	cal      frc.PWMCalibration
	inverted bool

	cmd   interfaces.JointCommand
	volts interfaces.AnalogState

	wErr, hErr opError
}

var _ Device = (*pwmSpeed)(nil)

func newPWMSpeed(d *config.Device, env *Env) (Device, error) {
	if d.Type.PWM == nil {
		return nil, fmt.Errorf("no PWM calibration for %s", d.Type.Name)
	}
	cal := *d.Type.PWM
	out, err := hal.OpenPWM(env.HAL, d.Int("id"))
	if err != nil {
		return nil, fmt.Errorf("PWM %d: %w", d.Int("id"), err)
	}
	p := &pwmSpeed{
		name: d.Name, out: out, power: env.HAL, cal: cal, inverted: d.Bool("inverted"),
		wErr: newOpError(d, "write"), hErr: newOpError(d, "halt"),
	}
	if err := registerVoltage(env, d.Name, &p.volts, &p.cmd); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *pwmSpeed) Name() string { return p.name }

// Read does nothing: a PWM speed controller reports nothing.
func (p *pwmSpeed) Read(now, dt time.Duration) error { return nil }

func (p *pwmSpeed) Write(now, dt time.Duration) error {
	supply := supplyVolts(p.power)
	duty := commandDuty(&p.cmd, supply)
	p.volts.Value = duty * supply
	if p.inverted {
		duty = -duty
	}
	return p.wErr.wrap(p.out.SetPulse(p.cal.Pulse(duty)))
}

func (p *pwmSpeed) Halt() error {
	p.volts.Value = 0
	return p.hErr.wrap(p.out.SetPulse(0))
}
