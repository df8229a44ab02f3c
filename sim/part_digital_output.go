package sim

import "github.com/frcd/frcd/config"

func init() { registerPart("digital_output", part{actuator: digitalOutputJoint}) }

// digitalOutputJoint drives a joint from a DIO output: high (after
// inverting) to the upper limit, low to the lower.
func digitalOutputJoint(s *Sim, d *config.Device, j *joint) {
	j.kind, j.dio, j.inv = kindDOut, d.Int("dio_channel"), d.Bool("inverted")
}
