package devices

import (
	"math"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

// registerVoltage registers a speed controller's name/voltage state and
// command handles.
func registerVoltage(env *Env, name string, state *interfaces.AnalogState, cmd *interfaces.JointCommand) error {
	if err := interfaces.RegisterState(env.Handles, name, interfaces.Voltage, state); err != nil {
		return err
	}
	return interfaces.RegisterCommand(env.Handles, name, name, interfaces.Voltage, cmd)
}

// registerRate registers a sensor's name/rate RateState and its name/analog
// AnalogState on the position.
func registerRate(env *Env, name string, rate *interfaces.RateState, pos *interfaces.AnalogState) error {
	if err := interfaces.RegisterState(env.Handles, name, interfaces.Rate, rate); err != nil {
		return err
	}
	return interfaces.RegisterState(env.Handles, name, interfaces.Analog, pos)
}

// Supply voltages a speed controller divides its voltage command by.
const (
	// nominalSupply is the supply assumed when none can be measured, V.
	nominalSupply = 12.0
	// minSupply is the lowest supply reading believed, V: a roboRIO shuts
	// down below 4.5 V, so a lower reading is a fault, and dividing by it
	// would drive every motor at full output.
	minSupply = 4.5
)

// usableSupply reports whether a supply reading is one to divide by.
func usableSupply(v float64) bool { return v >= minSupply && !math.IsInf(v, 1) }

// supplyVolts is the roboRIO's Vin, or nominalSupply when it cannot be
// read or is below minSupply.
func supplyVolts(p hal.Power) float64 {
	v, err := p.Vin()
	if err != nil || !usableSupply(v) {
		return nominalSupply
	}
	return v
}

// commandDuty is a voltage command's duty cycle of supply, clamped to
// [-1, 1]: 0 when the command is unset or not finite.
func commandDuty(c *interfaces.JointCommand, supply float64) float64 {
	if !c.Set || !interfaces.Finite(c.Value) {
		return 0
	}
	return max(-1, min(1, c.Value/supply))
}

// signedEffort is a motor's effort from its current, a magnitude (a Talon
// FX's stator current, a SPARK's output current): |amps| × kEff, signed
// like the voltage applied, 0 while none is.
func signedEffort(amps, kEff, volts float64) float64 {
	e := math.Abs(amps) * kEff
	switch {
	case volts < 0:
		return -e
	case volts == 0:
		return 0
	}
	return e
}
