package devices

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func init() { MustRegister(jaguarDriver) }

// jaguarDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var jaguarDriver = Driver{Type: pwmSpeedType("jaguar", "Jaguar", "A Texas Instruments Jaguar on PWM.", frc.PWMJaguar), New: newJaguar, Needs: hal.CapPWM}

// newJaguar binds a Texas Instruments Jaguar on the roboRIO PWM channel
// `id`: a voltage command becomes a pulse width through the calibration
// frc.PWMJaguar, as pwmSpeed describes.
func newJaguar(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed(d, env)
}
