package devices

import "github.com/frcd/frcd/config"

func init() { MustRegister("spark", newSpark) }

// newSpark binds a REV Robotics Spark on the roboRIO PWM channel `id`: a
// voltage command becomes a pulse width through the calibration
// hal.SpeedControllerPWM["spark"], as pwmSpeed describes.
func newSpark(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed("spark", d, env)
}
