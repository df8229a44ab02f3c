package devices

import (
	"testing"

	"github.com/frcd/frcd/interfaces"
)

func TestAnalogOutput(t *testing.T) {
	// 0-5 V is 0.2 to 2.2 (scale 2, offset 0.2).
	r := bind(t, "joints:\n  - {name: glow, type: analog_output, aout_channel: 1, scale: 2.0, offset: 0.2}\n")
	cmd := command[float64](r, "glow", interfaces.Analog)
	rate := state[interfaces.RateState](r, "glow", interfaces.Rate)
	val := state[interfaces.AnalogState](r, "glow", interfaces.Analog)
	out := &r.hal.AnalogOut[1]
	for _, tc := range []struct {
		name         string
		set          bool
		cmd          float64
		volts, value float64
	}{
		{"unset: 0 V, the offset", false, 0, 0, 0.2},
		{"1.2: (1.2 - 0.2) / 2 x 5 = 2.5 V", true, 1.2, 2.5, 1.2},
		{"2.2: 5 V", true, 2.2, 5, 2.2},
		{"3: clamped to 5 V, 2.2", true, 3, 5, 2.2},
		{"-1: clamped to 0 V, 0.2", true, -1, 0, 0.2},
		{"NaN: 0 V", true, nan, 0, 0.2},
		{"-Inf: 0 V", true, -inf, 0, 0.2},
		{"0.7: 1.25 V", true, 0.7, 1.25, 0.7},
	} {
		cmd.Reset()
		if tc.set {
			cmd.Put(tc.cmd, r.now)
		}
		r.cycle()
		if !approx(out.Volts, tc.volts, 1e-12) || !approx(val.Value, tc.value, 1e-12) || rate.State != val.Value {
			t.Errorf("%s: %v V, state %v (rate state %v); want %v V, %v", tc.name, out.Volts, val.Value, rate.State, tc.volts, tc.value)
		}
	}
	// A ramp of the command gives its rate: 0.7 + 0.001/ms = 1 per s.
	for i := 1; i <= 30; i++ {
		cmd.Put(0.7+float64(i)*0.001, r.now)
		r.cycle()
	}
	if !approx(rate.Rate, 1, 1e-9) {
		t.Errorf("rate %v, want 1", rate.Rate)
	}
	r.halt()
	if out.Volts != 0 || val.Value != 0.2 || rate.State != 0.2 || rate.Rate != 0 {
		t.Errorf("after Halt: %v V, state %v %+v", out.Volts, val.Value, *rate)
	}
}
