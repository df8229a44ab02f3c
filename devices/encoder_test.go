package devices

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func TestEncoder(t *testing.T) {
	for _, tc := range []struct {
		keys     string
		encoding hal.Encoding
		count    int64
		pos      float64
	}{
		// 360 pulses per turn, 4x: 1440 counts per turn.
		{"dist_per_pulse: 0.0174533", hal.X4, 1440, 360 * 0.0174533},
		{"dist_per_pulse: 0.0174533, inverted: true", hal.X4, 1440, -360 * 0.0174533},
		// 2x: two counts per pulse.
		{"dist_per_pulse: 0.00245437, encoding: 2", hal.X2, -512, -256 * 0.00245437},
		{"dist_per_pulse: 0.005, encoding: 1", hal.X1, 300, 1.5},
	} {
		t.Run(tc.keys, func(t *testing.T) {
			r := bind(t, fmt.Sprintf("joints:\n  - {name: enc, type: encoder, ch_a: 4, ch_b: 5, %s}\n", tc.keys))
			if r.hal.Encoder[4].Encoding != tc.encoding || r.hal.Encoder[4].ChannelB != 5 {
				t.Fatalf("opened %+v", r.hal.Encoder[4])
			}
			rate := state[interfaces.RateState](r, "enc", interfaces.Rate)
			pos := state[interfaces.AnalogState](r, "enc", interfaces.Analog)
			r.cycle()
			// Turning at a constant speed for 100 ms: count/100 ms.
			for i := int64(1); i <= 100; i++ {
				r.hal.Encoder[4].Edges = tc.count * i / 100
				r.cycle()
			}
			if !approx(rate.State, tc.pos, 1e-12) || pos.Value != rate.State {
				t.Errorf("position %v (analog %v), want %v", rate.State, pos.Value, tc.pos)
			}
			// The rate is the difference over the last 20 ms: counts 80 to 100
			// of the 100 steps.
			perCount := tc.pos / float64(tc.count)
			want := float64(tc.count*100/100-tc.count*80/100) * perCount / 0.020
			if !approx(rate.Rate, want, 1e-9*max(1, want)) || !approx(want, tc.pos/0.1, 0.1*max(1, want)) {
				t.Errorf("rate %v, want %v (about %v)", rate.Rate, want, tc.pos/0.1)
			}
		})
	}
}

func TestEncoderError(t *testing.T) {
	r := bind(t, "joints:\n  - {name: enc, type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 1}\n")
	r.hal.Encoder[0].Edges = 8
	r.cycle()
	r.hal.Encoder[0].Err = hal.ErrTimeout
	r.hal.Encoder[0].Edges = 80
	if err := r.step(time.Millisecond); !errors.Is(err, hal.ErrTimeout) || err.Error() != `encoder "enc": read: timed out` {
		t.Errorf("Read: %v", err)
	}
	if st := state[interfaces.RateState](r, "enc", interfaces.Rate); st.State != 2 {
		t.Errorf("state %v after a failed read, want the last (2)", st.State)
	}
}
