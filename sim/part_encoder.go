package sim

import "github.com/frcd/frcd/config"

func init() { registerPart("encoder", part{sensor: encoderSensorOf}) }

// encoderSensorOf wires a quadrature encoder on its two DIO channels to
// its joint's position.
func encoderSensorOf(s *Sim, d *config.Device, j *joint) {
	es := &encoderSensor{a: d.Int("ch_a"), b: d.Int("ch_b"), j: j, dpp: d.Float("dist_per_pulse"), inv: d.Bool("inverted")}
	s.encoders = append(s.encoders, es)
	s.sensors[d.Name] = sensorRef{enc: es}
}
