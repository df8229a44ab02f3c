package control

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/interfaces"
)

// Gains are a PID controller's gains (the YAML's pid: p, i, d, f).
type Gains struct{ P, I, D, F float64 }

// HasPID says whether the controller runs a PID (position, velocity,
// effort and profiled controllers), whose gains SetGains tunes.
func (c *Controller) HasPID() bool {
	switch c.kind {
	case kindPosition, kindVelocity, kindEffort, kindProfiled:
		return true
	}
	return false
}

// Gains returns the PID's gains: the YAML's, or the last SetGains.
// Safe from any goroutine.
func (c *Controller) Gains() Gains {
	c.in.mu.Lock()
	defer c.in.mu.Unlock()
	return c.in.gains
}

// SetGains tunes the PID from outside (a dashboard): the loop takes the
// new gains at its next cycle, keeping the integral term. Gains that are
// not finite or negative, and a controller without a PID, are refused
// and counted as a refused command. Safe from any goroutine.
func (c *Controller) SetGains(g Gains, now time.Duration) error {
	vs := [4]float64{g.P, g.I, g.D, g.F}
	ok := c.HasPID()
	for _, v := range vs {
		ok = ok && interfaces.Finite(v) && v >= 0
	}
	c.recordAs(now, !ok, true, vs[:])
	c.in.mu.Lock()
	defer c.in.mu.Unlock()
	if !ok {
		c.in.refused++
		return fmt.Errorf("controller %q: gains %+v: want a PID controller and finite gains >= 0: %w", c.Name, g, ErrRefused)
	}
	c.in.gains, c.in.fresh = g, true
	return nil
}

// takeGains applies gains set by SetGains; the loop calls it under c.in.mu.
func (c *Controller) takeGains() {
	g := c.in.gains
	c.pid.P, c.pid.I, c.pid.D, c.pid.F = g.P, g.I, g.D, g.F
	c.in.fresh = false
}
