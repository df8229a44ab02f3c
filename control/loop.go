package control

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/robot"
)

// Options configure a Loop. Zero fields take the YAML's `loop:` values.
type Options struct {
	// Rate is the nominal cycle rate, Hz; 0 takes loop.rate_hz.
	Rate float64
	// CommandTimeout applies to controllers without their own timeout; 0
	// takes loop.command_timeout.
	CommandTimeout time.Duration
	// Stopwatch, when set, times each cycle's phases (a monotonic clock);
	// nil leaves the busy and phase histograms empty.
	Stopwatch func() time.Duration
}

// Loop is the control loop over a set of bound devices.
type Loop struct {
	devs    []Device
	devOK   []bool
	devErrs []uint64 // failed reads and writes per device
	devLast []error  // each device's last error, or nil
	ds      hal.DriverStation
	m       *merger
	ctls    []*Controller
	odos    []odometer    // the drive bases' odometry, in YAML order
	pids    []*Controller // the PID controllers, for their state
	byName  map[string]*Controller
	period  time.Duration
	watch   func() time.Duration
	floats  []*interfaces.JointCommand // every float64 command handle, for the non-finite check
	held    []heldHandle               // the joints' position, velocity and voltage handles, held to their limits
	blocks  []limitBlock
	last    time.Duration
	started bool
	enabled bool
	stats   Stats

	// devCfg is each device's reason while it is configuring (its Read
	// failed with hal.ErrConfiguring: a state, not a failure), else nil;
	// devCfgOn whether its Reads have said so since devCfgAt, for
	// hal.MaxConfiguring.
	devCfg   []error
	devCfgOn []bool
	devCfgAt []time.Duration
	// inhibit is the reason the loop refuses to enable, nil when none
	// (Inhibit, Uninhibit); set from any goroutine, read by Cycle.
	inhibit atomic.Pointer[string]
	// deactivated is the reason the loop's hardware was set inactive
	// (Deactivate, Activate), nil when active: a second inhibit, of its
	// own, so that the inventory's Uninhibit does not lift it.
	deactivated atomic.Pointer[string]
	// estopped latches an e-stop: it holds until the loop is made again.
	estopped bool

	pubMu   sync.Mutex
	pub     Snapshot
	notify  []*Notice  // Notify's and NotifyFrom's
	journal *journal   // EnableJournal's, or nil
	history *History   // EnableHistory's (one of rings), or nil
	rings   []*History // NewHistory's and EnableHistory's, filled each cycle
	imus    stateSet[interfaces.IMUState]
	pdps    stateSet[interfaces.PDPState]
	comps   stateSet[interfaces.CompressorState]
	// Link sensors: digital and analog inputs in a URDF link.
	linkDigital stateSet[interfaces.BinaryState]
	linkAnalog  stateSet[interfaces.AnalogState]
}

// limitBlock is a speed-controller joint with limit switches: its
// voltage command, and the position and velocity commands of a device
// that closes its loop itself (nil when it has none).
type limitBlock struct {
	j        *mergedJoint
	volts    *interfaces.JointCommand
	pos, vel *interfaces.JointCommand
}

// New builds the loop: it registers every joint's JointState, finds the
// handles each joint merges from, and binds the YAML's controllers, which
// claim their command handles. devs are the bound devices in Read order.
func New(r *robot.Robot, reg *interfaces.Registry, devs []Device, ds hal.DriverStation, o Options) (*Loop, error) {
	l := &Loop{devs: devs, devOK: make([]bool, len(devs)), devErrs: make([]uint64, len(devs)), devLast: make([]error, len(devs)),
		devCfg: make([]error, len(devs)), devCfgOn: make([]bool, len(devs)), devCfgAt: make([]time.Duration, len(devs)), ds: ds, byName: map[string]*Controller{}, watch: o.Stopwatch}
	rate := o.Rate
	if rate <= 0 {
		rate = r.Config.Loop.Float("rate_hz")
	}
	if rate <= 0 {
		return nil, fmt.Errorf("loop: rate %v Hz is not positive", rate)
	}
	l.period = time.Duration(float64(time.Second) / rate)
	timeout := o.CommandTimeout
	if timeout <= 0 {
		timeout = time.Duration(r.Config.Loop.Float("command_timeout") * float64(time.Second))
	}
	devIndex := map[string]int{}
	for i, d := range devs {
		devIndex[d.Name()] = i
	}
	var errs []error
	m, err := newMerger(r, reg, devIndex, l.devOK)
	if err != nil {
		errs = append(errs, err)
	}
	l.m = m
	for _, cd := range r.Config.Controllers {
		c, err := newController(cd, reg, m, timeout)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if c == nil {
			continue // takes no commands
		}
		l.ctls = append(l.ctls, c)
		l.byName[c.Name] = c
		if o, ok := c.run.(odometer); ok {
			l.odos = append(l.odos, o)
		}
		if c.HasPID() {
			l.pids = append(l.pids, c)
		}
	}
	l.floats = interfaces.CommandsOf[float64](reg)
	for i := range m.joints {
		mj := &m.joints[i]
		for _, iface := range []string{interfaces.Position, interfaces.Velocity, interfaces.Voltage} {
			if h, err := interfaces.LookupCommand[float64](reg, mj.name, iface); err == nil {
				if lim := handleLimit(mj, iface, r.Config.Device(mj.name)); lim.bounded() {
					l.held = append(l.held, heldHandle{h: h, lim: lim})
				}
			}
		}
	}
	for i := range m.joints {
		mj := &m.joints[i]
		if mj.lowerSwitch < 0 && mj.upperSwitch < 0 {
			continue
		}
		if h, err := interfaces.LookupCommand[float64](reg, mj.name, interfaces.Voltage); err == nil {
			b := limitBlock{j: mj, volts: h}
			b.pos, _ = interfaces.LookupCommand[float64](reg, mj.name, interfaces.Position)
			b.vel, _ = interfaces.LookupCommand[float64](reg, mj.name, interfaces.Velocity)
			l.blocks = append(l.blocks, b)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	l.imus = newStateSet[interfaces.IMUState](reg, interfaces.IMU, devIndex)
	l.pdps = newStateSet[interfaces.PDPState](reg, interfaces.PDP, devIndex)
	l.comps = newStateSet[interfaces.CompressorState](reg, interfaces.Compressor, devIndex)
	links := map[string]bool{}
	for _, d := range r.LinkSensors {
		links[d.Name] = true
	}
	l.linkDigital = newStateSet[interfaces.BinaryState](reg, interfaces.Binary, devIndex).only(links)
	l.linkAnalog = newStateSet[interfaces.AnalogState](reg, interfaces.Analog, devIndex).only(links)
	l.pub = l.newSnapshot()
	return l, nil
}

// Period is the nominal cycle period.
func (l *Loop) Period() time.Duration { return l.period }

// Controller returns the controller of that name, or nil.
func (l *Loop) Controller(name string) *Controller { return l.byName[name] }

// Controllers returns the controllers in YAML order.
func (l *Loop) Controllers() []*Controller { return l.ctls }

// JointState returns the merged state of a joint after the last cycle.
// For the loop's goroutine; others use ReadSnapshot.
func (l *Loop) JointState(name string) (interfaces.JointState, bool) {
	k, ok := l.m.byName[name]
	if !ok {
		return interfaces.JointState{}, false
	}
	return l.m.joints[k].state, true
}

// Stats returns the statistics so far. For the loop's goroutine; others
// use ReadSnapshot.
func (l *Loop) Stats() Stats { return l.stats }

func (l *Loop) lap(p Phase, t *time.Duration) {
	if l.watch == nil {
		return
	}
	now := l.watch()
	l.stats.Phase[p].Add(now - *t)
	*t = now
}

// Cycle runs one cycle at time now: read, merge, controllers, safety,
// write. It does not allocate.
func (l *Loop) Cycle(now time.Duration) {
	var t0, t time.Duration
	if l.watch != nil {
		t0 = l.watch()
		t = t0
	}
	dt := l.period
	if l.started {
		dt = now - l.last
		l.stats.Period.Add(dt)
		j := dt - l.period
		if j < 0 {
			j = -j
		}
		l.stats.Jitter.Add(j)
		if dt > l.period+l.period/2 {
			l.stats.Overruns++
		}
	}
	l.started, l.last = true, now
	l.stats.Cycles++

	// read
	for i, d := range l.devs {
		err := d.Read(now, dt)
		l.devOK[i] = err == nil
		if !l.configuring(i, now, err) && err != nil {
			l.deviceError(i, err)
		}
	}
	l.lap(PhaseRead, &t)

	// merge, and what the controllers observe of it enabled or not
	// (odometry)
	l.m.merge()
	for _, c := range l.ctls {
		if c.run != nil {
			c.run.observe(now, dt.Seconds())
		}
	}
	l.lap(PhaseMerge, &t)

	ds := l.ds.DS()
	// An e-stop holds until the loop is made again (frcd restarts),
	// whatever the Driver Station says after it.
	l.estopped = l.estopped || ds.EStop
	ds.EStop = l.estopped
	inhibited := l.inhibit.Load() != nil || l.deactivated.Load() != nil
	enabled := ds.Attached && ds.Enabled && !ds.EStop && !inhibited
	if !enabled {
		l.stats.Disabled++
		if inhibited {
			l.stats.Inhibited++
		}
		for _, c := range l.ctls {
			c.drop()
		}
		for i := len(l.devs) - 1; i >= 0; i-- {
			if err := l.devs[i].Halt(); err != nil {
				l.deviceError(i, err)
			}
		}
		l.enabled = false
		l.lap(PhaseWrite, &t)
		l.finish(now, ds, t0)
		return
	}
	l.enabled = true

	// controllers
	sec := dt.Seconds()
	for _, c := range l.ctls {
		stale, noFB := c.update(now, sec)
		if stale {
			l.stats.Stale++
		}
		if noFB {
			l.stats.NoFeedback++
		}
	}
	l.lap(PhaseControl, &t)

	// safety: the joints' limits, limit switches, then nothing but finite numbers
	for _, h := range l.held {
		if h.h.Set && interfaces.Finite(h.h.Value) && !h.lim.holds(h.h.Value) {
			h.h.Value = h.lim.clamp(h.h.Value)
			l.stats.Clamped++
		}
	}
	for i := range l.blocks {
		l.block(&l.blocks[i])
	}
	for _, h := range l.floats {
		if h.Set && !interfaces.Finite(h.Value) {
			h.Reset()
			l.stats.Refused++
		}
	}
	l.lap(PhaseSafety, &t)

	// write
	for i := len(l.devs) - 1; i >= 0; i-- {
		if err := l.devs[i].Write(now, dt); err != nil {
			l.deviceError(i, err)
		}
	}
	l.lap(PhaseWrite, &t)
	l.finish(now, ds, t0)
}

// heldHandle is a joint's command handle and the limit the loop holds it
// to (handleLimit).
type heldHandle struct {
	h   *interfaces.JointCommand
	lim commandRange
}

// block zeroes a voltage that would drive b's joint further into a
// pressed limit switch, and drops a device loop's position or velocity
// command that would (a position beyond the measured one, or unknown
// while a switch is pressed; a velocity toward it): the device goes
// neutral for the cycle.
func (l *Loop) block(b *limitBlock) {
	upper, lower := l.m.pressed(b.j, b.j.upperSwitch), l.m.pressed(b.j, b.j.lowerSwitch)
	if !upper && !lower {
		return
	}
	if b.volts.Set && ((b.volts.Value > 0 && upper) || (b.volts.Value < 0 && lower)) {
		b.volts.Value = 0
		l.stats.Blocked++
	}
	if b.vel != nil && b.vel.Set && ((b.vel.Value > 0 && upper) || (b.vel.Value < 0 && lower)) {
		b.vel.Reset()
		l.stats.Blocked++
	}
	if b.pos != nil && b.pos.Set {
		js := &b.j.state
		known := js.Has&interfaces.HasPosition != 0
		if !known || (upper && b.pos.Value > js.Position) || (lower && b.pos.Value < js.Position) {
			b.pos.Reset()
			l.stats.Blocked++
		}
	}
}

// Inhibit keeps the loop from enabling, for reason (say, a required CAN
// device is missing), until Uninhibit: while inhibited every cycle runs as
// if the Driver Station were disabled (every output neutral, every held
// command dropped) and the snapshot's Inhibit says why. A later Inhibit
// replaces the reason. Safe from any goroutine; it takes effect at the
// next cycle.
func (l *Loop) Inhibit(reason string) {
	if reason == "" {
		reason = "inhibited"
	}
	l.inhibit.Store(&reason)
}

// Uninhibit clears the inhibit: from the next cycle the loop enables
// again when the Driver Station does. Commands dropped while inhibited
// stay dropped, so nothing moves until a new command arrives.
func (l *Loop) Uninhibit() { l.inhibit.Store(nil) }

// Inhibited returns the inhibit's reason, "" when the loop is not
// inhibited. Safe from any goroutine.
func (l *Loop) Inhibited() string {
	if r := l.inhibit.Load(); r != nil {
		return *r
	}
	return ""
}

// Deactivate keeps the loop from enabling, for reason (its hardware set
// inactive through ROS 2's controller manager), until Activate, as
// Inhibit does, but apart from it: Uninhibit does not lift it, nor
// Activate an Inhibit. Safe from any goroutine; it takes effect at the
// next cycle.
func (l *Loop) Deactivate(reason string) {
	if reason == "" {
		reason = "deactivated"
	}
	l.deactivated.Store(&reason)
}

// Activate lifts Deactivate: from the next cycle the loop enables again
// when the Driver Station does and nothing inhibits it. Commands dropped
// while deactivated stay dropped.
func (l *Loop) Activate() { l.deactivated.Store(nil) }

// Deactivated returns Deactivate's reason, "" when the loop is active.
// Safe from any goroutine.
func (l *Loop) Deactivated() string {
	if r := l.deactivated.Load(); r != nil {
		return *r
	}
	return ""
}

// configuring notes device i's Read result err at now: true when it says
// the device is still configuring (hal.ErrConfiguring) and has not been
// for hal.MaxConfiguring, which is no failure. Its readings are absent
// all the same (devOK is false).
func (l *Loop) configuring(i int, now time.Duration, err error) bool {
	if err == nil || !errors.Is(err, hal.ErrConfiguring) {
		l.devCfg[i], l.devCfgOn[i] = nil, false
		return false
	}
	if !l.devCfgOn[i] {
		l.devCfgOn[i], l.devCfgAt[i] = true, now
	}
	if now-l.devCfgAt[i] >= hal.MaxConfiguring {
		l.devCfg[i] = nil // for too long: a failure
		return false
	}
	l.devCfg[i] = err
	return true
}

// deviceError counts a device's failed read, write or halt. err must not
// be built per call (devices keep prebuilt, immutable errors: the snapshot
// shares them with other goroutines), so storing it does not
// allocate.
func (l *Loop) deviceError(i int, err error) {
	l.stats.DeviceErrors++
	l.devErrs[i]++
	l.devLast[i] = err
}

func (l *Loop) finish(now time.Duration, ds hal.DSState, t0 time.Duration) {
	if l.watch != nil {
		l.stats.Busy.Add(l.watch() - t0)
	}
	for _, h := range l.rings {
		h.put(now, l.m.joints)
	}
	if !l.pubMu.TryLock() {
		return // a reader is copying: skip this cycle's snapshot rather than wait
	}
	l.fill(&l.pub, now, ds)
	l.pubMu.Unlock()
	for _, n := range l.notify {
		if now < time.Duration(n.from.Load()) {
			continue // its reader has nothing to do before then: let it sleep
		}
		if n.signal != nil {
			n.signal()
			continue
		}
		select {
		case n.ch <- struct{}{}:
		default: // the reader has not taken the last one yet: it reads the newest
		}
	}
}

// Halt makes every output neutral now (shutdown): controllers drop their
// commands and every device is halted, in reverse order. It returns the
// devices' errors, joined.
func (l *Loop) Halt() error {
	for _, c := range l.ctls {
		c.drop()
	}
	var errs []error
	for i := len(l.devs) - 1; i >= 0; i-- {
		if err := l.devs[i].Halt(); err != nil {
			errs = append(errs, fmt.Errorf("%s: halt: %w", l.devs[i].Name(), err))
		}
	}
	return errors.Join(errs...)
}
