package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/ros"
)

// readings feeds c a HAL clock read every step of OS time from os0: at
// gives the HAL's time (or error) at each OS time; it returns the first
// change and the OS time it came at.
func readings(c *clockCheck, os0, step, until time.Duration, at func(os time.Duration) (time.Duration, error)) (clockChange, time.Duration) {
	for os := os0; os <= until; os += step {
		t, err := at(os)
		if ch := c.check(os, t, err, os); ch != clockSteady {
			return ch, os
		}
	}
	return clockSteady, -1
}

// TestClockCheck: a HAL clock that runs true (even read by a thread
// paused between its reads, or jumping forward) is sane; one that cannot
// be read or steps back is a fault at that reading; one that stalls or
// runs at less than half the pace within two windows and a reading. The
// fault holds until the clock has run true for clockSettle.
func TestClockCheck(t *testing.T) {
	const step = 10 * time.Millisecond
	true0 := func(os time.Duration) (time.Duration, error) { return os + 3*time.Second, nil }

	var c clockCheck
	if ch, at := readings(&c, 0, step, 10*time.Second, true0); ch != clockSteady {
		t.Fatalf("a true clock: change %v at %v (%s)", ch, at, c.why)
	}
	// Paused for 200 ms between the HAL's read and the OS's after it,
	// then on: no fault (the window runs from that reading's after).
	if ch := c.check(10*time.Second+step, 13*time.Second+step, nil, 10*time.Second+210*time.Millisecond); ch != clockSteady {
		t.Errorf("a read paused after the HAL's: %v (%s)", ch, c.why)
	}
	if ch, at := readings(&c, 10*time.Second+220*time.Millisecond, step, 11*time.Second, true0); ch != clockSteady {
		t.Errorf("after the pause: change %v at %v (%s)", ch, at, c.why)
	}
	jump := func(os time.Duration) (time.Duration, error) { return os + time.Hour, nil }
	if ch, at := readings(&c, 11*time.Second+step, step, 12*time.Second, jump); ch != clockSteady {
		t.Errorf("a jump forward: change %v at %v (%s)", ch, at, c.why)
	}

	for _, tc := range []struct {
		name  string
		fault func(os time.Duration) (time.Duration, error)
		late  time.Duration // how long after the fault it is seen, at most
		why   string
		once  bool // the fault is one step: the clock runs true after it
	}{
		{"cannot be read", func(time.Duration) (time.Duration, error) { return 0, errors.New("HAL status -1098") }, 0,
			"cannot be read: HAL status -1098", false},
		{"steps back", func(os time.Duration) (time.Duration, error) { return os - 5*time.Second, nil }, 0,
			"stepped back 2.990000s (from 2.000000s to -0.990000s)", true},
		{"stalls", func(time.Duration) (time.Duration, error) { return 2 * time.Second, nil }, 2*clockWindow + step,
			"stalled at 2.000000s", false},
		{"runs slow", func(os time.Duration) (time.Duration, error) { return 2*time.Second + (os-4*time.Second)/4, nil }, 2*clockWindow + step,
			"runs slow", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c clockCheck
			good := func(os time.Duration) (time.Duration, error) { return os - 2*time.Second, nil }
			if ch, _ := readings(&c, 0, step, 4*time.Second, good); ch != clockSteady {
				t.Fatalf("before the fault: %v (%s)", ch, c.why)
			}
			from := 4*time.Second + step
			ch, at := readings(&c, from, step, from+time.Second, tc.fault)
			if ch != clockFaulted || at-from > tc.late || !strings.HasPrefix(c.why, tc.why) || c.faults != 1 {
				t.Fatalf("change %v %v after the fault (%d faults): %q; want a fault within %v: %q", ch, at-from, c.faults, c.why, tc.late, tc.why)
			}
			if tc.once {
				// Stepped back, then true: sane clockSettle after the
				// first reading after the step.
				if ch, sane := readings(&c, at+step, step, at+2*time.Second, tc.fault); ch != clockRecovered || sane != at+step+clockSettle {
					t.Errorf("true after the step: change %v %v after it; want sane %v after", ch, sane-at, step+clockSettle)
				}
				return
			}
			// It holds while the fault lasts, then clockSettle of a true
			// clock (run on from where it was) clears it.
			if ch, at := readings(&c, at+step, step, at+2*time.Second, tc.fault); ch != clockSteady {
				t.Fatalf("the fault lasting: change %v at %v", ch, at)
			}
			healed := at + 2*time.Second + step
			base := time.Duration(0)
			if t0, err := tc.fault(healed); err == nil {
				base = t0
			}
			ch, at = readings(&c, healed, step, healed+3*time.Second, func(os time.Duration) (time.Duration, error) { return base + os - healed, nil })
			if ch != clockRecovered || at-healed < clockSettle || at-healed > clockSettle+2*step || c.why != "" {
				t.Errorf("healed: change %v %v after (%q); want sane %v after", ch, at-healed, c.why, clockSettle)
			}
		})
	}
}

// clocked is a hardware backend with a HAL clock the test sets.
type clocked struct {
	*haltest.Backend
	mu  sync.Mutex
	at  time.Duration
	err error
}

func (c *clocked) ReadClock() (time.Duration, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at, c.err
}

func (c *clocked) set(at time.Duration, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at, c.err = at, err
}

// TestClockFault: on a backend with a HAL clock, one that cannot be read,
// stalls or steps back makes every output neutral within 100 ms of loop
// time (the arm driven at 6 V until then, its command refreshed every
// cycle), the status line and /diagnostics say why, the log says so once
// and /frcd/enable refuses; the robot enables again once the clock has
// run true for clockSettle. Stepped: the OS's clock is the loop's time.
func TestClockFault(t *testing.T) {
	for _, tc := range []struct {
		name, why string
		fault     func(now time.Duration) (time.Duration, error) // the HAL's clock at the loop's time
	}{
		{"cannot be read", "cannot be read: HAL status -1098", func(time.Duration) (time.Duration, error) { return 0, errors.New("HAL status -1098") }},
		{"stalls", "stalled at 1.1", func(time.Duration) (time.Duration, error) { return 1100 * time.Millisecond, nil }},
		// Back a minute, then back again at every reading (a clock that
		// steps back once and runs on is sane clockSettle later:
		// TestClockCheck).
		{"steps back", "stepped back 60.210000s (from 1.100000s to -59.110000s)", func(now time.Duration) (time.Duration, error) { return 2*time.Second - time.Minute - now, nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &clocked{Backend: haltest.New()}
			b.DSState = hal.DSState{Attached: true, Enabled: true}
			var d *Daemon
			var logs []string
			d, err := New(minimal(t), b, Options{Rate: 100, OSClock: func() time.Duration { return d.now },
				Logf: func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }})
			if err != nil {
				t.Fatal(err)
			}
			center := frc.PWMTalon.Center
			period := d.Loop.Period()
			// step runs a cycle with the arm commanded at 6 V and the
			// HAL's clock true, or faulty.
			healthy := true
			step := func() {
				b.Time = d.now + period
				if healthy {
					b.set(time.Second+b.Time, nil)
				} else {
					b.set(tc.fault(time.Second + b.Time))
				}
				if err := d.Loop.Controller("arm_voltage").Command(6, b.Time); err != nil {
					t.Fatal(err)
				}
				d.Step()
			}
			for range 10 {
				step()
			}
			if b.PWM[0].Pulse <= center || d.ClockFault() != "" {
				t.Fatalf("a true clock: PWM 0 %v, fault %q; want driven", b.PWM[0].Pulse, d.ClockFault())
			}
			healthy = false
			n := 0
			for ; b.PWM[0].Pulse != 0 && b.PWM[0].Pulse != center && n < 100; n++ {
				step()
			}
			if late := time.Duration(n) * period; late > 100*time.Millisecond {
				t.Errorf("neutral %v after the fault, want within 100 ms", late)
			}
			t.Logf("%s: neutral at cycle %d of the fault (%v of loop time)", tc.name, n, time.Duration(n)*period)
			line := d.StatusLine()
			if !strings.Contains(line, " disabled (HAL clock fault: "+tc.why) {
				t.Errorf("status line %q does not say %q", line, tc.why)
			}
			if err := d.Enable(true); err == nil || !strings.Contains(err.Error(), "the HAL clock is faulty: "+tc.why) {
				t.Errorf("Enable: %v", err)
			}
			st := findStatus(d.health(nil), "frcd: HAL clock")
			if st == nil || st.Level != ros.LevelError || !strings.Contains(st.Message, tc.why) {
				t.Errorf("diagnostics: %+v", st)
			}
			if len(logs) != 1 || !strings.Contains(logs[0], "the HAL clock "+tc.why) || !strings.Contains(logs[0], "every output neutral") {
				t.Errorf("log %q", logs)
			}
			for range 50 {
				step()
				if b.PWM[0].Pulse != 0 && b.PWM[0].Pulse != center {
					t.Fatalf("driven while the clock is faulty: PWM 0 %v", b.PWM[0].Pulse)
				}
			}
			// Healed: the clock true again; the robot enables after
			// clockSettle.
			healthy = true
			healedAt := d.now
			for b.PWM[0].Pulse <= center && d.now-healedAt < 2*clockSettle {
				step()
			}
			if took := d.now - healedAt; took < clockSettle || took > clockSettle+5*period || d.ClockFault() != "" {
				t.Errorf("driven again %v after the clock healed (fault %q), want after %v", took, d.ClockFault(), clockSettle)
			}
			if len(logs) != 2 || !strings.Contains(logs[1], "the robot may enable") {
				t.Errorf("log %q", logs)
			}
			if st := findStatus(d.health(nil), "frcd: HAL clock"); st == nil || st.Level != ros.LevelOK {
				t.Errorf("diagnostics when sane: %+v", st)
			}
		})
	}
}

// findStatus is the status of that name in sts, or nil.
func findStatus(sts []ros.Status, name string) *ros.Status {
	for i := range sts {
		if sts[i].Name == name {
			return &sts[i]
		}
	}
	return nil
}

// TestRunOnBrokenClocks: Run's deadlines are on the OS's clock: with the
// backend's clock standing still and the HAL clock stepped back an hour,
// the loop keeps its rate, runs disabled with every output neutral, and
// its context's end stops it at once.
func TestRunOnBrokenClocks(t *testing.T) {
	b := &clocked{Backend: haltest.New()}
	b.DSState = hal.DSState{Attached: true, Enabled: true}
	b.Time = time.Hour
	b.set(time.Hour, nil)
	var faulted atomic.Bool
	d, err := New(minimal(t), b, Options{Rate: 100, Priority: -1, Logf: func(f string, a ...any) {
		if strings.Contains(fmt.Sprintf(f, a...), "stepped back") {
			faulted.Store(true)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	ch := d.Loop.Notify()
	snap := d.Loop.NewSnapshot()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	waitCycles := func(n uint64) {
		t.Helper()
		for {
			<-ch
			if d.Loop.ReadSnapshot(snap); snap.Stats.Cycles >= n {
				return
			}
		}
	}
	waitCycles(3)
	b.set(0, nil)
	waitCycles(20)
	if !faulted.Load() || d.ClockFault() == "" {
		t.Errorf("no fault logged for the step back (fault %q)", d.ClockFault())
	}
	start := time.Now()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	t.Logf("Run returned %v after its context ended", took) // a figure, not asserted: no wall-clock assertions
	if p := b.PWM[0].Pulse; p != 0 && p != frc.PWMTalon.Center {
		t.Errorf("PWM 0 %v after Run", p)
	}
}

// TestClockFlappingFaultTellsOnce: a HAL clock that ticks 5 ms on every
// third 20 ms reading (a sticky read) reads stalled on one window and
// slow on the next. Its message (and so the "stays disabled" log line)
// changed 166 times in 10 s, each a fmt.Sprintf on the loop's
// goroutine. Now it is one fault whose message changes at most once per
// clockRetell, and a cycle of it allocates nothing.
func TestClockFlappingFaultTellsOnce(t *testing.T) {
	var c clockCheck
	var hal time.Duration
	changes, prev := 0, ""
	const step = 20 * time.Millisecond
	i := 0
	read := func() {
		os := time.Duration(i) * step
		if i%3 == 0 {
			hal += 5 * time.Millisecond
		}
		c.check(os, hal, nil, os+50*time.Microsecond)
		i++
	}
	for i < 500 { // 10 s
		read()
		if c.why != prev {
			changes++
			prev = c.why
		}
	}
	if c.faults != 1 || c.why == "" {
		t.Fatalf("%d faults, %q; want one lasting fault", c.faults, c.why)
	}
	if max := int(10*time.Second/clockRetell) + 1; changes > max {
		t.Errorf("the message changed %d times in 10 s; want at most %d (once, and once per clockRetell)", changes, max)
	}
	if allocs := testing.AllocsPerRun(300, read); allocs != 0 {
		t.Errorf("a cycle of the flapping fault allocates %v times", allocs)
	}
	// a step back is another fault's kind: told at once
	os := time.Duration(i) * step
	c.check(os, hal-time.Second, nil, os+50*time.Microsecond)
	if !strings.HasPrefix(c.why, "stepped back") || c.faults != 1 {
		t.Errorf("after a step back: %q, %d faults; want it told at once, the same fault", c.why, c.faults)
	}
}
