package devices

import "github.com/frcd/frcd/config"

func init() { MustRegister("can_victor_spx", newCANVictorSPX) }

// newCANVictorSPX binds a CTRE Victor SPX at CAN id `id` through
// hal.CANMotor model "victor_spx", as canMotor describes: its CAN protocol
// is closed, so a real robot needs CTRE Phoenix behind that interface.
func newCANVictorSPX(d *config.Device, env *Env) (Device, error) {
	return newCANMotor("victor_spx", d, env)
}
