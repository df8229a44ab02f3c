//go:build linux

package daemon

import (
	"syscall"
	"time"
)

// sleep blocks the calling OS thread for d with nanosleep: Go's timers
// wake about a millisecond late on Linux (their wait has millisecond
// resolution), far too coarse for a 1 kHz loop. Interrupted sleeps resume.
func sleep(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	for {
		var rem syscall.Timespec
		if err := syscall.Nanosleep(&ts, &rem); err != syscall.EINTR {
			return
		}
		ts = rem
	}
}
