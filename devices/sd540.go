package devices

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func init() { MustRegister(sd540Driver) }

// sd540Driver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var sd540Driver = Driver{Type: pwmSpeedType("sd540", "SD540", "A Mindsensors SD540 on PWM.", frc.PWMSD540), New: newSD540, Needs: hal.CapPWM}

// newSD540 binds a Mindsensors SD540 on the roboRIO PWM channel `id`: a
// voltage command becomes a pulse width through the calibration
// frc.PWMSD540, as pwmSpeed describes.
func newSD540(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed(d, env)
}
