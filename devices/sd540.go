package devices

import "github.com/frcd/frcd/config"

func init() { MustRegister("sd540", newSD540) }

// newSD540 binds a Mindsensors SD540 on the roboRIO PWM channel `id`: a
// voltage command becomes a pulse width through the calibration
// hal.SpeedControllerPWM["sd540"], as pwmSpeed describes.
func newSD540(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed("sd540", d, env)
}
