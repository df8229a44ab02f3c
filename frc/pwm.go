package frc

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

// The default calibrations of the PWM speed controllers: the
// manufacturers' figures, as WPILib's PWM motor controller classes set
// them with setBounds. A device type names its calibration in its file
// (config.Type.PWM). (The Nidec Brushless has none: its speed travels as
// a DIO duty cycle.)
var (
	PWMDMC60     = PWMCalibration{us(2004), us(1520), us(1500), us(1480), us(997)}
	PWMJaguar    = PWMCalibration{us(2310), us(1550), us(1507), us(1454), us(697)}
	PWMTalonSRX  = PWMCalibration{us(2004), us(1520), us(1500), us(1480), us(997)}
	PWMVictorSPX = PWMCalibration{us(2004), us(1520), us(1500), us(1480), us(997)}
	PWMSD540     = PWMCalibration{us(2050), us(1550), us(1500), us(1440), us(940)}
	PWMSpark     = PWMCalibration{us(2003), us(1550), us(1500), us(1460), us(999)}
	PWMTalon     = PWMCalibration{us(2037), us(1539), us(1513), us(1487), us(989)}
	PWMVictor    = PWMCalibration{us(2027), us(1525), us(1507), us(1490), us(1026)}
	PWMVictorSP  = PWMCalibration{us(2004), us(1520), us(1500), us(1480), us(997)}
	// PWMGeneric is WPILib's default bounds, for a PWM output no speed
	// controller claims: 1.0 ms full reverse, 1.5 ms neutral, 2.0 ms full
	// forward.
	PWMGeneric = PWMCalibration{Max: 2 * time.Millisecond, DeadbandMax: 1500 * time.Microsecond,
		Center: 1500 * time.Microsecond, DeadbandMin: 1500 * time.Microsecond, Min: time.Millisecond}
)

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
