package devices

import (
	"testing"

	"github.com/frcd/frcd/interfaces"
)

func TestRelay(t *testing.T) {
	const F, R, O = interfaces.Forward, interfaces.Reverse, interfaces.Off
	for _, dir := range []string{"both", "forward", "reverse"} {
		r := bind(t, "joints:\n  - {name: hatch, type: relay, relay_id: 2, direction: "+dir+"}\n")
		cmd := command[interfaces.Tri](r, "hatch", interfaces.Ternary)
		st := state[interfaces.TernaryState](r, "hatch", interfaces.Ternary)
		out := &r.hal.Relay[2]
		for _, tc := range []struct {
			set   bool
			value interfaces.Tri
			want  map[string]interfaces.Tri
		}{
			{false, F, map[string]interfaces.Tri{"both": O, "forward": O, "reverse": O}},
			{true, F, map[string]interfaces.Tri{"both": F, "forward": F, "reverse": O}},
			{true, R, map[string]interfaces.Tri{"both": R, "forward": O, "reverse": R}},
			{true, O, map[string]interfaces.Tri{"both": O, "forward": O, "reverse": O}},
			{true, 5, map[string]interfaces.Tri{"both": O, "forward": O, "reverse": O}}, // invalid
		} {
			cmd.Reset()
			if tc.set {
				cmd.Put(tc.value, r.now)
			}
			r.cycle()
			want := tc.want[dir]
			if st.Value != want || out.Forward != (want == F) || out.Reverse != (want == R) {
				t.Errorf("%s relay, command %+v: state %v, contacts %v %v; want %v", dir, *cmd, st.Value, out.Forward, out.Reverse, want)
			}
		}
		cmd.Put(map[string]interfaces.Tri{"both": F, "forward": F, "reverse": R}[dir], r.now)
		r.cycle()
		r.halt()
		if st.Value != O || out.Forward || out.Reverse {
			t.Errorf("%s relay after Halt: state %v, contacts %v %v", dir, st.Value, out.Forward, out.Reverse)
		}
	}
}
