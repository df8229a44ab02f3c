package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"sync"
	"syscall"
	"time"
)

// exitPanic: frcd run stopped on a panic (every output made neutral).
// exitSignal: a second stopping signal ended frcd run at once.
const (
	exitPanic  = 5
	exitSignal = 130
)

// hardStopWait bounds the best-effort halt of a second signal.
const hardStopWait = 300 * time.Millisecond

// Every signal that would end a Go program, caught so that it ends frcd
// only after every output is neutral (Go's own handling of each: the
// os/signal package's "Default behavior of signals in Go programs").
var (
	// stopSignals end a Go program at once; here they stop frcd as
	// SIGTERM does, exit 0 once every output is neutral.
	stopSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}
	// dumpSignals end a Go program with a goroutine dump (exit 2); here
	// the dump comes after the halt, and frcd exits 128 + the signal's
	// number, as a shell reports a process the signal ended.
	dumpSignals = []os.Signal{syscall.SIGQUIT, syscall.SIGILL, syscall.SIGTRAP, syscall.SIGABRT, syscall.SIGSYS}
)

// SIGPIPE is caught and dropped: a status line written to a closed pipe
// (`frcd run ... | head`) fails with EPIPE instead of ending frcd with
// its outputs as they were. SIGUSR1, SIGUSR2 and the rest are caught and
// ignored by Go's runtime already: they never end frcd.

// signals is what stopOnSignals tells of the signals that came.
type signals struct {
	mu   sync.Mutex
	dump os.Signal // the first dump signal, or nil
	pipe uint64    // SIGPIPEs dropped
}

// Dump is the dump signal that came, or nil (nil too on a nil s).
func (s *signals) Dump() os.Signal {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dump
}

// exitCode is 128 + sig's number, or fallback for another os.Signal.
func exitCode(sig os.Signal, fallback int) int {
	if n, ok := sig.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return fallback
}

// stopOnSignals returns a context that ends at the first stopping or
// dumping signal (the daemon then halts and returns). A second one, while
// that shutdown has not finished, calls hardStop at once: it makes the
// outputs neutral as best it can and exits. stop releases the signals.
func stopOnSignals(hardStop func(*signals)) (ctx context.Context, sigs *signals, stop func()) {
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, append(append([]os.Signal{syscall.SIGPIPE}, stopSignals...), dumpSignals...)...)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	sigs = &signals{}
	go sigs.watch(ch, done, cancel, func() { hardStop(sigs) })
	return ctx, sigs, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}

// watch cancels at the first stopping or dumping signal and calls
// hardStop at the second, until done. It remembers the first dump
// signal and drops SIGPIPE.
func (s *signals) watch(ch <-chan os.Signal, done <-chan struct{}, cancel, hardStop func()) {
	for n := 0; ; {
		var sig os.Signal
		select {
		case <-done:
			return
		case sig = <-ch:
		}
		s.mu.Lock()
		if sig == syscall.SIGPIPE {
			s.pipe++
			s.mu.Unlock()
			continue
		}
		if s.dump == nil && isDump(sig) {
			s.dump = sig
		}
		s.mu.Unlock()
		if n++; n == 1 {
			cancel()
			continue
		}
		hardStop()
		return
	}
}

func isDump(sig os.Signal) bool {
	for _, d := range dumpSignals {
		if d == sig {
			return true
		}
	}
	return false
}

// dumpGoroutines writes every goroutine's stack to w, as Go's own
// SIGQUIT handler would, but after the outputs are neutral.
func dumpGoroutines(w io.Writer, sig os.Signal) {
	fmt.Fprintf(w, "frcd: %v: every output neutral; the goroutines:\n", sig)
	_ = pprof.Lookup("goroutine").WriteTo(w, 2)
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
