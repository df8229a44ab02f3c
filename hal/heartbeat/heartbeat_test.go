package heartbeat

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
)

// bus records what is sent, with the test's time, and holds the newest
// heartbeat another sender put on the bus.
type bus struct {
	now     time.Duration
	sent    []time.Duration
	frames  []hal.Frame
	foreign time.Duration // when the other sender's heartbeat last came
	heard   bool
	err     error
}

func (b *bus) Send(f hal.Frame) error {
	if b.err != nil {
		return b.err
	}
	b.sent = append(b.sent, b.now)
	b.frames = append(b.frames, f)
	return nil
}

func (b *bus) Latest(id uint32) (hal.Frame, time.Duration, bool) {
	if id != hal.HeartbeatID || !b.heard {
		return hal.Frame{}, 0, false
	}
	return hal.Frame{ID: id, Len: 8}, b.foreign, true
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

var enabled = hal.DSState{Enabled: true, Attached: true}

// run ticks s every step from `from` up to (not including) `to`, calling
// before (if any) at each tick first.
func run(s *Sender, b *bus, from, to, step time.Duration, before func(now time.Duration)) {
	for t := from; t < to; t += step {
		b.now = t
		if before != nil {
			before(t)
		}
		_ = s.Tick(t, enabled)
	}
}

func TestBits(t *testing.T) {
	for _, tc := range []struct {
		name              string
		ds                hal.DSState
		enabled, watchdog bool
	}{
		{"enabled", enabled, true, true},
		{"disabled", hal.DSState{Attached: true}, false, false},
		{"e-stopped", hal.DSState{Enabled: true, EStop: true, Attached: true}, false, false},
		{"detached", hal.DSState{Enabled: true}, false, false},
		{"autonomous", hal.DSState{Enabled: true, Attached: true, Mode: hal.Autonomous}, true, true},
	} {
		b := &bus{}
		s := New(b, On)
		if err := s.Tick(0, tc.ds); err != nil {
			t.Fatal(err)
		}
		if len(b.frames) != 1 {
			t.Fatalf("%s: %d frames", tc.name, len(b.frames))
		}
		f := b.frames[0]
		if f.ID != 0x01011840 || f.Len != 8 {
			t.Errorf("%s: id %#x, %d bytes; want 0x01011840, 8", tc.name, f.ID, f.Len)
		}
		// PROTOCOLS.md: data[3] bit 1 enabled, bit 4 system watchdog.
		if got := f.Data[3]&0x02 != 0; got != tc.enabled {
			t.Errorf("%s: enabled bit %v, want %v (data % x)", tc.name, got, tc.enabled, f.Data)
		}
		if got := f.Data[3]&0x10 != 0; got != tc.watchdog {
			t.Errorf("%s: watchdog bit %v, want %v (data % x)", tc.name, got, tc.watchdog, f.Data)
		}
		if auto := f.Data[3]&0x04 != 0; auto != (tc.ds.Mode == hal.Autonomous) {
			t.Errorf("%s: autonomous bit %v", tc.name, auto)
		}
	}
}

func TestPeriodIs20msAtAnyTickRate(t *testing.T) {
	for _, step := range []time.Duration{ms(1), ms(5), ms(7), ms(20), 3300 * time.Microsecond} {
		b := &bus{}
		s := New(b, On)
		run(s, b, 0, 2*time.Second, step, nil)
		// 2 s at 50 Hz: 100 frames; a tick rate that does not divide 20 ms
		// delays each frame to the next tick but keeps the average.
		if n := len(b.sent); n < 99 || n > 100 {
			t.Errorf("tick %v: %d frames in 2 s, want 100", step, n)
		}
		for i := 1; i < len(b.sent); i++ {
			d := b.sent[i] - b.sent[i-1]
			if d < hal.HeartbeatPeriod-step || d > hal.HeartbeatPeriod+step {
				t.Errorf("tick %v: frames %d and %d %v apart", step, i-1, i, d)
				break
			}
			if step == ms(1) && d != hal.HeartbeatPeriod {
				t.Errorf("tick 1ms: frames %v apart, want exactly 20ms", d)
				break
			}
		}
	}
}

// A stalled loop sends nothing (the devices disable), then starts afresh
// rather than sending the missed frames in a burst.
func TestStallStopsTheHeartbeat(t *testing.T) {
	b := &bus{}
	s := New(b, On)
	run(s, b, 0, ms(100), ms(1), nil)
	before := len(b.sent)
	run(s, b, ms(400), ms(440), ms(1), nil) // 300 ms without a tick
	got := b.sent[before:]
	if len(got) != 2 || got[0] != ms(400) || got[1] != ms(420) {
		t.Errorf("after the stall: frames at %v, want 400ms and 420ms", got)
	}
}

func TestAutoListensBeforeItsFirstFrame(t *testing.T) {
	b := &bus{}
	s := New(b, Auto)
	run(s, b, ms(1000), ms(1099), ms(1), nil)
	if len(b.sent) != 0 || s.Status().State != Listening {
		t.Fatalf("sent %v while listening, status %v", b.sent, s.Status())
	}
	run(s, b, ms(1099), ms(1200), ms(1), nil)
	if len(b.sent) == 0 || b.sent[0] != ms(1100) {
		t.Fatalf("first frame at %v, want 1100ms: a HeartbeatTimeout after the first tick", b.sent)
	}
	if st := s.Status(); st != (Status{Mode: Auto, State: Sending}) || st.Warning() {
		t.Errorf("status %+v", st)
	}
}

func TestAutoNeverSendsBesideAnotherSender(t *testing.T) {
	b := &bus{}
	s := New(b, Auto)
	// A roboRIO's heartbeat every 20 ms, from before the first tick.
	roborio := func(now time.Duration) {
		if now%hal.HeartbeatPeriod == 0 {
			b.foreign, b.heard = now, true
		}
	}
	run(s, b, 0, 3*time.Second, ms(1), roborio)
	if len(b.sent) != 0 {
		t.Errorf("sent %d frames beside a roboRIO", len(b.sent))
	}
	st := s.Status()
	if st.State != Yielding || !st.Foreign || st.Warning() || !strings.Contains(st.String(), "another sender") {
		t.Errorf("status %+v %q", st, st)
	}
}

func TestAutoStopsAtOnceAndResumesAfterTheOtherIsGone(t *testing.T) {
	b := &bus{}
	s := New(b, Auto)
	run(s, b, 0, ms(500), ms(1), nil)
	sending := len(b.sent)
	if sending == 0 {
		t.Fatal("not sending after 500 ms alone")
	}
	// Another sender from 500 ms to 800 ms.
	other := func(now time.Duration) {
		if now <= ms(800) && now%hal.HeartbeatPeriod == 0 {
			b.foreign, b.heard = now, true
		}
	}
	run(s, b, ms(500), ms(1000), ms(1), other)
	resumed := b.sent[sending:]
	// The last foreign frame came at 800 ms; silent until more than a
	// HeartbeatTimeout later.
	if len(resumed) == 0 || resumed[0] != ms(901) {
		t.Fatalf("after the other sender: frames at %v, want the first at 901ms", resumed)
	}
	if s.Status().State != Sending {
		t.Errorf("status %v", s.Status())
	}
}

func TestOnWarnsBesideAnotherSender(t *testing.T) {
	b := &bus{foreign: ms(10), heard: true}
	s := New(b, On)
	b.now = ms(50)
	if err := s.Tick(ms(50), enabled); err != nil {
		t.Fatal(err)
	}
	st := s.Status()
	if len(b.sent) != 1 || !st.Warning() || !strings.Contains(st.String(), "two senders") {
		t.Errorf("sent %v, status %+v %q", b.sent, st, st)
	}
	b.now = ms(200) // the other has gone quiet
	_ = s.Tick(ms(200), enabled)
	if s.Status().Warning() {
		t.Error("still warning 190 ms after the other's last heartbeat")
	}
}

func TestOffNeverSends(t *testing.T) {
	b := &bus{}
	s := New(b, Off)
	run(s, b, 0, time.Second, ms(1), nil)
	if len(b.sent) != 0 || s.Status() != (Status{Mode: Off, State: Silent}) {
		t.Errorf("sent %v, status %+v", b.sent, s.Status())
	}
	b.foreign, b.heard = time.Second, true
	_ = s.Tick(time.Second, enabled)
	if st := s.Status(); !st.Foreign || st.Warning() {
		t.Errorf("status %+v", st)
	}
}

func TestSendErrorsAreCounted(t *testing.T) {
	full := errors.New("no buffer space available")
	b := &bus{err: full}
	s := New(b, On)
	if err := s.Tick(0, enabled); err != full {
		t.Errorf("Tick = %v", err)
	}
	if err := s.Tick(ms(10), enabled); err != nil {
		t.Errorf("Tick before the next period = %v", err)
	}
	b.err = nil
	_ = s.Tick(ms(20), enabled)
	if sent, failed, last := s.Counts(); sent != 1 || failed != 1 || last != full {
		t.Errorf("Counts = %d, %d, %v", sent, failed, last)
	}
}

func TestTickDoesNotAllocate(t *testing.T) {
	b := &nullBus{}
	s := New(b, Auto)
	now := time.Duration(0)
	if n := testing.AllocsPerRun(1000, func() {
		now += ms(5)
		_ = s.Tick(now, enabled)
	}); n != 0 {
		t.Errorf("Tick: %v allocations", n)
	}
	if b.n == 0 {
		t.Error("nothing sent")
	}
}

type nullBus struct{ n int }

func (b *nullBus) Send(hal.Frame) error { b.n++; return nil }
func (b *nullBus) Latest(uint32) (hal.Frame, time.Duration, bool) {
	return hal.Frame{}, 0, false
}

func TestParseMode(t *testing.T) {
	for s, want := range map[string]Mode{"auto": Auto, "on": On, "off": Off} {
		if m, err := ParseMode(s); err != nil || m != want || m.String() != s {
			t.Errorf("ParseMode(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := ParseMode("yes"); err == nil || !strings.Contains(err.Error(), "auto, on or off") {
		t.Errorf("ParseMode(yes): %v", err)
	}
}

// A disable is on the bus at the next tick, not up to a period later:
// after SIGTERM the daemon's last tick must leave a disabled heartbeat
// as the bus's newest (the kernel CAN test caught the enabled one).
func TestDisableGoesOutAtOnce(t *testing.T) {
	b := &bus{}
	s := New(b, On)
	run(s, b, 0, ms(45), ms(5), nil) // frames at 0, 20, 40 ms
	if len(b.frames) != 3 {
		t.Fatalf("sent %d frames in 45 ms, want 3", len(b.frames))
	}
	b.now = ms(45)
	if err := s.Tick(ms(45), hal.DSState{Attached: true}); err != nil {
		t.Fatal(err)
	}
	if len(b.frames) != 4 || b.sent[3] != ms(45) {
		t.Fatalf("after the disable at 45 ms: sent at %v, want a fourth frame at 45ms", b.sent)
	}
	if hb := hal.HeartbeatOf(hal.DSState{Attached: true}).Frame(); b.frames[3] != hb {
		t.Errorf("the frame at the disable is % x, want the disabled heartbeat % x", b.frames[3].Data, hb.Data)
	}
	// The period starts afresh from the disable; staying disabled does
	// not send extra frames.
	for now := ms(50); now < ms(105); now += ms(5) {
		b.now = now
		_ = s.Tick(now, hal.DSState{Attached: true})
	}
	if want := []time.Duration{0, ms(20), ms(40), ms(45), ms(65), ms(85)}; len(b.sent) != len(want) {
		t.Errorf("sent at %v, want %v", b.sent, want)
	} else {
		for i := range want {
			if b.sent[i] != want[i] {
				t.Errorf("sent at %v, want %v", b.sent, want)
				break
			}
		}
	}
}
