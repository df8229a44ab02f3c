package devices

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func init() { MustRegister(victorDriver) }

// victorDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var victorDriver = Driver{Type: pwmSpeedType("victor", "Victor", "A VEX Victor 888 on PWM.", frc.PWMVictor), New: newVictor, Needs: hal.CapPWM}

// newVictor binds a VEX Victor 888 on the roboRIO PWM channel `id`: a
// voltage command becomes a pulse width through the calibration
// frc.PWMVictor, as pwmSpeed describes.
func newVictor(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed(d, env)
}
