package devices

import "github.com/frcd/frcd/config"

func init() { MustRegister("talon_srx", newTalonSRX) }

// newTalonSRX binds a CTRE Talon SRX at CAN id `id` through hal.CANMotor
// model "talon_srx", as canMotor describes: its CAN protocol is closed, so
// a real robot needs CTRE Phoenix behind that interface. Only duty-cycle
// (voltage) control is used; position, velocity and effort commands are
// closed on the roboRIO, not in the Talon.
func newTalonSRX(d *config.Device, env *Env) (Device, error) {
	return newCANMotor("talon_srx", d, env)
}
