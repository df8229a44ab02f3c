package devices

import "github.com/frcd/frcd/config"

func init() { MustRegister("jaguar", newJaguar) }

// newJaguar binds a Texas Instruments Jaguar on the roboRIO PWM channel
// `id`: a voltage command becomes a pulse width through the calibration
// hal.SpeedControllerPWM["jaguar"], as pwmSpeed describes.
func newJaguar(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed("jaguar", d, env)
}
