package control

import "math"

// PID is a PID controller with integral clamping and an output limit. The
// derivative acts on the measurement's rate (given), so a step in the
// setpoint does not kick the output.
type PID struct {
	P, I, D float64
	F       float64 // feedforward: output per unit of setpoint
	IClamp  float64 // |integral term| limit, in output units
	Max     float64 // |output| limit

	integral float64 // the integral term, in output units
}

// Reset clears the integral term.
func (c *PID) Reset() { c.integral = 0 }

// Update returns the output for an error, the measurement's rate of change
// and the setpoint, over dt seconds.
func (c *PID) Update(setpoint, err, rate, dt float64) float64 {
	if dt > 0 && c.I != 0 {
		c.integral += c.I * err * dt
		c.integral = math.Max(-c.IClamp, math.Min(c.IClamp, c.integral))
	}
	out := c.F*setpoint + c.P*err + c.integral - c.D*rate
	return math.Max(-c.Max, math.Min(c.Max, out))
}

// Integral is the integral term, in output units.
func (c *PID) Integral() float64 { return c.integral }

// wrapAngle maps an angle error to [-π, π], for continuous joints.
func wrapAngle(a float64) float64 {
	a = math.Mod(a+math.Pi, 2*math.Pi)
	if a < 0 {
		a += 2 * math.Pi
	}
	return a - math.Pi
}
