package control

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

// Gains are a PID controller's gains (the YAML's pid: p, i, d, f).
type Gains struct{ P, I, D, F float64 }

// The terms of a PID that can be tuned at run time, as control_toolbox's
// Pid names its parameters (p, i, d, i_clamp; f is frcd's feedforward).
// Each is checked against its YAML key's range (config.PIDKeys:
// pid.p...), so a transport takes what a YAML file could have written.
const (
	GainP      = "p"
	GainI      = "i"
	GainD      = "d"
	GainIClamp = "i_clamp"
	GainF      = "f"
)

// gainTerms are the terms in the order they are stored per PID.
var gainTerms = [...]string{GainP, GainI, GainD, GainIClamp, GainF}

const nTerms = len(gainTerms)

// GainID names one gain a controller lets be tuned: Term (GainP...) of
// the PID of Joint, "" for a controller with a single PID (a joint's
// position, velocity, effort or profiled controller); a joint trajectory
// controller has one PID per joint its roboRIO drives. Transports map it
// to their names: ROS 1's <controller>/pid/p or <controller>/gains/<joint>/p.
type GainID struct{ Joint, Term string }

func (g GainID) String() string {
	if g.Joint == "" {
		return g.Term
	}
	return g.Joint + "/" + g.Term
}

// tunable is a runner whose PIDs can be tuned (a joint trajectory
// controller's): the joints they drive and the PIDs, in one order.
type tunable interface {
	pids() (joints []string, pids []*PID)
}

// tuning is a controller's tunable PIDs, set up by bindGains.
type tuning struct {
	joints []string // per PID: its joint, "" for a controller's single PID
	pids   []*PID   // the PIDs the loop runs, written only by the loop (takeGains)
	ids    []GainID // every gain, in order: PID by PID, term by term
	ranges []config.Key
}

// bindGains records the PIDs a controller lets be tuned and their gains
// as built, in c.in.tune.
func (c *Controller) bindGains(joints []string, pids []*PID) {
	t := &c.tune
	t.joints, t.pids = joints, pids
	for _, term := range gainTerms {
		k := c.typ.Config.Key("pid." + term)
		if k == nil {
			continue // an effort controller has no pid.f
		}
		t.ranges = append(t.ranges, *k)
	}
	c.in.tune = make([]float64, len(pids)*nTerms)
	for i, p := range pids {
		copy(c.in.tune[i*nTerms:], []float64{p.P, p.I, p.D, p.IClamp, p.F})
		for _, k := range t.ranges {
			t.ids = append(t.ids, GainID{Joint: joints[i], Term: k.Name[len("pid."):]})
		}
	}
}

// GainIDs lists the gains SetGain takes: none for a controller without a
// PID on the roboRIO (a device closing its own loop keeps the gains of
// its entry). The slice is shared: do not change it.
func (c *Controller) GainIDs() []GainID { return c.tune.ids }

// locate returns where id's value is in c.in.tune and its key (with its
// range), or -1.
func (c *Controller) locate(id GainID) (int, *config.Key) {
	p := slices.Index(c.tune.joints, id.Joint)
	if p < 0 {
		return -1, nil
	}
	for i, term := range gainTerms {
		if term != id.Term {
			continue
		}
		for k := range c.tune.ranges {
			if c.tune.ranges[k].Name[len("pid."):] == term {
				return p*nTerms + i, &c.tune.ranges[k]
			}
		}
	}
	return -1, nil
}

// Gain returns a gain's value: the YAML's, or the last SetGain's; false
// when the controller has no such gain. Safe from any goroutine.
func (c *Controller) Gain(id GainID) (float64, bool) {
	i, _ := c.locate(id)
	if i < 0 {
		return 0, false
	}
	c.in.mu.Lock()
	defer c.in.mu.Unlock()
	return c.in.tune[i], true
}

// GainRange returns the range SetGain takes for a gain (its YAML key's),
// false when the controller has no such gain.
func (c *Controller) GainRange(id GainID) (lo, hi float64, ok bool) {
	i, k := c.locate(id)
	if i < 0 {
		return 0, 0, false
	}
	return k.Min, k.Max, true
}

// SetGain tunes one gain from outside (ROS parameters, a dashboard): the
// loop takes it at its next cycle, between two PID updates, keeping the
// integral term. A value that is not finite or outside its YAML key's
// range (p, i, d and i_clamp >= 0...), and a gain the controller does not
// have, are refused with ErrRefused, counted as a refused command, and
// the old value kept. Safe from any goroutine; it does not allocate.
func (c *Controller) SetGain(id GainID, v float64, now time.Duration) error {
	i, k := c.locate(id)
	ok := i >= 0 && interfaces.Finite(v) && v >= k.Min && v <= k.Max
	vs := [1]float64{v}
	c.recordAs(now, !ok, true, vs[:])
	c.in.mu.Lock()
	defer c.in.mu.Unlock()
	switch {
	case i < 0:
		c.in.refused++
		return fmt.Errorf("controller %q has no gain %q (it has %v): %w", c.Name, id, c.tune.ids, ErrRefused)
	case !ok:
		c.in.refused++
		return fmt.Errorf("controller %q: gain %s %v: want a number in %g..%g: %w", c.Name, id, v, k.Min, k.Max, ErrRefused)
	}
	c.in.tune[i], c.in.fresh = v, true
	c.gainNews.signal()
	return nil
}

// HasPID says whether the controller runs a PID (position, velocity,
// effort and profiled controllers), whose gains SetGains tunes.
func (c *Controller) HasPID() bool {
	switch c.kind {
	case kindPosition, kindVelocity, kindEffort, kindProfiled:
		return true
	}
	return false
}

// Gains returns the PID's gains: the YAML's, or the last SetGains or
// SetGain. Safe from any goroutine.
func (c *Controller) Gains() Gains {
	c.in.mu.Lock()
	defer c.in.mu.Unlock()
	if len(c.in.tune) < nTerms {
		return Gains{}
	}
	g := c.in.tune
	return Gains{P: g[0], I: g[1], D: g[2], F: g[4]}
}

// SetGains tunes the PID from outside (a dashboard): the loop takes the
// new gains at its next cycle, keeping the integral term. Gains that are
// not finite or outside their YAML key's range (SetGain's: p, i, d >= 0,
// f may be negative; >= 0 without a key), and a controller without a
// PID, are refused
// and counted as a refused command. Safe from any goroutine.
func (c *Controller) SetGains(g Gains, now time.Duration) error {
	vs := [4]float64{g.P, g.I, g.D, g.F}
	ok := c.HasPID() && len(c.in.tune) >= nTerms
	for i, v := range vs {
		ok = ok && interfaces.Finite(v) && c.inRange(setGainsTerms[i], v)
	}
	c.recordAs(now, !ok, true, vs[:])
	c.in.mu.Lock()
	defer c.in.mu.Unlock()
	if !ok {
		c.in.refused++
		return fmt.Errorf("controller %q: gains %+v: want a PID controller and finite gains within their YAML ranges (pid.p, i, d >= 0; pid.f): %w", c.Name, g, ErrRefused)
	}
	t := c.in.tune
	t[0], t[1], t[2], t[4] = g.P, g.I, g.D, g.F
	c.in.fresh = true
	c.gainNews.signal()
	return nil
}

// SetGainTerm sets one of the PID's four gains, term GainP, GainI, GainD
// or GainF, keeping the other three as they are at that instant: a
// dashboard's change to one gain cannot undo another client's change to
// another made meanwhile, as Gains then SetGains could. Under SetGains'
// rules; the journal records the four gains that result (or would have).
// Safe from any goroutine.
func (c *Controller) SetGainTerm(term string, v float64, now time.Duration) error {
	idx := -1
	for i, t := range setGainsTerms {
		if t == term {
			idx = i
		}
	}
	c.in.mu.Lock()
	defer c.in.mu.Unlock()
	t := c.in.tune
	ok := idx >= 0 && c.HasPID() && len(t) >= nTerms && interfaces.Finite(v) && c.inRange(term, v)
	var vs [4]float64
	if len(t) >= nTerms {
		vs = [4]float64{t[0], t[1], t[2], t[4]}
	}
	if idx >= 0 {
		vs[idx] = v
	}
	c.recordAs(now, !ok, true, vs[:])
	if !ok {
		c.in.refused++
		return fmt.Errorf("controller %q: gain %s %v: want a PID controller and a finite gain within its YAML range (pid.p, i, d >= 0; pid.f): %w", c.Name, term, v, ErrRefused)
	}
	t[0], t[1], t[2], t[4] = vs[0], vs[1], vs[2], vs[3]
	c.in.fresh = true
	c.gainNews.signal()
	return nil
}

// setGainsTerms are SetGains' four gains' terms, in Gains' order.
var setGainsTerms = [4]string{GainP, GainI, GainD, GainF}

// inRange says whether v is within the YAML range of the controller's
// gain term (pid.p, i, d from 0, pid.f from -1e6, as SetGain takes
// them); >= 0 for a term it has no key for (an effort controller's f).
func (c *Controller) inRange(term string, v float64) bool {
	for k := range c.tune.ranges {
		if r := &c.tune.ranges[k]; r.Name[len("pid."):] == term && r.HasRange {
			return v >= r.Min && v <= r.Max
		}
	}
	return v >= 0
}

// takeGains applies gains set by SetGain or SetGains to the PIDs; the
// loop calls it under c.in.mu, between two cycles.
func (c *Controller) takeGains() {
	for i, p := range c.tune.pids {
		g := c.in.tune[i*nTerms : (i+1)*nTerms]
		p.P, p.I, p.D, p.IClamp, p.F = g[0], g[1], g[2], g[3], g[4]
	}
	c.in.fresh = false
}

// gainNews is the channels WatchGains registered.
type gainNews struct {
	mu  sync.Mutex
	chs []chan<- struct{}
}

// WatchGains has ch signalled after every change of the controller's
// gains (SetGain, SetGains, SetGainTerm, from any transport), without
// blocking: give it a buffer of one, and read the gains (Gain, Gains)
// when it fires; several changes may make one signal. A transport that
// shows the gains (ROS 1's parameter server) follows them so, without
// polling. stop ends the signals. Safe from any goroutine.
func (c *Controller) WatchGains(ch chan<- struct{}) (stop func()) {
	n := &c.gainNews
	n.mu.Lock()
	n.chs = append(n.chs, ch)
	n.mu.Unlock()
	return func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		if i := slices.Index(n.chs, ch); i >= 0 {
			n.chs = slices.Delete(n.chs, i, i+1)
		}
	}
}

// signal signals every watcher, never blocking and without allocating.
func (n *gainNews) signal() {
	n.mu.Lock()
	for _, ch := range n.chs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	n.mu.Unlock()
}
