package devices

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func init() { MustRegister(talonSrxDriver) }

// talonSrxDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var talonSrxDriver = Driver{Type: talonSRXType, New: newTalonSRX, CAN: &CANTraffic{Kind: canTalonSRX, NumberKey: "id"}, Needs: hal.CapCANMotor}

// newTalonSRX binds a CTRE Talon SRX at CAN id `id` through hal.CANMotor
// model frc.TalonSRX, as canMotor describes: its CAN protocol is closed, so
// a real robot needs CTRE Phoenix behind that interface. Only duty-cycle
// (voltage) control is used; position, velocity and effort commands are
// closed on the roboRIO, not in the Talon.
func newTalonSRX(d *config.Device, env *Env) (Device, error) {
	return newCANMotor(frc.TalonSRX, true, d, env)
}

// frc_control calls it can_talon_srx.
var talonSRXType = aka(withKeys(canSpeedType("talon_srx", "TalonSRX", "A CTRE Talon SRX on the CAN bus; a Pigeon IMU may ride on it.", config.PigeonHostRole),
	"Its neutral mode and current limit (Phoenix 5's SetNeutralMode, and peak, duration and continuous limits with EnableCurrentLimit) are applied at start "+
		"when the entry asks for other than Phoenix 5's defaults, the current limit read back."+ctreSetupDoc,
	append([]config.Key{p5NeutralKey}, p5LimitKeys...)...), "can_talon_srx")
