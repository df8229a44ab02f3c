package control

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

// ErrRefused is returned by Controller.Command for a value it will not
// pass on: not a finite number, or not -1, 0 or 1 for a tri-state.
var ErrRefused = errors.New("command refused")

type ctlKind int

const (
	kindForward  ctlKind = iota // a float64 command forwarded (voltage, servo angle, analog value)
	kindBinary                  // bool
	kindTernary                 // tri-state
	kindPosition                // PID on position
	kindVelocity                // PID on velocity
	kindEffort                  // PID on effort
)

// input is a controller's mailbox: the latest command, written by the ROS
// goroutine (or a script) and read by the loop.
type input struct {
	mu      sync.Mutex
	value   float64
	stamp   time.Duration
	set     bool
	refused uint64
}

// Controller takes commands for one device and drives its command handle.
type Controller struct {
	Name   string
	Type   string // the YAML type: voltage, position, velocity, effort, binary, ternary, analog
	Target string // the device (and, for a joint's devices, the joint) it commands

	in      input
	kind    ctlKind
	timeout time.Duration

	f64 *interfaces.JointCommand // forward, PID outputs (volts), servo angle, analog value
	b   *interfaces.BinaryCommand
	t   *interfaces.TernaryCommand

	pid        PID
	joint      *mergedJoint // PID feedback, or nil
	continuous bool
	lastMeas   float64
	hasLast    bool
	active     bool // a fresh command drove the output last cycle
}

// Command gives the controller a new command at time now (the loop's
// clock). Values that are not finite, and tri-states other than -1, 0 and
// 1, are refused with ErrRefused and counted; they never reach an output.
// It is safe to call from any goroutine.
func (c *Controller) Command(v float64, now time.Duration) error {
	ok := interfaces.Finite(v)
	if ok && c.kind == kindTernary {
		ok = v == -1 || v == 0 || v == 1
	}
	c.in.mu.Lock()
	defer c.in.mu.Unlock()
	if !ok {
		c.in.refused++
		return fmt.Errorf("controller %q: %v: %w", c.Name, v, ErrRefused)
	}
	c.in.value, c.in.stamp, c.in.set = v, now, true
	return nil
}

// Refused counts the commands refused so far.
func (c *Controller) Refused() uint64 {
	c.in.mu.Lock()
	defer c.in.mu.Unlock()
	return c.in.refused
}

// Timeout is how long a command holds.
func (c *Controller) Timeout() time.Duration { return c.timeout }

// drop forgets the held command (disable, e-stop).
func (c *Controller) drop() {
	c.in.mu.Lock()
	c.in.set = false
	c.in.mu.Unlock()
	c.neutral()
	c.active = false
}

func (c *Controller) neutral() {
	switch {
	case c.f64 != nil:
		c.f64.Reset()
	case c.b != nil:
		c.b.Reset()
	case c.t != nil:
		c.t.Reset()
	}
	c.pid.Reset()
	c.hasLast = false
}

// update runs one cycle: it reports whether the command went stale and
// whether a PID lacked feedback.
func (c *Controller) update(now time.Duration, dt float64) (stale, noFeedback bool) {
	c.in.mu.Lock()
	v, stamp, set := c.in.value, c.in.stamp, c.in.set
	c.in.mu.Unlock()
	if !set || now-stamp > c.timeout {
		stale = c.active
		c.active = false
		c.neutral()
		return stale, false
	}
	c.active = true
	switch c.kind {
	case kindForward:
		c.f64.Put(v, now)
	case kindBinary:
		c.b.Put(v != 0, now)
	case kindTernary:
		c.t.Put(interfaces.Tri(v), now)
	default:
		out, ok := c.pidStep(v, dt)
		if !ok {
			c.neutral()
			return false, true
		}
		c.f64.Put(out, now)
	}
	return false, false
}

func (c *Controller) pidStep(sp, dt float64) (float64, bool) {
	js := &c.joint.state
	var meas, err, rate float64
	var need interfaces.Fields
	switch c.kind {
	case kindPosition:
		need, meas = interfaces.HasPosition, js.Position
	case kindVelocity:
		need, meas = interfaces.HasVelocity, js.Velocity
	case kindEffort:
		need, meas = interfaces.HasEffort, js.Effort
	}
	if js.Has&need == 0 {
		return 0, false
	}
	err = sp - meas
	if c.continuous {
		err = wrapAngle(err)
	}
	switch {
	case c.kind == kindPosition && js.Has&interfaces.HasVelocity != 0:
		rate = js.Velocity // the sensor's own rate beats differencing
	case c.hasLast && dt > 0:
		rate = (meas - c.lastMeas) / dt
	}
	c.lastMeas, c.hasLast = meas, true
	return c.pid.Update(sp, err, rate, dt), true
}

// newController binds a YAML controller: it claims its device's command
// handle in the registry.
func newController(cd *config.Device, reg *interfaces.Registry, m *merger, defTimeout time.Duration) (*Controller, error) {
	target := cd.Ref("joint")
	if cd.Type == nil || target == nil || target.Type == nil {
		return nil, fmt.Errorf("controller %q: not checked (type or joint unknown)", cd.Name)
	}
	c := &Controller{Name: cd.Name, Type: cd.Type.Name, Target: target.Name, timeout: defTimeout}
	if cd.Has("timeout") {
		c.timeout = time.Duration(cd.Float("timeout") * float64(time.Second))
	}
	var err error
	claimF := func(iface string) { c.f64, err = interfaces.Claim[float64](reg, c.Name, target.Name, iface) }
	switch c.Type {
	case "voltage":
		c.kind = kindForward
		claimF(interfaces.Voltage)
	case "analog":
		c.kind = kindForward
		claimF(interfaces.Analog)
	case "binary":
		c.kind = kindBinary
		c.b, err = interfaces.Claim[bool](reg, c.Name, target.Name, interfaces.Binary)
	case "ternary":
		c.kind = kindTernary
		c.t, err = interfaces.Claim[interfaces.Tri](reg, c.Name, target.Name, interfaces.Ternary)
	case "position", "velocity", "effort":
		if target.Type.Name == "servo" {
			c.kind = kindForward
			claimF(interfaces.Position)
			break
		}
		c.kind = map[string]ctlKind{"position": kindPosition, "velocity": kindVelocity, "effort": kindEffort}[c.Type]
		k, ok := m.byName[target.Name]
		if !ok {
			return nil, fmt.Errorf("controller %q: %q is not a movable URDF joint", c.Name, target.Name)
		}
		c.joint = &m.joints[k]
		c.continuous = c.joint.continuous && c.kind == kindPosition
		max := cd.Float("max_voltage")
		iclamp := max
		if cd.Has("i_clamp") {
			iclamp = cd.Float("i_clamp")
		}
		c.pid = PID{P: cd.Float("p"), I: cd.Float("i"), D: cd.Float("d"), F: cd.Float("f"), IClamp: iclamp, Max: max}
		claimF(interfaces.Voltage)
	default:
		return nil, fmt.Errorf("controller %q: unknown type %q", c.Name, c.Type)
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}
