package devices

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func init() { MustRegister(talonDriver) }

// talonDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var talonDriver = Driver{Type: pwmSpeedType("talon", "Talon", "A CTRE Talon (the PWM one; see talon_srx for CAN).", frc.PWMTalon), New: newTalon, Needs: hal.CapPWM}

// newTalon binds a CTRE Talon (the PWM one; talon_srx is the CAN Talon SRX)
// on the roboRIO PWM channel `id`: a voltage command becomes a pulse width
// through the calibration frc.PWMTalon, as pwmSpeed
// describes.
func newTalon(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed(d, env)
}
