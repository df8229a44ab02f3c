package devices

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func init() { MustRegister(victorSpDriver) }

// victorSpDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var victorSpDriver = Driver{Type: pwmSpeedType("victor_sp", "VictorSP", "A VEX Victor SP on PWM.", frc.PWMVictorSP), New: newVictorSP, Needs: hal.CapPWM}

// newVictorSP binds a VEX Victor SP on the roboRIO PWM channel `id`: a
// voltage command becomes a pulse width through the calibration
// frc.PWMVictorSP, as pwmSpeed describes.
func newVictorSP(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed(d, env)
}
