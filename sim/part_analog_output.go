package sim

import (
	"math"

	"github.com/frcd/frcd/config"
)

func init() { registerPart("analog_output", part{actuator: analogOutputJoint}) }

// analogOutputJoint moves a joint toward the value an analog output
// writes (volts / 5 × scale + offset).
func analogOutputJoint(s *Sim, d *config.Device, j *joint) {
	j.kind, j.ch = kindAOut, d.Int("aout_channel")
	j.scale, j.offset = d.Float("scale"), d.Float("offset")
	if !j.bounded {
		j.rate = math.Abs(j.scale) / j.travel.Seconds()
	}
}
