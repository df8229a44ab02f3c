package jointstate_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/frcd/frcd/jointstate"
)

// TestCheckPush: the sim/push rules both bridges apply; every refusal
// says why and wraps ErrPush.
func TestCheckPush(t *testing.T) {
	movable := map[string]bool{"a": true, "b": true}
	nan := math.NaN()
	for _, c := range []struct {
		name     []string
		pos, vel []float64
		want     string // "" accepted
	}{
		{[]string{"a"}, []float64{1}, nil, ""},
		{[]string{"a", "b"}, []float64{1, 2}, []float64{0, 3}, ""},
		{nil, nil, nil, "names no joint"},
		{[]string{"a"}, nil, nil, "1 names but 0 positions"},
		{[]string{"a", "b"}, []float64{1, 2}, []float64{0}, "2 names but 1 velocities"},
		{[]string{"c"}, []float64{1}, nil, `no movable joint named "c"`},
		{[]string{"a", "a"}, []float64{1, 2}, nil, `joint "a" named twice`},
		{[]string{"b"}, []float64{nan}, nil, `joint "b": position NaN`},
		{[]string{"b"}, []float64{0}, []float64{math.Inf(1)}, `joint "b": velocity +Inf`},
	} {
		seen := map[string]bool{"a": true} // left from an earlier message: cleared
		err := jointstate.CheckPush(c.name, c.pos, c.vel, movable, seen)
		if c.want == "" {
			if err != nil {
				t.Errorf("%v %v %v: %v", c.name, c.pos, c.vel, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, jointstate.ErrPush) {
			t.Errorf("%v %v %v: %v, want %q", c.name, c.pos, c.vel, err, c.want)
		}
	}
}
