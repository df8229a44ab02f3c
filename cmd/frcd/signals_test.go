package main

import (
	"os"
	"testing"
)

// TestSecondSignal: the first signal cancels (the daemon halts and
// returns); a second, while shutdown hangs, calls the hard stop.
func TestSecondSignal(t *testing.T) {
	sigs := make(chan os.Signal)
	done := make(chan struct{})
	cancelled, hard := make(chan struct{}), make(chan struct{})
	returned := make(chan struct{})
	go func() {
		defer close(returned)
		watchSignals(sigs, done, func() { close(cancelled) }, func() { close(hard) })
	}()
	sigs <- os.Interrupt
	<-cancelled
	select {
	case <-hard:
		t.Fatal("one signal stopped hard")
	default:
	}
	sigs <- os.Interrupt // unbuffered: taken once the first is handled
	<-hard
	<-returned
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
