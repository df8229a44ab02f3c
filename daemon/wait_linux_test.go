package daemon

import (
	"testing"
	"time"
)

// TestWaiterUsesTimerfd: on Linux the loop sleeps on its timerfd, and
// keeps it through sleeps (a failed arm or read falls back to nanosleep).
func TestWaiterUsesTimerfd(t *testing.T) {
	w := newWaiter(false)
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

// On a real-time thread the waiter blocks on its timerfd in the kernel,
// sleeps at least as long as asked, keeps the fd, yields and allocates
// nothing.
func TestBlockingWaiter(t *testing.T) {
	w := newWaiter(true)
	defer w.close()
	if w.fd == 0 || w.f != nil {
		t.Fatalf("blocking waiter: fd %d, poller file %v", w.fd, w.f)
	}
	start := time.Now()
	w.sleep(2 * time.Millisecond)
	if got := time.Since(start); got < 2*time.Millisecond {
		t.Errorf("slept %v, asked 2ms", got)
	}
	if n := testing.AllocsPerRun(5, func() { w.sleep(50 * time.Microsecond) }); n != 0 {
		t.Errorf("%v allocations a sleep", n)
	}
	if w.fd == 0 {
		t.Error("the timerfd was given up after a sleep")
	}
	// It yields before blocking (the first sleep at least: yielded
	// starts at the zero time), so that sysmon sees its schedtick move.
	if w.yielded.IsZero() {
		t.Error("the blocking sleep never yielded to the scheduler")
	}
}
