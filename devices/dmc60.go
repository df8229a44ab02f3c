package devices

import "github.com/frcd/frcd/config"

func init() { MustRegister("dmc60", newDMC60) }

// newDMC60 binds a Digilent DMC 60 on the roboRIO PWM channel `id`: a
// voltage command becomes a pulse width through the calibration
// hal.SpeedControllerPWM["dmc60"], as pwmSpeed describes.
func newDMC60(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed("dmc60", d, env)
}
