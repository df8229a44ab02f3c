package devices

import (
	"errors"
	"fmt"
	"github.com/frcd/frcd/frc"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/interfaces"
)

func TestCANMotors(t *testing.T) {
	for _, tc := range []struct {
		name      string
		typ       string
		inverted  bool
		bus       float64
		statusErr error
		vin       float64
		set       bool
		cmd       float64
		duty      float64
		volts     float64
	}{
		{"talon_srx: 6 V of its 12 V bus", "talon_srx", false, 12, nil, 11, true, 6, 0.5, 6},
		{"its own bus, not Vin", "talon_srx", false, 10, nil, 12.5, true, 5, 0.5, 5},
		{"inverted", "talon_srx", true, 12, nil, 12, true, 3, -0.25, 3},
		{"clamped", "talon_srx", false, 12, nil, 12, true, -30, -1, -12},
		{"no status: Vin", "talon_srx", false, 0, errors.New("no status"), 8, true, 4, 0.5, 4},
		{"bus below 4.5 V: Vin", "talon_srx", false, 2, nil, 8, true, 4, 0.5, 4},
		{"unset: 0", "talon_srx", false, 12, nil, 12, false, 0, 0, 0},
		{"NaN: 0", "talon_srx", false, 12, nil, 12, true, nan, 0, 0},
		{"can_victor_spx", "can_victor_spx", false, 12.5, nil, 12, true, 2.5, 0.2, 2.5},
		{"can_victor_spx inverted Inf", "can_victor_spx", true, 12, nil, 12, true, -inf, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := haltest.New()
			m := &haltest.Motor{Reported: hal.MotorStatus{BusVoltage: tc.bus}, StatusErr: tc.statusErr}
			b.Motors[5] = m
			b.VinVolts = tc.vin
			r := buildOn(t, b, fmt.Sprintf("joints:\n  - {name: wheel, type: %s, id: 5, inverted: %v}\n", tc.typ, tc.inverted))
			if tc.set {
				command[float64](r, "wheel", interfaces.Voltage).Put(tc.cmd, 0)
			}
			err := r.step(time.Millisecond)
			if !errors.Is(err, tc.statusErr) {
				t.Errorf("cycle: %v, want %v", err, tc.statusErr)
			}
			want := map[string]string{"talon_srx": frc.TalonSRX, "can_victor_spx": frc.VictorSPX}[tc.typ]
			if m.Model != want || !approx(m.Duty, tc.duty, 1e-15) {
				t.Errorf("motor %s duty %v, want %s %v", m.Model, m.Duty, want, tc.duty)
			}
			volts := state[interfaces.AnalogState](r, "wheel", interfaces.Voltage)
			if !approx(volts.Value, tc.volts, 1e-12) {
				t.Errorf("voltage state %v, want %v", volts.Value, tc.volts)
			}
			m.Err = nil
			r.halt()
			if m.Duty != 0 || volts.Value != 0 {
				t.Errorf("after Halt: duty %v, voltage %v", m.Duty, volts.Value)
			}
		})
	}
}
