package devices

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

// A duty_cycle_encoder reads as WPILib's DutyCycleEncoder: duty cycle ×
// full_range − expected_zero wrapped into 0..full_range; its rate follows
// the joint across the wrap; no signal (below min_frequency), a NaN or a
// failed read is an error that leaves the state.
func TestDutyCycleEncoder(t *testing.T) {
	r := bind(t, "joints:\n  - {name: arm, type: duty_cycle_encoder, dio_channel: 3, expected_zero: 1}\n")
	in := &r.hal.DutyCycleIn[3]
	if !r.hal.IsOpen("dio", 3) {
		t.Fatal("DIO 3 not claimed")
	}
	rate := state[interfaces.RateState](r, "arm", interfaces.Rate)
	pos := state[interfaces.AnalogState](r, "arm", interfaces.Analog)
	full := 2 * math.Pi
	in.Hz = 975.6
	for _, tc := range []struct{ duty, want float64 }{
		{0.5, math.Pi - 1}, {1 / full, 0}, {0, full - 1}, {1, full - 1}, {0.9, 0.9*full - 1}, {-0.5, full - 1}, {1.5, full - 1},
	} {
		in.Duty = tc.duty
		r.cycle()
		if !approx(rate.State, tc.want, 1e-12) || pos.Value != rate.State {
			t.Errorf("duty %v: %v (analog %v), want %v", tc.duty, rate.State, pos.Value, tc.want)
		}
	}
	// Turning at 2 rad/s through the wrap (from full_range - 0.1 to 0.1
	// rad, at duty 1/full_range): the rate stays 2.
	d := 0.9 / full
	worst := 0.0
	for i := range 100 {
		d += 2e-3 / full
		in.Duty = d - math.Floor(d)
		r.cycle()
		if i >= 30 { // past the estimator's first window
			worst = max(worst, math.Abs(rate.Rate-2))
		}
	}
	if worst > 1e-6 || !approx(rate.State, 0.1, 1e-9) {
		t.Errorf("across the wrap: the rate off 2 rad/s by up to %v, at %v at the end (want 0.1)", worst, rate.State)
	}
	before := *rate
	in.Hz = 0
	if err := r.step(time.Millisecond); !errors.Is(err, errUnplugged) {
		t.Errorf("no signal: %v", err)
	}
	in.Hz, in.Duty = 975.6, nan
	if err := r.step(time.Millisecond); !errors.Is(err, errNotFinite) {
		t.Errorf("NaN: %v", err)
	}
	in.Duty, in.Err = 0.5, hal.ErrClosed
	if err := r.step(time.Millisecond); !errors.Is(err, hal.ErrClosed) {
		t.Errorf("failing: %v", err)
	}
	if *rate != before {
		t.Errorf("state %+v after bad reads, want %+v", *rate, before)
	}
}

// A negative full_range counts the other way, wrapped into full_range..0;
// min_frequency moves the connected threshold.
func TestDutyCycleEncoderNegativeRange(t *testing.T) {
	r := bind(t, "joints:\n  - {name: lift, type: duty_cycle_encoder, dio_channel: 0, full_range: -0.2, min_frequency: 10}\n")
	in := &r.hal.DutyCycleIn[0]
	in.Hz, in.Duty = 20, 0.25
	r.cycle()
	if rate := state[interfaces.RateState](r, "lift", interfaces.Rate); !approx(rate.State, -0.05, 1e-12) {
		t.Errorf("duty 0.25 of -0.2 m: %v", rate.State)
	}
}

// An expected_zero beyond 0..full_range is most often in degrees: validate
// warns at its value, naming the radians it meant; one within the range,
// or of a sensor whose full_range is in metres, is quiet.
func TestDutyCycleEncoderZeroInDegrees(t *testing.T) {
	for _, tc := range []struct {
		yaml, want string
	}{
		{"joints:\n  - {name: arm, type: duty_cycle_encoder, dio_channel: 3, expected_zero: 180}\n",
			`robot.yaml:2:74: warning: duty_cycle_encoder "arm": expected_zero 180 is beyond the sensor's range 0..6.283 (full_range); it is in full_range's units (rad for 2π a turn), not degrees: 180° is expected_zero: 3.142`},
		{"joints:\n  - {name: arm, type: duty_cycle_encoder, dio_channel: 3, expected_zero: -7}\n",
			`robot.yaml:2:74: warning: duty_cycle_encoder "arm": expected_zero -7 is beyond the sensor's range 0..6.283 (full_range); it is in full_range's units (rad for 2π a turn), not degrees: -7° is expected_zero: -0.1222`},
		{"joints:\n  - {name: arm, type: duty_cycle_encoder, dio_channel: 3, expected_zero: 3.1}\n", ""},
		{"joints:\n  - {name: lift, type: duty_cycle_encoder, dio_channel: 3, full_range: 0.2, expected_zero: 0.15}\n", ""},
	} {
		_, list := config.Parse("robot.yaml", []byte(tc.yaml))
		got := ""
		for _, f := range list {
			got += f.String()
		}
		if got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.yaml, got, tc.want)
		}
	}
}
