package ros2bridge

import (
	"testing"
)

// TestWaker: a wake before the wait is kept, several count as one, the
// loop's side allocates nothing, and close ends a waiting wait and every
// later one; wake after close does nothing. Both kinds: this platform's
// (an eventfd on Linux) and the channel.
func TestWaker(t *testing.T) {
	for name, w := range map[string]interface {
		wake()
		wait() bool
		close()
	}{"platform": newWaker(), "channel": newChanWaker()} {
		w.wake()
		w.wake()
		if !w.wait() {
			t.Fatalf("%s: wait after two wakes: closed", name)
		}
		if a := testing.AllocsPerRun(100, w.wake); a != 0 {
			t.Errorf("%s: wake allocates %v times", name, a)
		}
		if !w.wait() {
			t.Fatalf("%s: wait after wakes: closed", name)
		}
		done := make(chan bool)
		go func() { done <- w.wait() }() // nothing to take: it waits
		w.close()
		if <-done {
			t.Errorf("%s: a wait across close returned a wake", name)
		}
		w.wake()
		w.close()
		if w.wait() {
			t.Errorf("%s: wait after close returned a wake", name)
		}
	}
}
