package devices

import (
	"testing"
	"time"

	"github.com/frcd/frcd/interfaces"
)

func TestServo(t *testing.T) {
	// The competition robot's wrist: ±π/2 onto 600-2400 µs.
	r := bind(t, "joints:\n  - {name: wrist, type: servo, id: 3, min_angle: -1.5708, max_angle: 1.5708, min_pulse_us: 600, max_pulse_us: 2400}\n")
	cmd := command[float64](r, "wrist", interfaces.Position)
	st := state[interfaces.AnalogState](r, "wrist", interfaces.Position)
	pwm := &r.hal.PWM[3]
	r.cycle()
	if pwm.Pulse != 0 || pwm.Writes != 1 {
		t.Errorf("no command: pulse %v (%d writes), want disabled", pwm.Pulse, pwm.Writes)
	}
	for _, tc := range []struct {
		angle, want float64 // rad, rad after clamping
		pulse       time.Duration
	}{
		{0, 0, us(1500)},
		{-1.5708, -1.5708, us(600)},
		{1.5708, 1.5708, us(2400)},
		{0.7854, 0.7854, us(1950)},   // 600 + 0.75 x 1800
		{-0.3927, -0.3927, us(1275)}, // 600 + 0.375 x 1800
		{2, 1.5708, us(2400)},        // clamped
		{-9, -1.5708, us(600)},       // clamped
	} {
		cmd.Put(tc.angle, r.now)
		r.cycle()
		if pwm.Pulse != tc.pulse || st.Value != tc.want {
			t.Errorf("%v rad: pulse %v, state %v; want %v, %v", tc.angle, pwm.Pulse, st.Value, tc.pulse, tc.want)
		}
	}
	cmd.Put(nan, r.now)
	r.cycle()
	if pwm.Pulse != 0 || st.Value != -1.5708 {
		t.Errorf("NaN: pulse %v, state %v; want limp, the last angle", pwm.Pulse, st.Value)
	}
	cmd.Put(0, r.now)
	r.cycle()
	r.halt()
	if pwm.Pulse != 0 {
		t.Errorf("after Halt: pulse %v", pwm.Pulse)
	}
}

// Defaults: 0 to π rad onto 600-2400 µs; a reversed range maps backwards.
func TestServoRanges(t *testing.T) {
	r := bind(t, `joints:
  - {name: a, type: servo, id: 0}
  - {name: b, type: servo, id: 1, min_angle: 1.0, max_angle: -1.0, min_pulse_us: 1000, max_pulse_us: 2000}
`)
	command[float64](r, "a", interfaces.Position).Put(3.14159265358979/4, 0)
	command[float64](r, "b", interfaces.Position).Put(0.5, 0)
	r.cycle()
	if got := r.hal.PWM[0].Pulse; got != us(1050) {
		t.Errorf("default range, π/4: %v, want 1050 µs", got)
	}
	if got := r.hal.PWM[1].Pulse; got != us(1250) {
		t.Errorf("reversed range, 0.5 rad: %v, want 1250 µs", got)
	}
}
