package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(nidecDriver) }

// nidecDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var nidecDriver = Driver{Type: nidecType, New: newNidec, Needs: hal.CapPWM | hal.CapDutyCycle}

// nidec drives a Nidec Brushless motor, as WPILib's NidecBrushless does:
// the PWM channel `id` is its enable line, held high (hal.AlwaysHigh)
// while running and disabled (width 0) on Halt; its speed travels on the
// DIO channel `dio_channel` as a duty cycle of 0.5 + 0.5 × duty, where duty
// is the voltage command over Vin, clamped to [-1, 1] and negated when
// inverted. Neutral (no command, or one not finite) is 0.5, enabled.
type nidec struct {
	name     string
	enable   hal.PWM
	speed    hal.DutyCycleOut
	power    hal.Power
	inverted bool

	cmd   interfaces.JointCommand
	volts interfaces.AnalogState

	wErr, hErr opError
}

var _ Device = (*nidec)(nil)

func newNidec(d *config.Device, env *Env) (Device, error) {
	enable, err := hal.OpenPWM(env.HAL, d.Int("id"))
	if err != nil {
		return nil, fmt.Errorf("PWM %d: %w", d.Int("id"), err)
	}
	speed, err := hal.OpenDutyCycleOut(env.HAL, d.Int("dio_channel"))
	if err != nil {
		return nil, fmt.Errorf("DIO %d as a duty-cycle output: %w", d.Int("dio_channel"), err)
	}
	n := &nidec{
		name: d.Name, enable: enable, speed: speed, power: env.HAL, inverted: d.Bool("inverted"),
		wErr: newOpError(d, "write"), hErr: newOpError(d, "halt"),
	}
	if err := registerVoltage(env, d.Name, &n.volts, &n.cmd); err != nil {
		return nil, err
	}
	return n, nil
}

func (n *nidec) Name() string { return n.name }

// Read does nothing: the Nidec reports nothing.
func (n *nidec) Read(now, dt time.Duration) error { return nil }

func (n *nidec) Write(now, dt time.Duration) error {
	supply := supplyVolts(n.power)
	duty := commandDuty(&n.cmd, supply)
	n.volts.Value = duty * supply
	if n.inverted {
		duty = -duty
	}
	return n.wErr.wrap(first(n.speed.SetDutyCycle(0.5+0.5*duty), n.enable.SetPulse(hal.AlwaysHigh)))
}

func (n *nidec) Halt() error {
	n.volts.Value = 0
	return n.hErr.wrap(first(n.enable.SetPulse(0), n.speed.SetDutyCycle(0.5)))
}

var nidecType = &config.Type{Name: "nidec", Class: "NidecBrushless", Group: "speed controller",
	Summary: "A Nidec Brushless motor: PWM for speed plus a DIO channel for enable.",
	Doc:     speedDoc, Place: config.DrivesJoint, Provides: config.Effort, Check: checkSpeedController,
	Keys: speedControllerKeys(pwmID,
		config.Key{Name: "dio_channel", Kind: config.Int, Required: true, Resource: config.DIO, Doc: "The digital channel of the Nidec."}),
	Facts: config.Facts{Speed: true, DutyDIO: "dio_channel", Effort: &powerChannel}}
