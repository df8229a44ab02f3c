package sim

import (
	"sync/atomic"
	"time"
)

// clock is the sim's hal.Clock. In manual mode it reads the time the
// physics has been advanced to; in real-time mode it follows the wall
// clock from when the Sim was made, and the loop advances the physics to
// it.
type clock struct {
	realTime bool
	start    time.Time
	manual   atomic.Int64 // ns, manual mode
}

func newClock(realTime bool) *clock {
	// The one place the sim reads the wall clock. A manual clock keeps it
	// only as the epoch of its time stamps.
	return &clock{realTime: realTime, start: time.Now()}
}

// Now is the time since the Sim was made.
func (c *clock) Now() time.Duration {
	if c.realTime {
		return time.Since(c.start)
	}
	return time.Duration(c.manual.Load())
}

// advanced records that the physics reached t (manual mode's Now).
func (c *clock) advanced(t time.Duration) { c.manual.Store(int64(t)) }
