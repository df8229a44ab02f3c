package devices

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func init() { MustRegister(canVictorSpxDriver) }

// canVictorSpxDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var canVictorSpxDriver = Driver{Type: canVictorSPXType, New: newCANVictorSPX, CAN: &CANTraffic{Kind: canVictorSPX, NumberKey: "id"}, Needs: hal.CapCANMotor}

// newCANVictorSPX binds a CTRE Victor SPX at CAN id `id` through
// hal.CANMotor model frc.VictorSPX, as canMotor describes: its CAN protocol
// is closed, so a real robot needs CTRE Phoenix behind that interface.
func newCANVictorSPX(d *config.Device, env *Env) (Device, error) {
	return newCANMotor(frc.VictorSPX, false, d, env)
}

var canVictorSPXType = withKeys(canSpeedType("can_victor_spx", "VictorSPX", "A CTRE Victor SPX on the CAN bus (no feedback)."),
	"Its neutral mode (Phoenix 5's SetNeutralMode) is applied at start when it is coast or brake. A Victor SPX measures no current and has no current limit.",
	p5NeutralKey)
