package sim

import "github.com/frcd/frcd/config"

func init() { registerPart("digital_input", part{sensor: digitalInputSensor}) }

// digitalInputSensor wires a DIO input: a limit switch or a position
// switch of its joint, or, in a link, a beam break SetSensor sets.
func digitalInputSensor(s *Sim, d *config.Device, j *joint) {
	ds := &digitalSensor{j: j, inv: d.Bool("inverted")}
	if j != nil {
		switch d.Str("limit") {
		case "lower":
			ds.limit = -1
		case "upper":
			ds.limit = 1
		}
	} else {
		s.digital[d.Name] = ds
	}
	s.sensors[d.Name] = sensorRef{dig: ds}
	if ch := d.Int("dio_channel"); ch >= 0 && ch < numDIO {
		s.dio[ch].in = ds
	}
}
