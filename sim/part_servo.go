package sim

import (
	"time"

	"github.com/frcd/frcd/config"
)

func init() { registerPart("servo", part{actuator: servoJoint}) }

// servoJoint moves a joint toward the angle a servo's pulse width means:
// min_pulse_us..max_pulse_us onto min_angle..max_angle, at the servo's
// rate.
func servoJoint(s *Sim, d *config.Device, j *joint) {
	j.kind, j.pwm = kindServo, d.Int("id")
	j.minAngle, j.maxAngle = d.Float("min_angle"), d.Float("max_angle")
	j.minPulse = time.Duration(d.Int("min_pulse_us")) * time.Microsecond
	j.maxPulse = time.Duration(d.Int("max_pulse_us")) * time.Microsecond
	j.rate = servoRate
}
