package control

import (
	"sync/atomic"
	"time"

	"github.com/frcd/frcd/interfaces"
)

// History is a ring of the joints' merged states, one entry per cycle,
// for a reader that needs every cycle's sample (NT4 subscribers
// with the "all" option, the WPILOG, ROS 2's /joint_states) and not only the latest snapshot,
// which a slow reader skips cycles of. The loop writes without waiting
// and without allocating: when the ring is full (the reader stalled for
// the ring's length) the cycle is not kept, and counted (Dropped).
// One writer (the loop), one reader.
type History struct {
	slots      []historySlot
	head, tail atomic.Uint64 // the next entry written, the next read
	dropped    atomic.Uint64
	paused     atomic.Bool // SetPaused: the loop keeps nothing
}

type historySlot struct {
	now    time.Duration
	joints []interfaces.JointState
}

// EnableHistory makes the loop keep the last size cycles' joint states
// (0: a second of cycles, at least 64) for one reader, and returns the
// ring. Call it before the loop runs; a second call returns the same
// ring.
func (l *Loop) EnableHistory(size int) *History {
	if l.history == nil {
		l.history = l.NewHistory(size) // filled with the other rings
	}
	return l.history
}

// NewHistory is EnableHistory's ring for another reader: a new one at
// each call (the ROS 2 bridge's /joint_states, beside the telemetry's).
// Call it before the loop runs.
func (l *Loop) NewHistory(size int) *History {
	h := l.newHistory(size)
	l.rings = append(l.rings, h)
	return h
}

func (l *Loop) newHistory(size int) *History {
	if size <= 0 {
		size = max(64, int(time.Second/l.period))
	}
	h := &History{slots: make([]historySlot, size)}
	buf := make([]interfaces.JointState, size*len(l.m.joints))
	for i := range h.slots {
		h.slots[i].joints = buf[i*len(l.m.joints) : (i+1)*len(l.m.joints) : (i+1)*len(l.m.joints)]
	}
	return h
}

// put records a cycle: the loop's side.
func (h *History) put(now time.Duration, joints []mergedJoint) {
	if h.paused.Load() {
		return
	}
	hd := h.head.Load()
	if hd-h.tail.Load() >= uint64(len(h.slots)) {
		h.dropped.Add(1)
		return
	}
	s := &h.slots[hd%uint64(len(h.slots))]
	s.now = now
	for i := range joints {
		s.joints[i] = joints[i].state
	}
	h.head.Store(hd + 1)
}

// Next calls f with the oldest cycle not yet read (its time and every
// joint's state, in the snapshot's order) and returns true, or returns
// false when the reader is up to date. f must not keep joints.
func (h *History) Next(f func(now time.Duration, joints []interfaces.JointState)) bool {
	tl := h.tail.Load()
	if tl == h.head.Load() {
		return false
	}
	s := &h.slots[tl%uint64(len(h.slots))]
	f(s.now, s.joints)
	h.tail.Store(tl + 1)
	return true
}

// Skip forgets every cycle not yet read (a reader that had nobody to
// give them to).
func (h *History) Skip() { h.tail.Store(h.head.Load()) }

// SetPaused stops (true) or resumes the loop's keeping of cycles: a
// reader with nobody to pass them to costs the loop nothing.
func (h *History) SetPaused(on bool) { h.paused.Store(on) }

// Dropped counts the cycles the ring had no room for.
func (h *History) Dropped() uint64 { return h.dropped.Load() }
