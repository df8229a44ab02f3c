package devices

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func init() { MustRegister(pwmTalonSrxDriver) }

// pwmTalonSrxDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var pwmTalonSrxDriver = Driver{Type: pwmSpeedType("pwm_talon_srx", "PWMTalonSRX", "A CTRE Talon SRX driven by PWM.", frc.PWMTalonSRX), New: newPWMTalonSRX, Needs: hal.CapPWM}

// newPWMTalonSRX binds a CTRE Talon SRX driven by PWM on the roboRIO PWM
// channel `id`: a voltage command becomes a pulse width through the
// calibration frc.PWMTalonSRX, as pwmSpeed
// describes.
func newPWMTalonSRX(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed(d, env)
}
