package daemon

import "time"

// spinner decides how long before each deadline the real-time loop stops
// sleeping and spins on the clock. Spinning trades CPU for jitter: a sleep
// wakes late by the kernel's and the scheduler's latency, a spin does not.
// A fixed spin is either wasted (the wake-ups are punctual) or too short
// (they are not), so by default the spinner measures how late each sleep
// wakes and spins only as long as the late tail needs: a running estimate
// of the 99th percentile of the lateness, plus a margin.
type spinner struct {
	fixed    time.Duration // > 0: always this long; adaptive when 0
	adaptive bool
	max      time.Duration // the adaptive spin's ceiling
	q99      time.Duration // running estimate of the lateness' 99th percentile
}

const (
	// spinMargin is added to the lateness estimate: the wake-up's own
	// work (the poller, the clock reads) beyond what lateness measures.
	spinMargin = 10 * time.Microsecond
	// spinStep is the estimator's step down: a lateness above the
	// estimate raises it by 99 steps, one at or below lowers it by one,
	// so it settles where 1 % of the wake-ups are later than it.
	spinStep = 100 * time.Nanosecond
	// spinStart is the estimate before anything is measured.
	spinStart = 50 * time.Microsecond
	// spinFastest is the longest period that spins by default: slower
	// loops sleep to their deadlines (a 100 µs late wake-up is 1 % of a
	// 10 ms period).
	spinFastest = 2 * time.Millisecond
)

// newSpinner takes Options.Spin: negative never spins, positive spins
// that long, 0 spins adaptively at periods of spinFastest and less, else
// never.
func newSpinner(spin, period time.Duration) spinner {
	switch {
	case spin > 0:
		return spinner{fixed: spin}
	case spin == 0 && period <= spinFastest:
		return spinner{adaptive: true, max: period / 10, q99: spinStart}
	}
	return spinner{}
}

// lead is how long before the deadline to wake.
func (s *spinner) lead() time.Duration {
	if !s.adaptive {
		return s.fixed
	}
	return min(s.q99+spinMargin, s.max)
}

// spins says whether the loop spins out the rest after waking.
func (s *spinner) spins() bool { return s.fixed > 0 || s.adaptive }

// woke records how late a sleep woke (negative: early).
func (s *spinner) woke(late time.Duration) {
	if !s.adaptive {
		return
	}
	if late > s.q99 {
		s.q99 = min(s.q99+99*spinStep, s.max)
	} else if s.q99 >= spinStep {
		s.q99 -= spinStep
	}
}
