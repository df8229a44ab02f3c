package hal

import "time"

// PWMCalibration is how a PWM speed controller reads pulse widths: full
// reverse at Min, neutral between DeadbandMin and DeadbandMax around
// Center, full forward at Max. A driver sends Center + duty x (Max -
// Center) for a positive duty and Center + duty x (Center - Min) for a
// negative one; the controller's firmware reads anything inside the
// deadband as neutral.
type PWMCalibration struct {
	Max, DeadbandMax, Center, DeadbandMin, Min time.Duration
}

func us(n float64) time.Duration { return time.Duration(n * float64(time.Microsecond)) }

// SpeedControllerPWM holds the default calibration of each PWM speed
// controller by frcd type name: the manufacturers' figures, as WPILib's
// PWM motor controller classes set them with setBounds. (The Nidec
// Brushless is not here: its speed travels as a DIO duty cycle.)
var SpeedControllerPWM = map[string]PWMCalibration{
	"dmc60":          {us(2004), us(1520), us(1500), us(1480), us(997)},
	"jaguar":         {us(2310), us(1550), us(1507), us(1454), us(697)},
	"pwm_talon_srx":  {us(2004), us(1520), us(1500), us(1480), us(997)},
	"pwm_victor_spx": {us(2004), us(1520), us(1500), us(1480), us(997)},
	"sd540":          {us(2050), us(1550), us(1500), us(1440), us(940)},
	"spark":          {us(2003), us(1550), us(1500), us(1460), us(999)},
	"talon":          {us(2037), us(1539), us(1513), us(1487), us(989)},
	"victor":         {us(2027), us(1525), us(1507), us(1490), us(1026)},
	"victor_sp":      {us(2004), us(1520), us(1500), us(1480), us(997)},
}

// Pulse is the width a driver sends for duty in [-1, 1].
func (c PWMCalibration) Pulse(duty float64) time.Duration {
	switch {
	case duty > 0:
		return c.Center + time.Duration(duty*float64(c.Max-c.Center))
	case duty < 0:
		return c.Center + time.Duration(duty*float64(c.Center-c.Min))
	}
	return c.Center
}

// Duty is how the controller's firmware reads a width: 0 inside the
// deadband or when the output is disabled (width 0), else -1 to 1,
// clamped.
func (c PWMCalibration) Duty(width time.Duration) float64 {
	var d float64
	switch {
	case width <= 0:
		return 0
	case width > c.DeadbandMax:
		d = float64(width-c.DeadbandMax) / float64(c.Max-c.DeadbandMax)
	case width < c.DeadbandMin:
		d = -float64(c.DeadbandMin-width) / float64(c.DeadbandMin-c.Min)
	}
	return max(-1, min(1, d))
}
