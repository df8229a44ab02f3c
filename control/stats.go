package control

import (
	"math/bits"
	"time"
)

// Histogram counts durations in log-linear buckets: four per power of two
// from 128 ns up (so a bucket's upper bound is within 19% of any value in
// it), one for everything shorter and one for everything beyond ~69 s.
// It does not allocate.
type Histogram struct {
	Buckets [histBuckets]uint64
	Count   uint64
	Sum     time.Duration
	Max     time.Duration
}

const (
	histMinShift = 7  // the first octave starts at 2^7 ns
	histOctaves  = 29 // up to 2^36 ns, about 69 s
	histSub      = 4  // buckets per octave
	histBuckets  = 1 + histOctaves*histSub + 1
)

func histIndex(d time.Duration) int {
	ns := uint64(d)
	if ns < 1<<histMinShift {
		return 0
	}
	oct := bits.Len64(ns) - 1 - histMinShift // ns in [2^(oct+7), 2^(oct+8))
	if oct >= histOctaves {
		return histBuckets - 1
	}
	sub := int(ns>>(uint(oct+histMinShift)-2)) & (histSub - 1)
	return 1 + oct*histSub + sub
}

// histUpper is the exclusive upper bound of bucket k.
func histUpper(k int) time.Duration {
	if k == 0 {
		return 1 << histMinShift
	}
	if k >= histBuckets-1 {
		return time.Duration(1<<63 - 1)
	}
	oct, sub := (k-1)/histSub, (k-1)%histSub
	base := uint64(1) << uint(oct+histMinShift)
	return time.Duration(base + base/histSub*uint64(sub+1))
}

// Add records one duration.
func (h *Histogram) Add(d time.Duration) {
	if d < 0 {
		d = 0
	}
	h.Buckets[histIndex(d)]++
	h.Count++
	h.Sum += d
	if d > h.Max {
		h.Max = d
	}
}

// Quantile estimates the q-quantile (0 to 1) as the upper bound of the
// bucket it falls in, capped at Max.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.Count == 0 {
		return 0
	}
	rank := uint64(q*float64(h.Count-1)) + 1
	var seen uint64
	for k, n := range h.Buckets {
		seen += n
		if seen >= rank {
			return min(histUpper(k), h.Max)
		}
	}
	return h.Max
}

// Mean is the average duration.
func (h *Histogram) Mean() time.Duration {
	if h.Count == 0 {
		return 0
	}
	return h.Sum / time.Duration(h.Count)
}

// Phase names the parts of a cycle, for Stats.Phase.
type Phase int

const (
	PhaseRead Phase = iota
	PhaseMerge
	PhaseControl
	PhaseSafety
	PhaseWrite
	phases
)

func (p Phase) String() string {
	return [...]string{"read", "merge", "control", "safety", "write"}[p]
}

// Stats are the loop's timing figures and counters.
type Stats struct {
	Cycles uint64
	// Period is the time between successive cycles' start (from Cycle's
	// now); Jitter is its distance from the nominal period.
	Period Histogram
	Jitter Histogram
	// Busy is the time a whole cycle took (by the Stopwatch), Phase each
	// phase's share.
	Busy  Histogram
	Phase [phases]Histogram
	// Overruns counts cycles that started later than 1.5 nominal periods
	// after the previous one.
	Overruns uint64
	Counters
}

// Counters count what the loop refused or made neutral.
type Counters struct {
	Refused      uint64 // commands refused: not finite, or not a valid tri-state
	Clamped      uint64 // times a joint's position or velocity command handle was held to its limit (ranges.go handleLimit)
	Stale        uint64 // times a command expired (its output went neutral)
	Blocked      uint64 // cycles a limit switch zeroed a voltage
	NoFeedback   uint64 // cycles a PID had no measurement and went neutral
	DeviceErrors uint64 // failed device reads and writes
	Disabled     uint64 // cycles run disabled, e-stopped or inhibited
	Inhibited    uint64 // cycles run disabled because the loop was inhibited (Loop.Inhibit)
}
