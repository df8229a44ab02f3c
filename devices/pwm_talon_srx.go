package devices

import "github.com/frcd/frcd/config"

func init() { MustRegister("pwm_talon_srx", newPWMTalonSRX) }

// newPWMTalonSRX binds a CTRE Talon SRX driven by PWM on the roboRIO PWM
// channel `id`: a voltage command becomes a pulse width through the
// calibration hal.SpeedControllerPWM["pwm_talon_srx"], as pwmSpeed
// describes.
func newPWMTalonSRX(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed("pwm_talon_srx", d, env)
}
