package sim

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
)

func init() { registerPart("talon_srx", part{actuator: canMotorJoint(frc.TalonSRX)}) }

// canMotorJoint drives a motor joint from the emulated CTRE motor
// controller of that model at the entry's CAN id, on its bus.
func canMotorJoint(model string) func(s *Sim, d *config.Device, j *joint) {
	return func(s *Sim, d *config.Device, j *joint) {
		j.kind = kindCANMotor
		m := s.canMotorFor(d.CANBus(), model, d.Int("id"))
		m.j = j
		s.canNodes[d.Name] = &m.node
		j.can = m
	}
}
