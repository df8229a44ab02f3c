package control

import (
	"math/bits"
	"time"
)

// Histogram counts durations in power-of-two buckets of microseconds:
// bucket 0 holds < 1 µs, bucket k holds [2^(k-1), 2^k) µs, the last holds
// everything longer. It does not allocate.
type Histogram struct {
	Buckets [24]uint64
	Count   uint64
	Sum     time.Duration
	Max     time.Duration
}

// Add records one duration.
func (h *Histogram) Add(d time.Duration) {
	if d < 0 {
		d = 0
	}
	us := uint64(d / time.Microsecond)
	k := bits.Len64(us)
	if k >= len(h.Buckets) {
		k = len(h.Buckets) - 1
	}
	h.Buckets[k]++
	h.Count++
	h.Sum += d
	if d > h.Max {
		h.Max = d
	}
}

// Quantile estimates the q-quantile (0 to 1) as the upper bound of the
// bucket it falls in, capped at Max: an upper estimate within a factor of 2.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.Count == 0 {
		return 0
	}
	rank := uint64(q*float64(h.Count-1)) + 1
	var seen uint64
	for k, n := range h.Buckets {
		seen += n
		if seen >= rank {
			upper := time.Duration(uint64(1)<<k) * time.Microsecond
			return min(upper, h.Max)
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
	Stale        uint64 // times a command expired (its output went neutral)
	Blocked      uint64 // cycles a limit switch zeroed a voltage
	NoFeedback   uint64 // cycles a PID had no measurement and went neutral
	DeviceErrors uint64 // failed device reads and writes
	Disabled     uint64 // cycles run disabled or e-stopped
}
