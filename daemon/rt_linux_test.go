//go:build linux

package daemon

import (
	"errors"
	"syscall"
	"testing"
)

// raisePriority gives the calling thread SCHED_FIFO where the process may,
// and restore takes it back; where it may not, it fails with EPERM and
// leaves the thread as it was. Which of the two happens depends on the
// machine (root or CAP_SYS_NICE, RLIMIT_RTPRIO): each is checked when it
// happens.
func TestRaisePriority(t *testing.T) {
	done := make(chan struct{})
	go func() { // a goroutine of its own: the test's thread is left alone
		defer close(done)
		restore, err := raisePriority(DefaultPriority)
		if err != nil {
			if !errors.Is(err, syscall.EPERM) || threadPolicy() != schedOther {
				t.Errorf("raisePriority failed with %v, policy %d: want EPERM and the normal policy", err, threadPolicy())
			}
			t.Logf("not permitted here: %v", err)
			return
		}
		if p := threadPolicy(); p != schedFIFO {
			t.Errorf("policy after raisePriority: %d, want SCHED_FIFO", p)
		}
		restore()
		if p := threadPolicy(); p != schedOther {
			t.Errorf("policy after restore: %d, want SCHED_OTHER", p)
		}
	}()
	<-done
	if _, err := raisePriority(100); err == nil {
		t.Error("priority 100 accepted")
	}
}
