package daemon

import (
	"testing"
	"time"
)

// TestWaiterUsesTimerfd: on Linux the loop sleeps on its timerfd, and
// keeps it through sleeps (a failed arm or read falls back to nanosleep).
func TestWaiterUsesTimerfd(t *testing.T) {
	w := newWaiter()
	defer w.close()
	if w.f == nil {
		t.Fatal("no timerfd: the loop would sleep in nanosleep")
	}
	for i := 0; i < 3; i++ {
		w.sleep(50 * time.Microsecond)
	}
	if w.f == nil {
		t.Error("the timerfd was given up after a sleep")
	}
}
