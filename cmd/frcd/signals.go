package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// exitPanic: frcd run stopped on a panic (every output made neutral).
// exitSignal: a second SIGINT or SIGTERM ended frcd run at once.
const (
	exitPanic  = 5
	exitSignal = 130
)

// hardStopWait bounds the best-effort halt of a second signal.
const hardStopWait = 300 * time.Millisecond

// stopOnSignals returns a context that ends at the first SIGINT or
// SIGTERM (the daemon then halts and returns). A second signal, while that
// shutdown has not finished, calls hardStop at once: it makes the outputs
// neutral as best it can and exits. stop releases the signals.
func stopOnSignals(hardStop func()) (ctx context.Context, stop func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go watchSignals(sigs, done, cancel, hardStop)
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}

// watchSignals cancels at the first signal and calls hardStop at the
// second, until done.
func watchSignals(sigs <-chan os.Signal, done <-chan struct{}, cancel, hardStop func()) {
	for n := 0; ; n++ {
		select {
		case <-done:
			return
		case <-sigs:
		}
		if n == 0 {
			cancel()
			continue
		}
		hardStop()
		return
	}
}

// bestEffort runs halt, giving up after hardStopWait: a second signal
// comes when shutdown hangs, perhaps in that very halt.
func bestEffort(halt func() error) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { _ = recover() }()
		_ = halt()
	}()
	t := time.NewTimer(hardStopWait)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}
