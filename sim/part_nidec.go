package sim

import "github.com/frcd/frcd/config"

func init() { registerPart("nidec", part{actuator: nidecJoint}) }

// nidecJoint drives a motor joint as a Nidec Brushless: enabled by its PWM
// line, its duty from the DIO duty cycle (0.5 neutral).
func nidecJoint(s *Sim, d *config.Device, j *joint) {
	j.kind, j.pwm, j.dio = kindNidec, d.Int("id"), d.Int("dio_channel")
}
