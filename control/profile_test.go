package control

import (
	"math"
	"testing"

	"github.com/frcd/frcd/internal/bounds"
)

// checkProfile samples p n times over its duration and checks what every
// profile must do: start at (x0, v0), stay finite, never exceed the
// velocity limit (or the start's speed, when that is higher), change
// velocity by at most amax per second between samples, move consistently
// with its velocity, and end at the goal exactly, at rest, to stay there.
// It returns the extremes of the sampled positions and velocities.
func checkProfile(t *testing.T, p *Profile, x0, v0, goal, vmax, amax float64, n int) (lo, hi, vlo, vhi float64) {
	t.Helper()
	if x, v := p.Sample(0); x != x0 || v != v0 {
		t.Errorf("Sample(0) = %v, %v, want the start %v, %v", x, v, x0, v0)
	}
	T := p.Duration()
	if !finite(T) || T < 0 {
		t.Fatalf("duration %v", T)
	}
	for _, at := range []float64{T, T + 1, 2*T + 1e9} {
		if x, v := p.Sample(at); x != goal || v != 0 {
			t.Errorf("Sample(%v) = %v, %v; want the goal %v at rest exactly", at, x, v, goal)
		}
	}
	vbound := math.Max(vmax, math.Abs(v0))
	posScale := math.Max(math.Max(math.Abs(x0), math.Abs(goal)), vbound*T)
	lo, hi, vlo, vhi = x0, x0, v0, v0
	px, pv, pt := x0, v0, 0.0
	fails := 0
	fail := func(format string, args ...any) {
		if fails++; fails <= 5 {
			t.Errorf(format, args...)
		}
	}
	for i := 1; i <= n; i++ {
		at := T * float64(i) / float64(n)
		x, v := p.Sample(at)
		h := at - pt
		if !finite(x) || !finite(v) {
			fail("t=%v: %v, %v", at, x, v)
			continue
		}
		if math.Abs(v) > vbound*(1+1e-9) {
			fail("t=%v: velocity %v beyond %v", at, v, vbound)
		}
		if dv := math.Abs(v - pv); dv > amax*h*(1+1e-9)+1e-9*vbound {
			fail("t=%v: velocity %v -> %v in %v s: acceleration %v beyond %v", at, pv, v, h, dv/h, amax)
		}
		if e := math.Abs((x - px) - h*(v+pv)/2); e > amax*h*h+1e-9*posScale {
			fail("t=%v: moved %v in %v s at velocities %v..%v", at, x-px, h, pv, v)
		}
		lo, hi, vlo, vhi = math.Min(lo, x), math.Max(hi, x), math.Min(vlo, v), math.Max(vhi, v)
		px, pv, pt = x, v, at
	}
	return lo, hi, vlo, vhi
}

func TestProfile(t *testing.T) {
	const eps = 1e-9
	cases := []struct {
		name                     string
		x0, v0, goal, vmax, amax float64
		duration                 float64
		lo, hi, vlo, vhi         float64 // the extremes
		t1, t2                   float64 // the phases' ends
	}{
		// 0.5 s to reach 1 m/s (0.25 m), 0.25 m to brake: 1.5 m of cruise.
		{"trapezoid", 0, 0, 2, 1, 2, 2.5, 0, 2, 0, 1, 0.5, 2},
		{"trapezoid backwards", 1, 0, -1, 1, 1, 3, -1, 1, -1, 0, 1, 2},
		// 0.25 m is too short for 1 m/s at 2 m/s²: peak sqrt(2 × 0.25 / 2 × 2).
		{"triangle", 0, 0, 0.25, 1, 2, math.Sqrt(0.5), 0, 0.25, 0, math.Sqrt(0.5), math.Sqrt(0.5) / 2, math.Sqrt(0.5) / 2},
		// From 0.5 m/s: 0.5 s to 1 m/s (0.375 m), 0.5 m braking, 1.125 m cruising.
		{"moving toward the goal", 0, 0.5, 2, 1, 1, 2.625, 0, 2, 0, 1, 0.5, 1.625},
		// Moving away at 1 m/s: brake to 0 at -0.5 m (1 s), back up to 1 m/s
		// at 0 m (1 s), cruise 0.5 m, brake 0.5 m.
		{"reversal", 0, -1, 1, 1, 1, 3.5, -0.5, 1, -1, 1, 2, 2.5},
		// At 1 m/s braking stops at 0.5 m, past a goal at 0.1 m: stop there,
		// come back with a triangle peaking at sqrt(0.4) m/s.
		{"overshoot", 0, 1, 0.1, 1, 1, 1 + 2*math.Sqrt(0.4), 0, 0.5, -math.Sqrt(0.4), 1, 1 + math.Sqrt(0.4), 1 + math.Sqrt(0.4)},
		// Faster than the limit: brake to it first (2 s, 4 m), cruise 5.5 m, brake 0.5 m.
		{"start above the limit", 0, 3, 10, 1, 1, 8.5, 0, 10, 0, 3, 2, 7.5},
		// Above the limit and the wrong way: 3 s to stop at -4.5 m, 1 s back
		// up to 1 m/s (at -4 m), 4.5 s cruising, 1 s braking.
		{"start above the limit, away", 0, -3, 1, 1, 1, 9.5, -4.5, 1, -3, 1, 4, 8.5},
		{"at the goal", 1, 0, 1, 1, 1, 0, 1, 1, 0, 0, 0, 0},
		// Exactly the braking distance away: brake all the way.
		{"brake only", 0, 1, 0.5, 2, 1, 1, 0, 0.5, 0, 1, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, ok := Plan(c.x0, c.v0, c.goal, c.vmax, c.amax)
			if !ok {
				t.Fatal("not planned")
			}
			if math.Abs(p.Duration()-c.duration) > eps {
				t.Errorf("duration %v, want %v", p.Duration(), c.duration)
			}
			if math.Abs(p.t1-c.t1) > eps || math.Abs(p.t2-c.t2) > eps {
				t.Errorf("phases end at %v, %v, want %v, %v", p.t1, p.t2, c.t1, c.t2)
			}
			lo, hi, vlo, vhi := checkProfile(t, &p, c.x0, c.v0, c.goal, c.vmax, c.amax, 100000)
			// Sampled every 1/100000 of the move: the extremes are within
			// a sample's travel and velocity change of the true ones.
			h := c.duration / 100000
			vb := math.Max(c.vmax, math.Abs(c.v0))
			if math.Abs(lo-c.lo) > vb*h+eps || math.Abs(hi-c.hi) > vb*h+eps {
				t.Errorf("positions %v..%v, want %v..%v", lo, hi, c.lo, c.hi)
			}
			if math.Abs(vlo-c.vlo) > c.amax*h+eps || math.Abs(vhi-c.vhi) > c.amax*h+eps {
				t.Errorf("velocities %v..%v, want %v..%v", vlo, vhi, c.vlo, c.vhi)
			}
		})
	}
}

// TestProfileRetarget: replanning mid-move from the profile's own sample
// keeps the velocity continuous and the acceleration within the limit.
func TestProfileRetarget(t *testing.T) {
	const vmax, amax, dt = 1.5, 3.0, 0.001
	p, _ := Plan(0, 0, 1, vmax, amax)
	var x, v, pv float64
	elapsed := 0.0
	for i := 1; i <= 3000; i++ {
		elapsed += dt
		if i == 400 { // mid-move, at full speed: reverse to -0.5
			x, v = p.Sample(elapsed - dt)
			p, _ = Plan(x, v, -0.5, vmax, amax)
			elapsed = dt
		}
		x, v = p.Sample(elapsed)
		if math.Abs(v-pv) > amax*dt*(1+1e-9) || math.Abs(v) > vmax+1e-12 {
			t.Fatalf("step %d: velocity %v -> %v", i, pv, v)
		}
		pv = v
	}
	if x != -0.5 || v != 0 {
		t.Errorf("ended at %v, %v, want -0.5 at rest", x, v)
	}
}

func TestPlanRefuses(t *testing.T) {
	for _, in := range [][5]float64{
		{math.NaN(), 0, 1, 1, 1}, {0, math.Inf(1), 1, 1, 1}, {0, 0, math.Inf(-1), 1, 1},
		{0, 0, 1, 0, 1}, {0, 0, 1, 1, 0}, {0, 0, 1, -1, 1}, {0, 0, 1, 1, math.NaN()},
		{0, 1e200, 1, 1e300, 1}, // braking from 1e200 m/s does not fit in a float64
	} {
		if _, ok := Plan(in[0], in[1], in[2], in[3], in[4]); ok {
			t.Errorf("Plan%v planned", in)
		}
	}
}

func TestProfileDoesNotAllocate(t *testing.T) {
	var sink float64
	if a := testing.AllocsPerRun(100, func() {
		p, _ := Plan(0.1, 0.2, 1, 1, 2)
		x, v := p.Sample(0.3)
		sink += x + v
	}); a != 0 {
		t.Errorf("Plan and Sample allocate %v times", a)
	}
	_ = sink
}

// FuzzPlan: any finite inputs either plan a profile that does what every
// profile must (checkProfile), or are refused; inputs of a physical size
// are always planned.
func FuzzPlan(f *testing.F) {
	f.Add(0.0, 0.0, 1.0, 1.0, 1.0)
	f.Add(0.0, -3.0, 1.0, 1.0, 1.0)
	f.Add(0.0, 1.0, 0.1, 1.0, 1.0)
	f.Add(-2.5, 4.0, 2.5, 4.0, 20.0)
	f.Add(1e6, -1e6, -1e6, 1e-3, 1e6)
	f.Fuzz(func(t *testing.T, x0, v0, goal, vmax, amax float64) {
		defer bounds.Slow(t)()
		if !finite(x0) || !finite(v0) || !finite(goal) || !finite(vmax) || !finite(amax) {
			if _, ok := Plan(x0, v0, goal, vmax, amax); ok {
				t.Fatalf("planned from inputs that are not finite")
			}
			return
		}
		p, ok := Plan(x0, v0, goal, vmax, amax)
		physical := math.Abs(x0) <= 1e6 && math.Abs(v0) <= 1e6 && math.Abs(goal) <= 1e6 &&
			vmax >= 1e-3 && vmax <= 1e6 && amax >= 1e-3 && amax <= 1e6
		if !ok {
			if physical {
				t.Fatalf("Plan(%v, %v, %v, %v, %v) refused", x0, v0, goal, vmax, amax)
			}
			return
		}
		checkProfile(t, &p, x0, v0, goal, vmax, amax, 2000)
	})
}
