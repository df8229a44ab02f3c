package control

import (
	"testing"
	"time"
)

// TestNotifyFrom: a reader that asked for signals from a loop time on
// gets none from the cycles before it, one from the first cycle at or
// after it, and one a cycle again once it asks from 0; a Notify reader
// beside it gets every cycle's.
func TestNotifyFrom(t *testing.T) {
	g := newRig(t)
	every := g.l.Notify()
	n := g.l.NotifyFrom()
	got := func(ch <-chan struct{}) bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	n.From(35 * time.Millisecond)
	for _, now := range []time.Duration{10, 20, 30} {
		g.l.Cycle(now * time.Millisecond)
		if got(n.C) {
			t.Errorf("signalled at %v ms, before the 35 ms asked for", now)
		}
		if !got(every) {
			t.Errorf("Notify's reader not signalled at %v ms", now)
		}
	}
	g.l.Cycle(40 * time.Millisecond)
	if !got(n.C) {
		t.Error("no signal at 40 ms, past the 35 ms asked for")
	}
	n.From(0)
	g.l.Cycle(50 * time.Millisecond)
	if !got(n.C) {
		t.Error("no signal at 50 ms after asking from 0")
	}
}

// TestNotifyWith: a reader with its own signal has it called, not its
// channel sent on, for each cycle from the time it asked for.
func TestNotifyWith(t *testing.T) {
	g := newRig(t)
	calls := 0
	n := g.l.NotifyWith(func() { calls++ })
	n.From(25 * time.Millisecond)
	for _, now := range []time.Duration{10, 20, 30, 40} {
		g.l.Cycle(now * time.Millisecond)
	}
	if calls != 2 {
		t.Errorf("signalled %d times, want 2 (at 30 and 40 ms)", calls)
	}
	select {
	case <-n.C:
		t.Error("its channel was sent on")
	default:
	}
	n.From(0)
	g.l.Cycle(50 * time.Millisecond)
	if calls != 3 {
		t.Errorf("signalled %d times after asking from 0, want 3", calls)
	}
}
