package devices

import "github.com/frcd/frcd/config"

func init() { MustRegister("victor_sp", newVictorSP) }

// newVictorSP binds a VEX Victor SP on the roboRIO PWM channel `id`: a
// voltage command becomes a pulse width through the calibration
// hal.SpeedControllerPWM["victor_sp"], as pwmSpeed describes.
func newVictorSP(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed("victor_sp", d, env)
}
