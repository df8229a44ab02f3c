package daemon

import (
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/ros"
)

// The HAL's clock, cross-checked. On a backend whose HAL keeps a clock of
// its own (hal.HALClock: WPILib's HAL on the roboRIO and Systemcore) the
// loop runs on the OS's monotonic clock, and every cycle reads the HAL's
// between two readings of the OS's. A HAL clock that cannot be read,
// stands still or runs at less than half the OS's pace over clockWindow,
// or steps back, is a fault: the loop runs disabled (every output neutral,
// every held command dropped), the log, the status line and /diagnostics
// (and so the NT4 Alerts) say why, until the HAL clock has run true for
// clockSettle. A clock that jumps forward is no fault: the loop's time is
// the OS's, and the HAL's reaches no command timeout.
const (
	// clockWindow is the OS time over which the HAL clock's progress is
	// checked: a stall is seen within two windows and a cycle.
	clockWindow = 25 * time.Millisecond
	// clockSettle is how long a faulty HAL clock must run true before the
	// robot may enable again.
	clockSettle = time.Second
	// clockRetell is how often, at most, a lasting fault's message (and
	// so its log line) changes between stalled and slow: a clock that
	// ticks now and then reads stalled on one window and slow on the
	// next, and would otherwise say so (a message made, a line logged) on
	// almost every cycle. A change to or from unreadable or stepped back
	// is told at once.
	clockRetell = 10 * time.Second
)

// clockKind is what is wrong with the HAL clock.
type clockKind int

const (
	clockSane clockKind = iota
	clockUnreadable
	clockBack
	clockStalled
	clockSlow
)

// clockMark is a HAL clock reading and the OS's time at it.
type clockMark struct{ hal, os time.Duration }

// clockCheck cross-checks a HAL clock with the OS's monotonic clock, one
// reading at a time, with time passed in. The loop's goroutine owns it.
type clockCheck struct {
	started  bool
	last     time.Duration // the last HAL time read
	anchor   clockMark     // the start of the window of progress
	streak   clockMark     // the first of the good readings since the fault
	inStreak bool
	kind     clockKind     // what is wrong (as why says it), clockSane when nothing
	why      string        // kind, said with its figures; "" when sane
	told     time.Duration // the OS's time why was made at
	faults   uint64        // faults begun so far
}

// clockChange is what a reading changed: nothing, a fault began, or the
// clock became sane again.
type clockChange int

const (
	clockSteady clockChange = iota
	clockFaulted
	clockRecovered
)

// check takes one reading: before and after are the OS's monotonic time
// around the read of the HAL's, which gave at (or err). The window's
// progress is measured from the anchor's after to this reading's before,
// so that a pause between the reads (a preempted thread) never makes a
// true clock look slow. The message is made when a fault begins, and
// then only when its kind changes (between stalled and slow at most once
// per clockRetell), so that a fault that lasts (or flaps between stalled
// and slow) allocates nothing per cycle.
func (c *clockCheck) check(before, at time.Duration, err error, after time.Duration) clockChange {
	kind, span := clockSane, time.Duration(0)
	switch {
	case err != nil:
		kind = clockUnreadable
	case !c.started:
		c.started, c.anchor = true, clockMark{at, after}
	case at < c.last:
		kind = clockBack
	default:
		if span = before - c.anchor.os; span >= clockWindow {
			if at-c.anchor.hal < span/2 {
				kind = clockSlow
				if at == c.last {
					kind = clockStalled
				}
			}
		}
	}
	prev, from := c.last, c.anchor.hal
	if err == nil {
		c.last = at
		if kind == clockBack || span >= clockWindow {
			c.anchor = clockMark{at, after}
		}
	}
	if kind != clockSane {
		c.inStreak = false
		began := c.kind == clockSane
		if began || kind != c.kind && (!paceKind(kind) || !paceKind(c.kind) || before-c.told >= clockRetell) {
			c.kind, c.why, c.told = kind, clockWhy(kind, err, prev, from, at, span), before
		}
		if began {
			c.faults++
			return clockFaulted
		}
		return clockSteady
	}
	if c.kind == clockSane {
		return clockSteady
	}
	if at == prev {
		// No tick since the last reading: no proof of a clock that
		// runs, whatever the window says.
		c.inStreak = false
		return clockSteady
	}
	if !c.inStreak {
		c.streak, c.inStreak = clockMark{at, after}, true
		return clockSteady
	}
	if span := before - c.streak.os; span >= clockSettle && at-c.streak.hal >= span/2 {
		c.kind, c.why, c.inStreak = clockSane, "", false
		return clockRecovered
	}
	return clockSteady
}

// paceKind: a fault of the clock's pace, told apart by one window's
// readings (stalled or slow), which a clock that ticks now and then
// flips between.
func paceKind(k clockKind) bool { return k == clockStalled || k == clockSlow }

// clockWhy says what is wrong: prev is the last time read, from the
// window's start, at this reading's time, span the window.
func clockWhy(kind clockKind, err error, prev, from, at, span time.Duration) string {
	switch kind {
	case clockUnreadable:
		return "cannot be read: " + err.Error()
	case clockBack:
		return fmt.Sprintf("stepped back %s (from %s to %s)", secs(prev-at), secs(prev), secs(at))
	case clockStalled:
		return fmt.Sprintf("stalled at %s (no tick in the last %s of the OS's monotonic clock)", secs(at), span.Round(time.Millisecond))
	}
	return fmt.Sprintf("runs slow (%s in %s of the OS's monotonic clock)", (at - from).Round(time.Microsecond), span.Round(time.Millisecond))
}

// secs is a HAL time as seconds since the backend opened.
func secs(t time.Duration) string { return strconv.FormatFloat(t.Seconds(), 'f', 6, 64) + "s" }

// halClock is the daemon's side of the check: the HAL's clock, the OS's
// it is read against, and the fault for other goroutines.
type halClock struct {
	src    hal.HALClock         // nil: the backend has no HAL clock
	os     func() time.Duration // the OS's monotonic clock
	check  clockCheck           // the loop's goroutine's
	fault  atomic.Pointer[string]
	faults atomic.Uint64
	at     atomic.Int64 // the last HAL time read, a time.Duration
}

// setupClock finds the backend's HAL clock, if it has one; os is the
// OS's monotonic clock the HAL's is read against.
func (d *Daemon) setupClock(os func() time.Duration) {
	hc, ok := d.backend.(hal.HALClock)
	if !ok {
		return
	}
	if _, err := hc.ReadClock(); errors.Is(err, hal.ErrUnsupported) {
		return
	}
	d.clock.src, d.clock.os = hc, os
}

// checkClock reads the HAL's clock against the OS's before a cycle: a
// fault disables the loop from this cycle on (clockDS) and is logged, as
// its end is.
func (d *Daemon) checkClock() {
	k := &d.clock
	if k.src == nil {
		return
	}
	before := k.os()
	at, err := k.src.ReadClock()
	after := k.os()
	if err == nil {
		k.at.Store(int64(at))
	}
	switch k.check.check(before, at, err, after) {
	case clockFaulted:
		why := k.check.why
		k.fault.Store(&why)
		k.faults.Store(k.check.faults)
		d.logf("frcd: the HAL clock %s: every output neutral, the robot disabled until it runs true with the OS's monotonic clock for %s", why, clockSettle)
	case clockRecovered:
		k.fault.Store(nil)
		d.logf("frcd: the HAL clock has run true with the OS's monotonic clock for %s: the robot may enable", clockSettle)
	default:
		if f := k.fault.Load(); f != nil && *f != k.check.why {
			why := k.check.why
			k.fault.Store(&why)
			d.logf("frcd: the HAL clock %s: the robot stays disabled", why)
		}
	}
}

// ClockFault is why the HAL's clock is faulty ("stalled at 12.000000s
// ..."), "" when it is sane or the backend has none. Safe from any
// goroutine.
func (d *Daemon) ClockFault() string {
	if f := d.clock.fault.Load(); f != nil {
		return *f
	}
	return ""
}

// clockDS is the backend's Driver Station as the loop sees it on a
// backend with a HAL clock: disabled while that clock is faulty.
type clockDS struct{ d *Daemon }

func (c clockDS) DS() hal.DSState {
	s := c.d.backend.DS()
	if c.d.clock.fault.Load() != nil {
		s.Enabled = false
	}
	return s
}

// clockStatus appends the HAL clock's status for /diagnostics: ERROR
// while it is faulty.
func (d *Daemon) clockStatus(dst []ros.Status) []ros.Status {
	k := &d.clock
	if k.src == nil {
		return dst
	}
	st := ros.Status{Name: "frcd: HAL clock", HardwareID: "hal", Level: ros.LevelOK, Message: "runs true with the OS's monotonic clock"}
	if why := d.ClockFault(); why != "" {
		st.Level, st.Message = ros.LevelError, why+": every output neutral, the robot disabled"
	}
	st.Values = [][2]string{{"HAL time", secs(time.Duration(k.at.Load()))}, {"faults", strconv.FormatUint(k.faults.Load(), 10)}}
	return append(dst, st)
}
