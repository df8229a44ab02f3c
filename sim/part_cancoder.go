package sim

import "github.com/frcd/frcd/config"

func init() { registerPart("cancoder", part{sensor: cancoderSensor}) }

// cancoderSensor puts an emulated CANcoder on the joint it measures, at
// its id on its bus.
func cancoderSensor(s *Sim, d *config.Device, j *joint) {
	per := d.Float("distance_per_rotation") / d.Float("sensor_to_mechanism_ratio")
	if d.Bool("inverted") {
		per = -per
	}
	c := &cancoder{s: s, bus: d.Str("can_bus"), id: d.Int("id"), j: j, perRot: per}
	s.cancoders = append(s.cancoders, c)
	s.canNodes[d.Name] = &c.node
}
