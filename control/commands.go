// Taking a command: Command and CommandGroup, which refuse what is outside
// a controller's range and clamp what passes its limit, and the counts of
// commands refused and clamped.

package control

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/interfaces"
)

// Command gives the controller a new command at time now (the loop's
// clock). Values that are not finite, values outside the controller's
// physically meaningful range (ranges.go: ±16 V, a joint's limits give or
// take 10 %, twice its velocity limit...), tri-states other than -1, 0 and
// 1, and a profiled controller's goals outside its joint's limits are
// refused with ErrRefused and counted; they never reach an output. A value
// taken is clamped to its limit (a position to the joint's limits and the
// device's range, a velocity or effort PID's set point to the URDF's
// limit) and counted (Clamped). A group takes CommandGroup instead. It is
// safe to call from any goroutine.
func (c *Controller) Command(v float64, now time.Duration) error {
	ok := interfaces.Finite(v) && !c.takesArray()
	if ok && c.kind == kindTernary {
		ok = v == -1 || v == 0 || v == 1
	}
	invalid := ok && !c.valid.holds(v)
	outside := ok && !invalid && c.prof != nil && c.prof.refuses(v)
	c.in.mu.Lock()
	defer c.in.mu.Unlock()
	c.record(now, !ok || invalid || outside || c.in.stopped, v)
	if c.in.stopped {
		c.in.refused++
		return fmt.Errorf("controller %q: %w", c.Name, ErrStopped)
	}
	if invalid {
		c.in.refused++
		return fmt.Errorf("controller %q: %v is outside %s: %w", c.Name, v, c.valid.what, ErrRefused)
	}
	if outside {
		c.in.refused++
		return fmt.Errorf("controller %q: goal %v is outside joint %q's limits %v..%v: %w", c.Name, v, c.Joints[0], c.prof.lower, c.prof.upper, ErrRefused)
	}
	if !ok {
		c.in.refused++
		if c.takesArray() {
			return fmt.Errorf("controller %q: takes %d values, not one: %w", c.Name, len(c.in.values), ErrRefused)
		}
		return fmt.Errorf("controller %q: %v: %w", c.Name, v, ErrRefused)
	}
	if !c.limit.holds(v) {
		v = c.limit.clamp(v)
		c.in.clamped++
	}
	c.in.value, c.in.stamp, c.in.set = v, now, true
	return nil
}

// CommandGroup gives a group controller one value per joint, in the order
// of Joints. A command of another length, or with a value that is not
// finite, is refused whole and counted. It is safe to call from any
// goroutine.
func (c *Controller) CommandGroup(vs []float64, now time.Duration) error {
	ok := c.takesArray() && len(vs) == len(c.in.values)
	for i := 0; ok && i < len(vs); i++ {
		ok = interfaces.Finite(vs[i])
	}
	bad := -1 // the first value outside the range
	for i := 0; ok && bad < 0 && i < len(vs); i++ {
		if !c.validAt(i).holds(vs[i]) {
			bad = i
		}
	}
	c.in.mu.Lock()
	defer c.in.mu.Unlock()
	c.record(now, !ok || bad >= 0 || c.in.stopped, vs...)
	if c.in.stopped {
		c.in.refused++
		return fmt.Errorf("controller %q: %w", c.Name, ErrStopped)
	}
	if bad >= 0 {
		c.in.refused++
		return fmt.Errorf("controller %q: %v is outside %s: %w", c.Name, vs[bad], c.validAt(bad).what, ErrRefused)
	}
	if !ok {
		c.in.refused++
		if !c.takesArray() {
			return fmt.Errorf("controller %q: takes one value, not a group: %w", c.Name, ErrRefused)
		}
		return fmt.Errorf("controller %q: %v: want %d finite values: %w", c.Name, vs, len(c.in.values), ErrRefused)
	}
	for i, v := range vs {
		if !c.limit.holds(v) {
			v = c.limit.clamp(v)
			c.in.clamped++
		}
		c.in.values[i] = v
	}
	c.in.stamp, c.in.set = now, true
	return nil
}

// validAt is the range field i of a group command takes.
func (c *Controller) validAt(i int) commandRange {
	if i < len(c.fieldValid) {
		return c.fieldValid[i]
	}
	return c.valid
}

// Refuse counts a command refused before it reached the controller (a
// message of the wrong type on its topic, say).
func (c *Controller) Refuse() {
	c.record(-1, true)
	c.in.mu.Lock()
	c.in.refused++
	c.in.mu.Unlock()
}

// Clamped counts the commands taken but clamped to their limit so far
// (ranges.go): a position past its joint's limits, say.
func (c *Controller) Clamped() uint64 {
	c.in.mu.Lock()
	defer c.in.mu.Unlock()
	return c.in.clamped
}

// Limit is what the controller's commands are clamped to, in words, or ""
// when they are not.
func (c *Controller) Limit() string { return c.limit.what }

// Refused counts the commands refused so far.
func (c *Controller) Refused() uint64 {
	c.in.mu.Lock()
	defer c.in.mu.Unlock()
	return c.in.refused
}
