package sim

import "github.com/frcd/frcd/frc"

func init() { registerPart("can_victor_spx", part{actuator: canMotorJoint(frc.VictorSPX)}) }
