package devices

import (
	"fmt"
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/interfaces"
)

func TestNidec(t *testing.T) {
	for _, tc := range []struct {
		name     string
		inverted bool
		set      bool
		cmd      float64
		duty     float64 // on the DIO line
		volts    float64
	}{
		{"6 V of 12: 0.5 + 0.5 x 0.5", false, true, 6, 0.75, 6},
		{"inverted", true, true, 6, 0.25, 6},
		{"-12 V: full reverse", false, true, -12, 0, -12},
		{"24 V clamps", false, true, 24, 1, 12},
		{"unset: 0.5", false, false, 0, 0.5, 0},
		{"NaN: 0.5", false, true, nan, 0.5, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := bind(t, fmt.Sprintf("joints:\n  - {name: fly, type: nidec, id: 6, dio_channel: 11, inverted: %v}\n", tc.inverted))
			if tc.set {
				command[float64](r, "fly", interfaces.Voltage).Put(tc.cmd, 0)
			}
			r.cycle()
			if r.hal.DIO[11].Mode != haltest.DIODutyCycle || r.hal.DIO[11].Duty != tc.duty {
				t.Errorf("DIO 11: mode %v, duty %v; want duty-cycle %v", r.hal.DIO[11].Mode, r.hal.DIO[11].Duty, tc.duty)
			}
			if r.hal.PWM[6].Pulse != hal.AlwaysHigh {
				t.Errorf("enable line: pulse %v, want always high", r.hal.PWM[6].Pulse)
			}
			volts := state[interfaces.AnalogState](r, "fly", interfaces.Voltage)
			if volts.Value != tc.volts {
				t.Errorf("voltage state %v, want %v", volts.Value, tc.volts)
			}
			r.halt()
			if r.hal.PWM[6].Pulse != 0 || r.hal.DIO[11].Duty != 0.5 || volts.Value != 0 {
				t.Errorf("after Halt: enable %v, duty %v, voltage %v", r.hal.PWM[6].Pulse, r.hal.DIO[11].Duty, volts.Value)
			}
		})
	}
}
