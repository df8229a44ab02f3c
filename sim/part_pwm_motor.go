package sim

import "github.com/frcd/frcd/config"

// pwmMotorPart emulates every PWM speed controller: the type's facts give
// its calibration (config.Facts.PWM), so a new one needs no part of its
// own (partOf).
var pwmMotorPart = part{actuator: pwmMotorJoint}

// pwmMotorJoint drives a motor joint from the duty a PWM speed
// controller reads in the pulse width, through its calibration.
func pwmMotorJoint(s *Sim, d *config.Device, j *joint) {
	j.kind, j.pwm, j.cal = kindPWMMotor, d.Int("id"), *d.Type.PWM
}
