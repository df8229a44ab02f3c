package devices

import (
	"errors"
	"testing"
	"time"

	"github.com/frcd/frcd/interfaces"
)

func TestDigitalInput(t *testing.T) {
	r := bind(t, `joints:
  - {name: lower, type: digital_input, dio_channel: 6, inverted: true}
  - {name: beam, type: digital_input, dio_channel: 12}
`)
	lower := state[interfaces.BinaryState](r, "lower", interfaces.Binary)
	beam := state[interfaces.BinaryState](r, "beam", interfaces.Binary)
	for _, high := range []bool{false, true, false} {
		r.hal.DIO[6].High, r.hal.DIO[12].High = high, high
		r.cycle()
		if lower.Value != !high || beam.Value != high {
			t.Errorf("level %v: inverted reads %v, plain %v", high, lower.Value, beam.Value)
		}
	}
	boom := errors.New("gone")
	r.hal.DIO[12].Err = boom
	if err := r.step(time.Millisecond); !errors.Is(err, boom) {
		t.Errorf("Read: %v", err)
	}
}
