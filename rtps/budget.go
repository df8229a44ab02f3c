package rtps

// Send budgets: what the participant sends is bounded in total
// (Config.EgressLimit), repairs in total and per reader
// (Config.RepairLimit), so that no peer, and no address a peer names, can
// make it send more than a team allows (a robot's radio caps its
// bandwidth at a few Mbit/s).

import (
	"net/netip"
	"time"
)

// bucket is a token bucket of bytes on the participant's clock (the now
// of Handle and tick): Rate a second, Burst at most. A zero Rate is no
// limit.
type bucket struct {
	rate, burst, tokens float64
	last                time.Time
	started             bool
}

func newBucket(rate, burst float64) bucket { return bucket{rate: rate, burst: burst} }

// take takes n bytes at now when at least keep would be left.
func (b *bucket) take(now time.Time, n, keep float64) bool {
	if b.rate <= 0 {
		return true
	}
	switch {
	case !b.started:
		b.started, b.tokens, b.last = true, b.burst, now
	case now.After(b.last):
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
		b.last = now
	}
	if b.tokens-n < keep {
		return false
	}
	b.tokens -= n
	return true
}

// give gives back n bytes taken for a datagram another budget refused.
func (b *bucket) give(n float64) {
	if b.rate > 0 {
		b.tokens = min(b.burst, b.tokens+n)
	}
}

// sendClass says what a datagram is for, and so which budget it draws on.
type sendClass int

const (
	// earned: to a reader that acknowledges, the periodic announcement,
	// ACKNACKs to matched writers: it may use the whole budget.
	earned sendClass = iota
	// unearned: to readers that have not acknowledged, answers to new
	// participants: only what earned traffic leaves (the budget's upper
	// half).
	unearned
	// repair: a sample sent again, a GAP or heartbeat answering an
	// ACKNACK or NACK_FRAG: unearned, and within the repair budgets.
	repair
)

// egressBurst is the burst of the egress budget: a tenth of a second,
// and at least 64 KiB (a 64 kB sample at once).
func egressBurst(limit int) float64 { return max(float64(limit)/10, 64<<10) }

// admitSend says whether a datagram of n bytes to each of to may go out
// now, taking it from the budgets; a refusal is counted, and what the
// other budgets gave for it is given back (a reader's repair share is
// not spent on a repair the participant's budget refused).
func (p *Participant) admitSend(n int, to []netip.AddrPort, class sendClass, r *readerProxy) bool {
	size := float64(n * len(to))
	keep := 0.0
	if class != earned {
		keep = p.egress.burst / 2
	}
	if class == repair {
		if !r.repair.take(p.now, size, 0) {
			p.stats.repairsDropped.Add(1)
			return false
		}
		if !p.repairs.take(p.now, size, 0) {
			r.repair.give(size)
			p.stats.repairsDropped.Add(1)
			return false
		}
	}
	if !p.egress.take(p.now, size, keep) {
		if class == repair {
			r.repair.give(size)
			p.repairs.give(size)
		}
		p.stats.sendDropped.Add(1)
		return false
	}
	return true
}
