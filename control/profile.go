package control

import "math"

// Profile is a trapezoidal motion profile: from a start position and
// velocity to a goal at rest, with |acceleration| at most the limit and
// |velocity| at most the limit (or, when the start is faster than that,
// never faster than the start). It has three phases of constant
// acceleration:
//
//  1. from the start velocity to the peak velocity, at ± the limit: this
//     brakes a start that is too fast or heading away from the goal;
//  2. a cruise at the peak velocity (none in a triangular profile, when
//     the move is too short to reach the velocity limit);
//  3. braking at the limit to rest, exactly at the goal.
//
// When braking at once would overshoot the goal, the profile runs through
// it, stops, and comes back: phase 1 then passes through zero. A Profile is
// a value: planning and sampling do not allocate.
type Profile struct {
	start, v0, goal float64
	dir             float64 // +1 or -1: the sign of the peak velocity (the way the profile ends)
	amax            float64
	a1              float64 // phase 1's acceleration, signed
	peak            float64 // phase 2's velocity, signed
	t1, t2, t3      float64 // the ends of the phases, seconds from the start
	p1              float64 // the position at t1
}

// Plan plans a profile from position x0 moving at v0 to goal at rest,
// within vmax (> 0) and amax (> 0). It reports false, and plans nothing,
// for inputs that are not finite or limits that are not positive, and when
// the plan does not fit in float64 (squares of speeds near 1e154).
func Plan(x0, v0, goal, vmax, amax float64) (Profile, bool) {
	if !finite(x0) || !finite(v0) || !finite(goal) || !finite(vmax) || !finite(amax) || vmax <= 0 || amax <= 0 {
		return Profile{}, false
	}
	// Brake now: where would it stop? The profile ends moving toward the
	// goal from there.
	stop := x0 + v0*math.Abs(v0)/(2*amax)
	if !finite(stop) {
		return Profile{}, false
	}
	dir := 1.0
	if goal < stop {
		dir = -1
	}
	// In the frame where the profile ends moving forward:
	u0, dist := dir*v0, dir*(goal-x0)
	peak := vmax
	if u0 <= vmax && dist < (2*vmax*vmax-u0*u0)/(2*amax) {
		// Too short to reach vmax: a triangle, accelerating from u0 and
		// braking from the peak over dist.
		peak = math.Sqrt(math.Max(0, amax*dist+u0*u0/2))
	}
	p := Profile{start: x0, v0: v0, goal: goal, dir: dir, amax: amax, peak: dir * peak}
	d1 := math.Abs(peak-u0) / amax // phase 1's duration
	p.a1 = dir * amax
	if peak < u0 {
		p.a1 = -p.a1
	}
	cruise := dist - (u0+peak)/2*d1 - peak*peak/(2*amax)
	d2 := 0.0
	if cruise > 0 && peak > 0 {
		d2 = cruise / peak
	}
	p.t1 = d1
	p.t2 = d1 + d2
	p.t3 = p.t2 + peak/amax
	p.p1 = x0 + v0*d1 + p.a1*d1*d1/2
	if !finite(p.t3) || !finite(p.p1) || !finite(p.peak*p.t3) {
		return Profile{}, false
	}
	return p, true
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Duration is the profile's length in seconds: at and after it, Sample
// gives the goal at rest.
func (p *Profile) Duration() float64 { return p.t3 }

// Sample is the profile's position and velocity t seconds after its
// start. Before the start it gives the start; at and after Duration, the
// goal exactly, at rest.
func (p *Profile) Sample(t float64) (pos, vel float64) {
	switch {
	case t <= 0:
		return p.start, p.v0
	case t < p.t1:
		return p.start + p.v0*t + p.a1*t*t/2, p.v0 + p.a1*t
	case t < p.t2:
		return p.p1 + p.peak*(t-p.t1), p.peak
	case t < p.t3:
		// Phase 3 counts back from the goal, so that it ends there exactly.
		r := p.t3 - t
		return p.goal - p.dir*p.amax*r*r/2, p.dir * p.amax * r
	}
	return p.goal, 0
}
