package sim

import "github.com/frcd/frcd/config"

func init() { registerPart("solenoid", part{bus: moduleBus, actuator: solenoidJoint}) }

// solenoidJoint drives a joint from one channel of its pneumatics module:
// on, the piston travels to the upper limit; off, back to the lower.
func solenoidJoint(s *Sim, d *config.Device, j *joint) {
	j.kind, j.pcm, j.ch = kindSolenoid, s.moduleOf(d), d.Int("id")
}
