package devices

import "github.com/frcd/frcd/config"

func init() { MustRegister("pwm_victor_spx", newPWMVictorSPX) }

// newPWMVictorSPX binds a CTRE Victor SPX driven by PWM on the roboRIO PWM
// channel `id`: a voltage command becomes a pulse width through the
// calibration hal.SpeedControllerPWM["pwm_victor_spx"], as pwmSpeed
// describes.
func newPWMVictorSPX(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed("pwm_victor_spx", d, env)
}
