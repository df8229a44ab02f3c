// Package ratelimit is the token bucket frcd's logs share (NT4's
// refusals, /rosout, refused ROS commands): a burst at once, then a rate,
// and the count of what was held back, said with the next that passes.
package ratelimit

import (
	"fmt"
	"sync"
	"time"
)

// Limiter lets Burst events pass at once, then Rate a second. The zero
// Limiter with Rate and Burst set is ready; not safe for concurrent use.
type Limiter struct {
	Rate, Burst float64

	started bool
	last    time.Duration
	tokens  float64
	held    uint64
}

// Allow takes a token at time now: ok when the event may pass, with the
// count of the events held back since the last one that passed.
func (l *Limiter) Allow(now time.Duration) (ok bool, held uint64) {
	if !l.started {
		l.started, l.tokens = true, l.Burst
	} else {
		l.tokens = min(l.Burst, l.tokens+max(0, (now-l.last).Seconds())*l.Rate)
	}
	l.last = now
	if l.tokens < 1 {
		l.held++
		return false, 0
	}
	l.tokens--
	held, l.held = l.held, 0
	return true, held
}

// Hold counts an event held back for another reason (a full queue): it
// is said with the next that passes.
func (l *Limiter) Hold() { l.held++ }

// Refusals limits the log lines of refused input (commands, pushes,
// parameters) from any goroutine, Burst at once then Rate a second: a
// Refusals with Rate and Burst set is ready (with neither, it lets no
// line pass).
type Refusals struct {
	Rate, Burst float64

	mu sync.Mutex
	l  Limiter
}

// Allow says whether a refusal at now may be logged, and what the line
// adds for those held back since the last: "" or " (and N more refused)".
func (r *Refusals) Allow(now time.Duration) (ok bool, more string) {
	r.mu.Lock()
	r.l.Rate, r.l.Burst = r.Rate, r.Burst
	ok, held := r.l.Allow(now)
	r.mu.Unlock()
	if ok && held > 0 {
		more = fmt.Sprintf(" (and %d more refused)", held)
	}
	return ok, more
}
