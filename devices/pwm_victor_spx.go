package devices

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func init() { MustRegister(pwmVictorSpxDriver) }

// pwmVictorSpxDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var pwmVictorSpxDriver = Driver{Type: pwmSpeedType("pwm_victor_spx", "PWMVictorSPX", "A CTRE Victor SPX driven by PWM.", frc.PWMVictorSPX), New: newPWMVictorSPX, Needs: hal.CapPWM}

// newPWMVictorSPX binds a CTRE Victor SPX driven by PWM on the roboRIO PWM
// channel `id`: a voltage command becomes a pulse width through the
// calibration frc.PWMVictorSPX, as pwmSpeed
// describes.
func newPWMVictorSPX(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed(d, env)
}
