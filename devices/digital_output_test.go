package devices

import (
	"fmt"
	"testing"

	"github.com/frcd/frcd/interfaces"
)

func TestDigitalOutput(t *testing.T) {
	for _, inverted := range []bool{false, true} {
		r := bind(t, fmt.Sprintf("joints:\n  - {name: led, type: digital_output, dio_channel: 13, inverted: %v}\n", inverted))
		cmd := command[bool](r, "led", interfaces.Binary)
		st := state[interfaces.BinaryState](r, "led", interfaces.Binary)
		dio := &r.hal.DIO[13]
		for _, tc := range []struct {
			set, value, want bool
		}{{false, false, false}, {true, true, true}, {true, false, false}, {true, true, true}} {
			cmd.Reset()
			if tc.set {
				cmd.Put(tc.value, r.now)
			}
			r.cycle()
			if st.Value != tc.want || dio.High != (tc.want != inverted) {
				t.Errorf("inverted %v, command %+v: state %v, level %v", inverted, *cmd, st.Value, dio.High)
			}
		}
		r.halt()
		if st.Value || dio.High != inverted {
			t.Errorf("inverted %v: after Halt state %v, level %v", inverted, st.Value, dio.High)
		}
	}
}
