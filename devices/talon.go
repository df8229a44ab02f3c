package devices

import "github.com/frcd/frcd/config"

func init() { MustRegister("talon", newTalon) }

// newTalon binds a CTRE Talon (the PWM one; talon_srx is the CAN Talon SRX)
// on the roboRIO PWM channel `id`: a voltage command becomes a pulse width
// through the calibration hal.SpeedControllerPWM["talon"], as pwmSpeed
// describes.
func newTalon(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed("talon", d, env)
}
