package control

import (
	"testing"
	"time"

	"github.com/frcd/frcd/interfaces"
)

// TestProfiledSetpointHeld: a profiled controller's setpoint never leaves
// its joint's limits. TestCommandLimits found a setpoint of 1.68 on a
// joint limited to ±1.5, from the two ways a trapezoidal profile leaves
// them: planned from a measured position already past a limit (the
// profile starts where the joint is), and planned from a fast start
// toward a limit near it (the profile runs through its goal, stops and
// comes back). The setpoint stops at the limit, at rest, and the plan
// still brings it back to the goal.
func TestProfiledSetpointHeld(t *testing.T) {
	for _, tc := range []struct {
		name     string
		pos, vel float64
		goal     float64
	}{
		{"measured past the upper limit", 1.68, 0, 1},
		{"measured past the lower limit", -1.7, 0, -1},
		{"fast toward the upper limit", 1.45, 2, 1.3},
		{"fast toward the lower limit", -1.4, -3, -1.2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &profiled{vmax: 3, amax: 6, limited: true, lower: -1.5, upper: 1.5}
			js := &interfaces.JointState{Position: tc.pos, Velocity: tc.vel, Has: interfaces.HasVelocity}
			held := 0
			var sp, vel float64
			for i := range 300 {
				var ok bool
				sp, vel, ok = p.setpoint(tc.goal, time.Millisecond, js, false, 0.01)
				if !ok {
					t.Fatalf("cycle %d: no profile planned", i)
				}
				if sp < p.lower || sp > p.upper {
					t.Fatalf("cycle %d: setpoint %v past the limits [%v %v]", i, sp, p.lower, p.upper)
				}
				if sp == p.lower || sp == p.upper {
					if vel != 0 {
						t.Fatalf("cycle %d: setpoint held at %v moving at %v", i, sp, vel)
					}
					held++
				}
			}
			if held == 0 {
				t.Errorf("the setpoint was never held at a limit: the case does not test the hold")
			}
			if sp != tc.goal || vel != 0 {
				t.Errorf("after 3 s: setpoint %v moving at %v, want the goal %v at rest", sp, vel, tc.goal)
			}
		})
	}
}
