package control

import (
	"sync/atomic"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

// Snapshot is a copy of the loop's state after a cycle, for other
// goroutines (the status line, the ROS bridge). Make one with
// NewSnapshot and refill it with ReadSnapshot: copying does not allocate.
type Snapshot struct {
	Now     time.Duration
	DS      hal.DSState
	Enabled bool
	// Inhibit is why the loop refused to enable (Loop.Inhibit, else
	// Loop.Deactivate), "" when it is not inhibited.
	Inhibit string
	Joints  []JointSample
	Devices []DeviceSample
	Stats   Stats
	// Refused adds the controllers' refused commands to Stats.Refused.
	Refused uint64
	// The IMUs', PDPs' and compressors' states, in name order; OK is
	// their device's last Read.
	IMUs        []Sample[interfaces.IMUState]
	PDPs        []Sample[interfaces.PDPState]
	Compressors []Sample[interfaces.CompressorState]
	// The digital and analog inputs in URDF links (robot.LinkSensors:
	// beam breaks, range finders), in name order.
	LinkDigital []Sample[interfaces.BinaryState]
	LinkAnalog  []Sample[interfaces.AnalogState]
	// Odometry is each drive base's, in YAML order.
	Odometry []OdometrySample
	// PIDs are the PID controllers' states (Controller.HasPID), in YAML
	// order.
	PIDs []ControllerSample
}

// State names the robot's state: "e-stopped", "enabled", "inhibited:
// REASON" or "disabled".
func (s *Snapshot) State() string {
	switch {
	case s.DS.EStop:
		return "e-stopped"
	case s.Inhibit != "":
		return "inhibited: " + s.Inhibit
	case s.Enabled:
		return "enabled"
	}
	return "disabled"
}

// Sample is one device's state handle, copied.
type Sample[T any] struct {
	Name  string
	OK    bool
	State T
}

// stateSet is the loop's list of one kind of state handle to snapshot.
type stateSet[T any] struct {
	names []string
	hs    []*T
	dev   []int // the device index of each, or -1
}

func newStateSet[T any](reg *interfaces.Registry, iface string, devIndex map[string]int) stateSet[T] {
	s := stateSet[T]{}
	s.names, s.hs = interfaces.StatesOf[T](reg, iface)
	for _, n := range s.names {
		i, ok := devIndex[n]
		if !ok {
			i = -1
		}
		s.dev = append(s.dev, i)
	}
	return s
}

// only keeps the handles of the named devices.
func (s stateSet[T]) only(names map[string]bool) stateSet[T] {
	var o stateSet[T]
	for i, n := range s.names {
		if names[n] {
			o.names, o.hs, o.dev = append(o.names, n), append(o.hs, s.hs[i]), append(o.dev, s.dev[i])
		}
	}
	return o
}

func (s *stateSet[T]) samples() []Sample[T] {
	out := make([]Sample[T], len(s.names))
	for i, n := range s.names {
		out[i].Name = n
	}
	return out
}

func (s *stateSet[T]) fill(dst []Sample[T], devOK []bool) {
	for i, h := range s.hs {
		dst[i].State = *h
		dst[i].OK = s.dev[i] < 0 || devOK[s.dev[i]]
	}
}

// DeviceSample is one device's health: whether its last Read succeeded,
// how many reads and writes failed, and the last failure; while it is
// configuring (its Read failing with hal.ErrConfiguring, not counted
// unless it goes on for hal.MaxConfiguring), why.
type DeviceSample struct {
	Name        string
	OK          bool
	Errors      uint64
	LastErr     error
	Configuring error
}

// JointSample is one joint's merged state.
type JointSample struct {
	Name  string
	State interfaces.JointState
}

func (l *Loop) newSnapshot() Snapshot {
	s := Snapshot{Joints: make([]JointSample, len(l.m.joints)), Devices: make([]DeviceSample, len(l.devs))}
	for i := range l.m.joints {
		s.Joints[i].Name = l.m.joints[i].name
	}
	for i, d := range l.devs {
		s.Devices[i].Name = d.Name()
	}
	s.IMUs, s.PDPs, s.Compressors = l.imus.samples(), l.pdps.samples(), l.comps.samples()
	s.LinkDigital, s.LinkAnalog = l.linkDigital.samples(), l.linkAnalog.samples()
	s.PIDs = make([]ControllerSample, len(l.pids))
	for i, c := range l.pids {
		s.PIDs[i].Name = c.Name
	}
	s.Odometry = make([]OdometrySample, len(l.odos))
	for i, o := range l.odos {
		o.describe(&s.Odometry[i]) // any goroutine sizes a snapshot: not the pose the loop writes
	}
	return s
}

// NewSnapshot returns a snapshot sized for this loop.
func (l *Loop) NewSnapshot() *Snapshot { s := l.newSnapshot(); return &s }

func (l *Loop) fill(s *Snapshot, now time.Duration, ds hal.DSState) {
	s.Now, s.DS, s.Enabled, s.Stats = now, ds, l.enabled, l.stats
	s.Inhibit = ""
	if r := l.inhibit.Load(); r != nil {
		s.Inhibit = *r
	} else if r := l.deactivated.Load(); r != nil {
		s.Inhibit = *r
	}
	for i := range l.m.joints {
		s.Joints[i].State = l.m.joints[i].state
	}
	for i := range s.Devices {
		s.Devices[i].OK, s.Devices[i].Errors, s.Devices[i].LastErr, s.Devices[i].Configuring = l.devOK[i], l.devErrs[i], l.devLast[i], l.devCfg[i]
	}
	l.imus.fill(s.IMUs, l.devOK)
	l.pdps.fill(s.PDPs, l.devOK)
	l.comps.fill(s.Compressors, l.devOK)
	l.linkDigital.fill(s.LinkDigital, l.devOK)
	l.linkAnalog.fill(s.LinkAnalog, l.devOK)
	for i, o := range l.odos {
		o.odometry(&s.Odometry[i])
	}
	for i, c := range l.pids {
		s.PIDs[i] = c.st
		s.PIDs[i].Name = c.Name
	}
}

// Notify returns a new channel that receives after each cycle's snapshot
// is published, the newest winning (the loop never waits on it): one per
// reader (the ROS bridge, NT4, the log). Call it before the loop runs.
func (l *Loop) Notify() <-chan struct{} { return l.NotifyFrom().C }

// Notice is a reader's signal of new snapshots (NotifyFrom): after each
// cycle's snapshot from the loop time its reader last asked for.
type Notice struct {
	// C receives after each cycle's snapshot from then on, the newest
	// winning.
	C    <-chan struct{}
	ch   chan struct{}
	from atomic.Int64 // loop time, ns
	// signal, when set (NotifyWith), is called instead of sending on ch.
	signal func()
}

// From asks for signals only after cycles at loop time t or later: a
// reader with nothing to do before then (a topic published at less than
// the loop's rate) is not woken by the cycles between. Safe from any
// goroutine.
func (n *Notice) From(t time.Duration) { n.from.Store(int64(t)) }

// Wanted is the loop time the reader last asked for signals from (From).
func (n *Notice) Wanted() time.Duration { return time.Duration(n.from.Load()) }

// NotifyFrom is Notify for a reader that says when it next needs a
// snapshot (Notice.From); until it does, every cycle signals. Call it
// before the loop runs.
func (l *Loop) NotifyFrom() *Notice {
	ch := make(chan struct{}, 1)
	n := &Notice{C: ch, ch: ch}
	l.notify = append(l.notify, n)
	return n
}

// NotifyWith is NotifyFrom for a reader woken by signal, which the loop
// calls on its own goroutine after each snapshot due, instead of a send
// on C (which stays silent): signal must return at once and allocate
// nothing. The ROS 2 bridge's signal writes an eventfd its goroutine
// waits on in the runtime's network poller: readied from there, it runs
// on the loop's thread once the loop sleeps, where a channel's receiver
// is readied by waking a second thread to look for it (ros2bridge
// wake_linux.go). Call it before the loop runs.
func (l *Loop) NotifyWith(signal func()) *Notice {
	n := l.NotifyFrom()
	n.signal = signal
	return n
}

// ReadSnapshot copies the latest published snapshot into dst (made by
// NewSnapshot). It is safe to call from any goroutine.
func (l *Loop) ReadSnapshot(dst *Snapshot) {
	l.pubMu.Lock()
	joints, devs, imus, pdps, comps := dst.Joints, dst.Devices, dst.IMUs, dst.PDPs, dst.Compressors
	ld, la, odo, pids := dst.LinkDigital, dst.LinkAnalog, dst.Odometry, dst.PIDs
	*dst = l.pub
	dst.Joints = append(joints[:0], l.pub.Joints...)
	dst.Devices = append(devs[:0], l.pub.Devices...)
	dst.IMUs = append(imus[:0], l.pub.IMUs...)
	dst.PDPs = append(pdps[:0], l.pub.PDPs...)
	dst.Compressors = append(comps[:0], l.pub.Compressors...)
	dst.LinkDigital = append(ld[:0], l.pub.LinkDigital...)
	dst.LinkAnalog = append(la[:0], l.pub.LinkAnalog...)
	dst.Odometry = append(odo[:0], l.pub.Odometry...)
	dst.PIDs = append(pids[:0], l.pub.PIDs...)
	l.pubMu.Unlock()
	var refused uint64
	for _, c := range l.ctls {
		refused += c.Refused()
	}
	dst.Refused = refused
}
