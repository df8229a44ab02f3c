package control

import (
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

// noTimeout is a profiled controller's timeout when none is set: a goal
// holds until replaced.
const noTimeout = time.Duration(math.MaxInt64)

// profiled is a profiled position controller's own state: its limits,
// the profile its setpoint follows, and whether it reached its goal.
type profiled struct {
	vmax, amax   float64
	tol          float64
	hasTol       bool
	limited      bool // goals outside lower..upper are refused
	lower, upper float64

	plan    Profile
	moving  bool          // a profile is planned: the setpoint follows it (idle after neutral)
	elapsed float64       // seconds along plan
	goal    float64       // the goal as commanded
	stamp   time.Duration // its command's stamp
	sp, vel float64       // the setpoint now

	reached atomic.Bool // for other goroutines: see Controller.Goal
}

// newProfiled reads a profiled controller's limits from its YAML entry
// and its joint's URDF limits.
func newProfiled(cd *config.Device, j *mergedJoint) (*profiled, error) {
	p := &profiled{vmax: j.maxVelocity, amax: cd.Float("max_acceleration"), limited: j.limited, lower: j.lower, upper: j.upper}
	if cd.Has("max_velocity") {
		p.vmax = cd.Float("max_velocity")
	}
	if p.hasTol = cd.Has("tolerance"); p.hasTol {
		p.tol = cd.Float("tolerance")
	}
	if p.vmax <= 0 || p.amax <= 0 {
		return nil, fmt.Errorf("controller %q: velocity limit %v and acceleration limit %v must be positive (max_velocity, or the URDF limit of %q; max_acceleration)", cd.Name, p.vmax, p.amax, j.name)
	}
	return p, nil
}

// refuses reports whether a goal is outside the joint's limits.
func (p *profiled) refuses(goal float64) bool {
	return p.limited && (goal < p.lower || goal > p.upper)
}

// stop makes the controller idle: the next goal plans from the measured
// state.
func (p *profiled) stop() {
	p.moving = false
	p.reached.Store(false)
}

// setpoint advances the profile by dt, to the loop's now, and returns the
// setpoint's position and velocity there. When the goal (commanded at
// stamp) is new, it plans a new profile from there: from the setpoint
// while moving, else from the measured state js (position, and velocity
// when measured). It reports false when no profile can be planned (the
// measured state is not finite).
func (p *profiled) setpoint(goal float64, stamp time.Duration, js *interfaces.JointState, continuous bool, dt float64) (sp, vel float64, ok bool) {
	if p.moving {
		if p.elapsed < p.plan.Duration() {
			p.elapsed += dt
		}
		p.sp, p.vel = p.plan.Sample(p.elapsed)
	}
	if !p.moving || (stamp != p.stamp && goal != p.goal) {
		x0, v0 := p.sp, p.vel
		if !p.moving {
			x0, v0 = js.Position, 0
			if js.Has&interfaces.HasVelocity != 0 && interfaces.Finite(js.Velocity) {
				v0 = js.Velocity
			}
		}
		target := goal
		if continuous {
			target = x0 + wrapAngle(goal-x0) // the shortest way round
		}
		plan, ok := Plan(x0, v0, target, p.vmax, p.amax)
		if !ok {
			return 0, 0, false
		}
		p.plan, p.moving, p.elapsed, p.goal = plan, true, 0, goal
		p.sp, p.vel = x0, v0
	}
	p.stamp = stamp
	p.hold()
	return p.sp, p.vel, true
}

// hold keeps the setpoint within the joint's limits: a profile planned
// from a measured state past a limit starts there, and one planned from a
// fast start toward a limit runs through its goal before it comes back
// (Profile); the setpoint stops at the limit, at rest, instead.
func (p *profiled) hold() {
	if !p.limited {
		return
	}
	if p.sp < p.lower {
		p.sp, p.vel = p.lower, 0
	} else if p.sp > p.upper {
		p.sp, p.vel = p.upper, 0
	}
}

// done records whether the goal is reached: the profile has ended and, with
// a tolerance, the position error is within it.
func (p *profiled) done(err float64) {
	p.reached.Store(p.elapsed >= p.plan.Duration() && (!p.hasTol || math.Abs(err) <= p.tol))
}

// Goal reports a profiled position controller's goal: the last goal it
// took (held is false before the first and after a disable or e-stop drops
// it), and whether the joint has reached it (false while the output is
// neutral, after a timeout too). ok is false for other controllers. It is
// safe to call from any goroutine.
func (c *Controller) Goal() (goal float64, held, reached, ok bool) {
	if c.prof == nil {
		return 0, false, false, false
	}
	c.in.mu.Lock()
	goal, held = c.in.value, c.in.set
	c.in.mu.Unlock()
	return goal, held, held && c.prof.reached.Load(), true
}

// Setpoint is a profiled position controller's setpoint after the last
// cycle, its position and velocity along the profile, and whether it
// follows one (false when idle: no goal yet, or the output went neutral).
// For the loop's goroutine.
func (c *Controller) Setpoint() (pos, vel float64, moving bool) {
	if c.prof == nil || !c.prof.moving {
		return 0, 0, false
	}
	return c.prof.sp, c.prof.vel, true
}
