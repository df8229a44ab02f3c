package devices

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func init() { MustRegister(dmc60Driver) }

// dmc60Driver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var dmc60Driver = Driver{Type: pwmSpeedType("dmc60", "DMC60", "A Digilent DMC 60 on PWM.", frc.PWMDMC60), New: newDMC60, Needs: hal.CapPWM}

// newDMC60 binds a Digilent DMC 60 on the roboRIO PWM channel `id`: a
// voltage command becomes a pulse width through the calibration
// frc.PWMDMC60, as pwmSpeed describes.
func newDMC60(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed(d, env)
}
