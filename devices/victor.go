package devices

import "github.com/frcd/frcd/config"

func init() { MustRegister("victor", newVictor) }

// newVictor binds a VEX Victor 888 on the roboRIO PWM channel `id`: a
// voltage command becomes a pulse width through the calibration
// hal.SpeedControllerPWM["victor"], as pwmSpeed describes.
func newVictor(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed("victor", d, env)
}
