package sim

import (
	"math"
	"sort"
)

// motorSpec is a DC motor's datasheet at 12 V.
type motorSpec struct {
	stallTorque  float64 // N·m
	stallCurrent float64 // A
	freeCurrent  float64 // A
	freeSpeedRPM float64 // rpm
}

// motorTable holds the motors a speed-controller joint can be given with
// JointParams.Motor, by name. Figures are the vendors' 12 V datasheets.
var motorTable = map[string]motorSpec{
	"cim":        {2.42, 133, 2.7, 5310},
	"mini_cim":   {1.41, 89, 3, 5840},
	"bag":        {0.43, 53, 1.8, 13180},
	"775pro":     {0.71, 134, 0.7, 18730},
	"rs775":      {0.72, 97, 2.7, 13050}, // BaneBots RS-775
	"am9015":     {0.36, 71, 3.7, 14270},
	"neo":        {2.6, 105, 1.8, 5676},
	"neo550":     {0.97, 100, 1.4, 11000},
	"neo_vortex": {3.6, 211, 3.6, 6784}, // REV NEO Vortex
	"falcon500":  {4.69, 257, 1.5, 6380},
	"window":     {10.0, 15, 1.0, 90}, // a window motor, its worm gear included
}

// Motors lists the motor type names JointParams.Motor accepts, sorted.
func Motors() []string {
	names := make([]string, 0, len(motorTable))
	for n := range motorTable {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// specVolts is the voltage the datasheet figures are given at.
const specVolts = 12.0

// motorModel is the linear DC motor model derived from a motorSpec.
type motorModel struct {
	r    float64 // winding resistance, Ω: 12 V / stall current
	kt   float64 // torque constant, N·m/A: stall torque / stall current
	kv   float64 // speed constant, rad/s per V: free speed / (12 V - free current × R)
	free float64 // free speed, rad/s
	// loss is the motor's own viscous drag, N·m·s/rad at its shaft:
	// kt × free current / free speed, so that at 12 V the motor turns at
	// exactly its free speed drawing exactly its free current.
	loss float64
}

func (m motorSpec) model() motorModel {
	r := specVolts / m.stallCurrent
	kt := m.stallTorque / m.stallCurrent
	free := m.freeSpeedRPM * 2 * math.Pi / 60
	return motorModel{
		r:    r,
		kt:   kt,
		kv:   free / (specVolts - m.freeCurrent*r),
		free: free,
		loss: kt * m.freeCurrent / free,
	}
}
