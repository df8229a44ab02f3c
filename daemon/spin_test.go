package daemon

import (
	"math/rand"
	"testing"
	"time"
)

// TestSpinnerModes: Options.Spin's three meanings.
func TestSpinnerModes(t *testing.T) {
	ms := time.Millisecond
	if s := newSpinner(-1, ms); s.spins() || s.lead() != 0 {
		t.Errorf("negative spin: spins %v, lead %v", s.spins(), s.lead())
	}
	if s := newSpinner(0, 10*ms); s.spins() || s.lead() != 0 {
		t.Errorf("default at 100 Hz: spins %v, lead %v; want a plain sleep", s.spins(), s.lead())
	}
	s := newSpinner(300*time.Microsecond, 10*ms)
	s.woke(5 * ms)
	if !s.spins() || s.lead() != 300*time.Microsecond {
		t.Errorf("fixed spin: spins %v, lead %v; want 300µs whatever the lateness", s.spins(), s.lead())
	}
	if s := newSpinner(0, ms); !s.spins() || s.lead() != spinStart+spinMargin {
		t.Errorf("default at 1 kHz: spins %v, lead %v; want adaptive from %v", s.spins(), s.lead(), spinStart+spinMargin)
	}
}

// TestSpinnerTracksLateness: fed wake-ups whose lateness has a known 99th
// percentile, the adaptive lead settles near it plus the margin, follows
// it down when the wake-ups get punctual, and never passes its ceiling.
func TestSpinnerTracksLateness(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	us := time.Microsecond
	// 99 % of the wake-ups 0-20 µs late, 1 % 20-40 µs: p99 = 20 µs.
	late := func() time.Duration {
		if rng.Intn(100) == 0 {
			return 20*us + time.Duration(rng.Int63n(int64(20*us)))
		}
		return time.Duration(rng.Int63n(int64(20 * us)))
	}
	s := newSpinner(0, time.Millisecond)
	for i := 0; i < 20000; i++ {
		s.woke(late())
	}
	if got := s.lead() - spinMargin; got < 10*us || got > 35*us {
		t.Errorf("after a p99 of 20µs the estimate is %v; want 10-35µs", got)
	}
	for i := 0; i < 20000; i++ {
		s.woke(-us) // early: punctual
	}
	if got := s.lead(); got != spinMargin {
		t.Errorf("after punctual wake-ups the lead is %v; want the margin %v", got, spinMargin)
	}
	for i := 0; i < 1000; i++ {
		s.woke(5 * time.Millisecond) // a machine far too loaded to help
	}
	if got, max := s.lead(), time.Millisecond/10; got != max {
		t.Errorf("under huge lateness the lead is %v; want the ceiling %v", got, max)
	}
}

// TestWaiterSleepsAndDoesNotAllocate: a sleep lasts at least what was
// asked, and the loop's wait allocates nothing.
func TestWaiterSleepsAndDoesNotAllocate(t *testing.T) {
	w := newWaiter()
	defer w.close()
	for _, d := range []time.Duration{time.Microsecond, 200 * time.Microsecond} {
		start := time.Now()
		w.sleep(d)
		if got := time.Since(start); got < d {
			t.Errorf("sleep(%v) returned after %v", d, got)
		}
	}
	if allocs := testing.AllocsPerRun(200, func() { w.sleep(20 * time.Microsecond) }); allocs != 0 {
		t.Errorf("a sleep allocates %v times", allocs)
	}
}
