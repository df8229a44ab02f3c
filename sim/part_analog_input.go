package sim

import "github.com/frcd/frcd/config"

func init() { registerPart("analog_input", part{sensor: analogInputSensor}) }

// analogInputSensor wires an analog input: its joint's position as volts
// ((q - offset) / scale × 5 V), or, in a link, what SetSensor sets.
func analogInputSensor(s *Sim, d *config.Device, j *joint) {
	as := &analogSensor{j: j, scale: d.Float("scale"), offset: d.Float("offset")}
	as.value = as.offset
	if j == nil {
		s.analog[d.Name] = as
	}
	s.sensors[d.Name] = sensorRef{an: as}
	if ch := d.Int("ain_channel"); ch >= 0 && ch < numAI {
		s.ai[ch].in = as
	}
}
