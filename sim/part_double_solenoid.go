package sim

import "github.com/frcd/frcd/config"

func init() { registerPart("double_solenoid", part{bus: moduleBus, actuator: doubleSolenoidJoint}) }

// doubleSolenoidJoint drives a joint from two channels of its pneumatics
// module: forward travels to the upper limit, reverse to the lower, off
// holds.
func doubleSolenoidJoint(s *Sim, d *config.Device, j *joint) {
	j.kind, j.pcm = kindDouble, s.moduleOf(d)
	j.ch, j.rev = d.Int("forward_id"), d.Int("reverse_id")
}
