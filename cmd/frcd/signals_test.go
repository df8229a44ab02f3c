package main

import (
	"os"
	"syscall"
	"testing"
)

// TestSecondSignal: the first signal cancels (the daemon halts and
// returns); a second, while shutdown hangs, calls the hard stop.
func TestSecondSignal(t *testing.T) {
	sigs := make(chan os.Signal)
	done := make(chan struct{})
	cancelled, hard := make(chan struct{}), make(chan struct{})
	returned := make(chan struct{})
	s := &signals{}
	go func() {
		defer close(returned)
		s.watch(sigs, done, func() { close(cancelled) }, func() { close(hard) })
	}()
	sigs <- syscall.SIGPIPE // dropped: not a stop
	sigs <- syscall.SIGPIPE
	sigs <- os.Interrupt
	<-cancelled
	select {
	case <-hard:
		t.Fatal("one signal stopped hard")
	default:
	}
	sigs <- syscall.SIGQUIT // unbuffered: taken once the first is handled
	<-hard
	<-returned
	if s.Dump() != syscall.SIGQUIT || s.pipe != 2 {
		t.Errorf("dump %v (want SIGQUIT), %d SIGPIPEs (want 2)", s.Dump(), s.pipe)
	}
}

// TestBestEffortGivesUp: a halt that hangs does not hold the hard stop
// (it gives up after hardStopWait); one that panics is survived.
func TestBestEffortGivesUp(t *testing.T) {
	hang := make(chan struct{})
	defer close(hang)
	bestEffort(func() error { <-hang; return nil })
	bestEffort(func() error { panic("halt panicked") })
	ran := false
	bestEffort(func() error { ran = true; return nil })
	if !ran {
		t.Error("the halt did not run")
	}
}
