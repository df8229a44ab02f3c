package jointstate_test

import (
	"slices"
	"testing"

	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/jointstate"
)

// TestInterfaces: each present field, in position, velocity, effort
// order, with its value; none for a joint nothing measures; no
// allocation once the values have room.
func TestInterfaces(t *testing.T) {
	var st interfaces.JointState
	vals := make([]float64, 0, 3)
	if n, v := jointstate.Interfaces(&st, vals); len(n) != 0 || len(v) != 0 {
		t.Errorf("nothing measured: %v %v", n, v)
	}
	st.SetEffort(3)
	st.SetPosition(1)
	if n, v := jointstate.Interfaces(&st, vals); !slices.Equal(n, []string{"position", "effort"}) || !slices.Equal(v, []float64{1, 3}) {
		t.Errorf("position and effort: %v %v", n, v)
	}
	st.SetVelocity(2)
	if n, v := jointstate.Interfaces(&st, vals); !slices.Equal(n, []string{"position", "velocity", "effort"}) || !slices.Equal(v, []float64{1, 2, 3}) {
		t.Errorf("all three: %v %v", n, v)
	}
	if a := testing.AllocsPerRun(10, func() { jointstate.Interfaces(&st, vals) }); a != 0 {
		t.Errorf("%v allocations", a)
	}
}
