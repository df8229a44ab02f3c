package control

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

// ErrRefused is returned by Controller.Command for a value it will not
// pass on: not a finite number, not -1, 0 or 1 for a tri-state, or a
// group command of the wrong length.
var ErrRefused = errors.New("command refused")

type ctlKind int

const (
	kindForward  ctlKind = iota // a float64 command forwarded (voltage, servo angle, analog value)
	kindBinary                  // bool
	kindTernary                 // tri-state
	kindPosition                // PID on position
	kindVelocity                // PID on velocity
	kindEffort                  // PID on effort
	kindGroup                   // one float64 per joint, forwarded
	kindProfiled                // PID on position along a motion profile to a goal
	kindRunner                  // the type's own cycle (Type.New): a drive base
	familyNone                  // takes no command (the joint state controller)
)

// Command is what a controller's command topic carries.
type Command int

const (
	Float64      Command = iota // std_msgs/Float64
	Bool                        // std_msgs/Bool
	Int8                        // std_msgs/Int8: -1, 0, 1
	Float64Array                // std_msgs/Float64MultiArray, one value per joint
	// Twist is a drive base's geometry_msgs/Twist: linear.x and .y
	// forward and left in m/s, angular.z counter-clockwise in rad/s, in
	// the base's frame: CommandGroup's three values.
	Twist
	// JointTrajectory is trajectory_msgs/JointTrajectory (and the
	// FollowJointTrajectory action): FollowTrajectory.
	JointTrajectory
)

// input is a controller's mailbox: the latest command, written by the ROS
// goroutine (or a script) and read by the loop.
type input struct {
	mu      sync.Mutex
	value   float64
	values  []float64 // a group's, one per joint; sized at start
	stamp   time.Duration
	set     bool
	refused uint64
	clamped uint64    // commands taken but clamped to their limit (ranges.go)
	tune    []float64 // the tunable PIDs' gains (SetGain, gains.go); fresh until the loop takes them
	fresh   bool
	stopped bool // SetStopped: no command taken, the output neutral
}

// Controller takes commands for one device, or a group of joints, and
// drives their command handles.
type Controller struct {
	Name   string
	Type   string   // the YAML type, e.g. effort_controllers/JointPositionController
	Joints []string // the devices (and, for a joint's devices, the joints) it commands, in order: one but for a group

	in input
	// halted mirrors in.stopped for Stopped: the bridges ask it at each
	// wake-up, and need not take in.mu, which the loop takes each cycle.
	halted  atomic.Bool
	typ     *Type
	kind    ctlKind
	timeout time.Duration

	valid commandRange // the values Command takes (rangeOf)
	// afterRead, when set (tests only), runs in update between the read
	// of the command and its use: where a command from another goroutine
	// may land.
	afterRead func()
	// fieldValid is, when set, what each field of CommandGroup takes
	// instead (a runner's fieldRanged: a twist's m/s and rad/s).
	fieldValid []commandRange
	limit      commandRange // what a taken value is clamped to (limitOf)

	f64   *interfaces.JointCommand   // forward, PID outputs (volts), servo angle, analog value
	b     *interfaces.BinaryCommand  //
	t     *interfaces.TernaryCommand //
	group []*interfaces.JointCommand // a group's, one per joint
	vals  []float64                  // the loop's copy of a group's (or a runner's) command
	run   runner                     // a kindRunner's cycle
	stop  stopper                    // run, when it stops actively on a stale command (a drive base); else nil
	zero  []float64                  // a zero command for stop

	pid        PID
	tune       tuning       // the PIDs SetGain tunes (gains.go)
	gainNews   gainNews     // WatchGains' channels
	device     bool         // a position or velocity setpoint goes to the device's own closed loop (config.Device.ClosesLoop), not a PID
	joint      *mergedJoint // PID feedback, or nil
	prof       *profiled    // a profiled position controller's, or nil
	continuous bool
	lastMeas   float64
	hasLast    bool
	active     bool // a fresh command drove the output last cycle
	stopping   bool // stop drives the outputs to rest at a zero command: the command went stale

	st      ControllerSample // a PID's state after the last cycle (state.go)
	journal *journal         // records every command received, or nil (Loop.EnableJournal)
	index   int              // this controller's index in the loop's list
}

// Takes says what the controller's command topic carries.
func (c *Controller) Takes() Command { return c.typ.Takes }

// Topic is the controller's command topic under its name: "command", or
// its type's (a drive base's "cmd_vel").
func (c *Controller) Topic() string {
	if c.typ.Topic == "" {
		return "command"
	}
	return c.typ.Topic
}

// ForwardTopic is the topic under a controller's name on which ROS 2's
// forward command controllers take one value per joint
// (std_msgs/msg/Float64MultiArray on "~/commands",
// ros-controls/ros2_controllers forward_command_controller).
const ForwardTopic = "commands"

// ForwardTopic is the controller's forward command topic under its name
// (ForwardTopic), or "" when its type takes none (Type.Forward).
func (c *Controller) ForwardTopic() string {
	if !c.typ.Forward {
		return ""
	}
	return ForwardTopic
}

// CommandJoints gives the controller one value per joint, in the order of
// Joints, as a forward command controller takes them: a group's
// CommandGroup, a one-joint controller's Command of the only value. A
// command of another length is refused whole and counted, as are the
// values Command and CommandGroup refuse. It is safe to call from any
// goroutine.
func (c *Controller) CommandJoints(vs []float64, now time.Duration) error {
	if c.takesArray() {
		return c.CommandGroup(vs, now)
	}
	if len(vs) != 1 {
		c.Refuse()
		return fmt.Errorf("controller %q: %d values for its one joint: %w", c.Name, len(vs), ErrRefused)
	}
	return c.Command(vs[0], now)
}

// ReferenceTopic is the topic under a PID controller's name on which ROS
// 2's pid_controller takes its reference (control_msgs/msg/MultiDOFCommand
// on "~/reference", ros-controls/ros2_controllers pid_controller).
const ReferenceTopic = "reference"

// ReferenceTopic is the controller's reference topic under its name
// (ReferenceTopic) when it runs a PID (HasPID), else "".
func (c *Controller) ReferenceTopic() string {
	if !c.HasPID() {
		return ""
	}
	return ReferenceTopic
}

// CommandDOFs gives the controller one value per joint named in names
// (pid_controller's reference): names are its Joints, or none for values
// in their order. Other names, another count, or a value Command refuses
// is refused and counted. It is safe to call from any goroutine.
func (c *Controller) CommandDOFs(names []string, vs []float64, now time.Duration) error {
	if len(names) != 0 && !slices.Equal(names, c.Joints) {
		c.Refuse()
		return fmt.Errorf("controller %q: names %q, want %q or none: %w", c.Name, names, c.Joints, ErrRefused)
	}
	return c.CommandJoints(vs, now)
}

// HardwareInterface is what ros_control's controller_manager lists as the
// interface the controller claims its joints through.
func (c *Controller) HardwareInterface() string { return c.typ.Config.Controller.HardwareInterface }

// Width is how many values CommandGroup takes: a group's joints, a drive
// base's twist's 3; 0 for a controller that takes one value (Command).
func (c *Controller) Width() int {
	if !c.takesArray() {
		return 0
	}
	return len(c.in.values)
}

// takesArray: the command is one value per joint (a group), or a
// runner's fields (a drive base's twist).
func (c *Controller) takesArray() bool { return c.kind == kindGroup || c.kind == kindRunner }

// Timeout is how long a command holds; 0 when it holds until replaced (a
// profiled controller's goal without a timeout).
func (c *Controller) Timeout() time.Duration {
	if c.timeout == noTimeout {
		return 0
	}
	return c.timeout
}

// drop forgets the held command (disable, e-stop).
func (c *Controller) drop() {
	c.in.mu.Lock()
	c.in.set = false
	c.in.mu.Unlock()
	c.neutral()
	c.active, c.stopping = false, false
	c.st.Active, c.st.Command = false, 0
}

func (c *Controller) neutral() {
	for _, h := range c.group {
		h.Reset()
	}
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
	if c.prof != nil {
		c.prof.stop()
	}
	if c.run != nil {
		c.run.halt()
	}
}

// expireRunner ends a runner's command that timed out (a trajectory's
// running goal: aborted as timed out) and makes it neutral, all under
// c.in.mu: a goal that landed after update read stamp is fresh, so it is
// left for the next cycle (which starts it), not aborted as "disabled"
// by the halt; the outputs then keep their last values for this cycle.
func (c *Controller) expireRunner(e expirer, stamp time.Duration, dt float64) (stale bool, noFeedback bool) {
	c.in.mu.Lock()
	e.expire()
	if c.in.stamp != stamp || !c.in.set {
		c.in.mu.Unlock()
		return false, false
	}
	stale = c.active
	c.active, c.stopping = false, false
	c.neutral()
	c.in.mu.Unlock()
	c.idleState(dt)
	return stale, false
}

// update runs one cycle: it reports whether the command went stale and
// whether a PID lacked feedback.
func (c *Controller) update(now time.Duration, dt float64) (stale, noFeedback bool) {
	c.in.mu.Lock()
	v, stamp, set := c.in.value, c.in.stamp, c.in.set && !c.in.stopped
	copy(c.vals, c.in.values)
	if c.in.fresh {
		c.takeGains()
	}
	c.in.mu.Unlock()
	if c.afterRead != nil {
		c.afterRead()
	}
	if !set || now-stamp > c.timeout {
		if e, ok := c.run.(expirer); ok && set {
			return c.expireRunner(e, stamp, dt)
		}
		stale = c.active
		if set && c.stop != nil && (c.active || c.stopping) && c.stop.stopping(now, c.active) {
			// stale, not dropped: driven to rest at a zero command first
			c.active, c.stopping = false, true
			if c.run.run(c.zero, now, dt) {
				return stale, false
			}
			noFeedback = true
		}
		c.active, c.stopping = false, false
		c.neutral()
		c.idleState(dt)
		return stale, noFeedback
	}
	c.active, c.stopping = true, false
	switch c.kind {
	case kindForward:
		c.f64.Put(v, now)
	case kindBinary:
		c.b.Put(v != 0, now)
	case kindTernary:
		c.t.Put(interfaces.Tri(v), now)
	case kindGroup:
		for i, h := range c.group {
			h.Put(c.vals[i], now)
		}
	case kindRunner:
		if !c.run.run(c.vals, now, dt) {
			c.run.halt()
			return false, true
		}
	default:
		if c.device { // the device closes the loop on its own sensor
			c.f64.Put(v, now)
			c.recordState(v, 0, 0, 0, dt, v)
			break
		}
		out, ok := c.pidStep(v, stamp, dt)
		if !ok {
			c.neutral()
			c.idleState(dt)
			return false, true
		}
		c.f64.Put(out, now)
	}
	return false, false
}

// pidStep runs a PID from the command (a setpoint, or a profiled
// controller's goal, commanded at stamp) and the measured state.
func (c *Controller) pidStep(sp float64, stamp time.Duration, dt float64) (float64, bool) {
	js := &c.joint.state
	var meas, err, rate float64
	var need interfaces.Fields
	ff, spRate := sp, 0.0 // what the feedforward multiplies; the setpoint's rate
	switch c.kind {
	case kindPosition, kindProfiled:
		need, meas = interfaces.HasPosition, js.Position
	case kindVelocity:
		need, meas = interfaces.HasVelocity, js.Velocity
	case kindEffort:
		need, meas = interfaces.HasEffort, js.Effort
	}
	if js.Has&need == 0 {
		return 0, false
	}
	if c.prof != nil {
		var ok bool
		if !interfaces.Finite(meas) {
			return 0, false
		}
		if sp, ff, ok = c.prof.setpoint(sp, stamp, js, c.continuous, dt); !ok {
			return 0, false
		}
		spRate = ff // the derivative acts on the error's rate
	}
	err = sp - meas
	if c.continuous {
		err = wrapAngle(err)
	}
	if c.prof != nil {
		c.prof.done(err)
	}
	switch {
	case (c.kind == kindPosition || c.kind == kindProfiled) && js.Has&interfaces.HasVelocity != 0:
		rate = js.Velocity // the sensor's own rate beats differencing
	case c.hasLast && dt > 0:
		rate = (meas - c.lastMeas) / dt
	}
	c.lastMeas, c.hasLast = meas, true
	out := c.pid.Update(ff, err, rate-spRate, dt)
	c.recordState(sp, meas, rate, err, dt, out)
	return out, true
}

// deviceLoop says whether a PID controller of type t on the joint driven
// by target hands its setpoint to the device's own closed loop instead
// (target closes its loop itself: closed_loop: device), and on which
// command interface (ControllerFacts.DeviceLoop: position and velocity
// PIDs; an effort PID and a profiled position controller stay on the
// robot controller).
func deviceLoop(t *config.Type, target *config.Device) (string, bool) {
	if !target.ClosesLoop() {
		return "", false
	}
	switch t.Controller.DeviceLoop {
	case config.Position:
		return interfaces.Position, true
	case config.Velocity:
		return interfaces.Velocity, true
	}
	return "", false
}

// newController binds a YAML controller: it claims its devices' command
// handles in the registry. It returns nil, nil for a controller that takes
// no commands (the joint state controller).
func newController(cd *config.Device, reg *interfaces.Registry, m *merger, defTimeout time.Duration) (*Controller, error) {
	if cd.Type == nil {
		return nil, fmt.Errorf("controller %q: not checked (type unknown)", cd.Name)
	}
	typ := types[cd.Type.Name]
	switch {
	case typ == nil:
		return nil, fmt.Errorf("controller %q: unknown type %q", cd.Name, cd.Type.Name)
	case typ.family == familyNone:
		return nil, nil
	}
	c := &Controller{Name: cd.Name, Type: cd.Type.Name, typ: typ, kind: typ.family, timeout: defTimeout}
	if typ.Timeout != LoopTimeout {
		c.timeout = typ.Timeout
	}
	if key := typ.TimeoutKey; key != "" && cd.Has(key) {
		c.timeout = time.Duration(cd.Float(key) * float64(time.Second))
	} else if cd.Has("timeout") {
		c.timeout = time.Duration(cd.Float("timeout") * float64(time.Second))
	}
	bind := typ
	if typ.New != nil {
		return c, c.bindRunner(cd, reg, m)
	}
	targets := cd.RefList("joints")
	if target := cd.Ref("joint"); target != nil {
		targets = []*config.Device{target}
	}
	if len(targets) == 0 {
		return nil, fmt.Errorf("controller %q: not checked (joint unknown)", cd.Name)
	}
	for _, t := range targets {
		c.Joints = append(c.Joints, t.Name)
	}
	var err error
	switch c.kind {
	case kindGroup:
		for _, name := range c.Joints {
			h, err := interfaces.Claim[float64](reg, c.Name, name, bind.iface)
			if err != nil {
				return nil, err
			}
			c.group = append(c.group, h)
		}
		c.in.values = make([]float64, len(c.Joints))
		c.vals = make([]float64, len(c.Joints))
	case kindBinary:
		c.b, err = interfaces.Claim[bool](reg, c.Name, c.Joints[0], bind.iface)
	case kindTernary:
		c.t, err = interfaces.Claim[interfaces.Tri](reg, c.Name, c.Joints[0], bind.iface)
	case kindForward:
		c.f64, err = interfaces.Claim[float64](reg, c.Name, c.Joints[0], bind.iface)
	default: // the PIDs
		k, ok := m.byName[c.Joints[0]]
		if !ok {
			return nil, fmt.Errorf("controller %q: %q is not a movable URDF joint", c.Name, c.Joints[0])
		}
		c.joint = &m.joints[k]
		c.continuous = c.joint.continuous && (c.kind == kindPosition || c.kind == kindProfiled)
		if c.kind == kindProfiled {
			if c.prof, err = newProfiled(cd, c.joint); err != nil {
				return nil, err
			}
		}
		max := cd.Float("max_voltage")
		iclamp := max
		if cd.Has("pid.i_clamp") {
			iclamp = cd.Float("pid.i_clamp")
		}
		c.pid = PID{P: cd.Float("pid.p"), I: cd.Float("pid.i"), D: cd.Float("pid.d"), F: cd.Float("pid.f"), IClamp: iclamp, Max: max}
		iface := bind.iface
		if i, ok := deviceLoop(cd.Type, targets[0]); ok {
			iface, c.device = i, true
		} else {
			c.bindGains([]string{""}, []*PID{&c.pid})
		}
		c.f64, err = interfaces.Claim[float64](reg, c.Name, c.Joints[0], iface)
	}
	if err != nil {
		return nil, err
	}
	var j *mergedJoint
	if k, ok := m.byName[c.Joints[0]]; ok && len(targets) == 1 {
		j = &m.joints[k]
	}
	c.limit = anyValue
	if j != nil {
		c.limit = limitOf(c, j, targets[0])
	}
	c.valid = rangeOf(c, bind.iface, targets[0], c.limit)
	if bind.valid != nil {
		c.valid = *bind.valid
	}
	return c, nil
}
