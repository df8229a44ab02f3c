package control

import (
	"errors"
	"math"
	"testing"
)

// SetGains reaches the PID at the loop's next update, not before; gains
// that are not finite or negative, or a controller without a PID, are
// refused and counted.
func TestSetGains(t *testing.T) {
	c := &Controller{Name: "hood", kind: kindPosition, pid: PID{P: 20, I: 2}}
	c.in.gains = Gains{P: 20, I: 2}
	if err := c.SetGains(Gains{P: 12, I: 0.5, D: 0.25}, 0); err != nil {
		t.Fatal(err)
	}
	if c.pid.P != 20 {
		t.Fatalf("the PID changed outside the loop: %+v", c.pid)
	}
	c.update(0, 0.01)
	if c.pid.P != 12 || c.pid.I != 0.5 || c.pid.D != 0.25 || c.Gains().P != 12 {
		t.Errorf("after a cycle: PID %+v, Gains %+v", c.pid, c.Gains())
	}
	for _, g := range []Gains{{P: -1}, {I: math.NaN()}, {D: math.Inf(1)}} {
		if err := c.SetGains(g, 0); !errors.Is(err, ErrRefused) {
			t.Errorf("SetGains(%+v): %v, want refused", g, err)
		}
	}
	v := &Controller{Name: "v", kind: kindForward}
	if err := v.SetGains(Gains{P: 1}, 0); !errors.Is(err, ErrRefused) {
		t.Errorf("gains for a controller without a PID: %v", err)
	}
	if c.Refused() != 3 || v.Refused() != 1 || c.Gains().P != 12 {
		t.Errorf("refused %d and %d, gains %+v", c.Refused(), v.Refused(), c.Gains())
	}
}
