package devices

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func init() { MustRegister(sparkDriver) }

// sparkDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var sparkDriver = Driver{Type: pwmSpeedType("spark", "Spark", "A REV Spark on PWM.", frc.PWMSpark), New: newSpark, Needs: hal.CapPWM}

// newSpark binds a REV Robotics Spark on the roboRIO PWM channel `id`: a
// voltage command becomes a pulse width through the calibration
// frc.PWMSpark, as pwmSpeed describes.
func newSpark(d *config.Device, env *Env) (Device, error) {
	return newPWMSpeed(d, env)
}
