package devices

import (
	"errors"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func TestAnalogInput(t *testing.T) {
	// The competition robot's shoulder pot: 0-5 V is -1.2 to 3.512 rad.
	r := bind(t, "joints:\n  - {name: pot, type: analog_input, ain_channel: 0, scale: 4.712, offset: -1.2}\n")
	a := &r.hal.AnalogIn[0]
	if a.AverageBits != 7 || a.OversampleBits != 0 {
		t.Errorf("opened with bits %d, %d; want the defaults 7, 0", a.AverageBits, a.OversampleBits)
	}
	rate := state[interfaces.RateState](r, "pot", interfaces.Rate)
	pos := state[interfaces.AnalogState](r, "pot", interfaces.Analog)
	for _, tc := range []struct{ volts, want float64 }{
		{0, -1.2}, {5, 3.512}, {2.5, 1.156}, {1.25, -0.022},
	} {
		a.Volts = tc.volts
		r.cycle()
		if !approx(rate.State, tc.want, 1e-12) || pos.Value != rate.State {
			t.Errorf("%v V: %v (analog %v), want %v", tc.volts, rate.State, pos.Value, tc.want)
		}
	}
	// 1 V/s for 50 ms: 0.9424 rad/s.
	for i := 1; i <= 50; i++ {
		a.Volts = 1.25 + float64(i)*0.001
		r.cycle()
	}
	if !approx(rate.Rate, 4.712/5, 1e-9) {
		t.Errorf("rate %v, want 0.9424", rate.Rate)
	}
	// A NaN reading (a dropout) or a failure leaves the state.
	before := *rate
	a.Volts = nan
	if err := r.step(time.Millisecond); !errors.Is(err, errNotFinite) {
		t.Errorf("NaN: %v", err)
	}
	a.Volts, a.Err = 4, hal.ErrClosed
	if err := r.step(time.Millisecond); !errors.Is(err, hal.ErrClosed) {
		t.Errorf("failing: %v", err)
	}
	if *rate != before {
		t.Errorf("state %+v after bad reads, want %+v", *rate, before)
	}
}

func TestAnalogInputBits(t *testing.T) {
	r := bind(t, "joints:\n  - {name: sonar, type: analog_input, ain_channel: 2, scale: 5.12, offset: 0.0, average_bits: 4, oversample_bits: 2}\n")
	if a := r.hal.AnalogIn[2]; a.AverageBits != 4 || a.OversampleBits != 2 {
		t.Errorf("opened with bits %d, %d", a.AverageBits, a.OversampleBits)
	}
	// The accumulator has no HAL capability: refused, not ignored.
	f := "joints:\n  - {name: gyro, type: analog_input, ain_channel: 0, scale: 1, offset: 0, accumulator: true}\n"
	if _, err := tryBind(f); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("accumulator: %v", err)
	}
}
