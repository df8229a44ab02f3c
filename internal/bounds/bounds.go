// Package bounds holds test helpers for the work an input may cost: that
// a step grows linearly (or n log n) with the input's size, and that a fuzz
// target fails on a slow input, not only on a panic.
package bounds

import (
	"flag"
	"runtime"
	"testing"
	"time"
)

// MaxRatio is the largest time ratio Linear accepts between a run on 4n
// and a run on n: linear work gives about 4, n log n about 4.6, quadratic
// work 16.
const MaxRatio = 9

// Linear times run(n) and run(4n), each the fastest of five runs in CPU
// time, and fails when the larger input costs more than MaxRatio times the
// smaller: a ratio of two times measured in the same run, not a
// wall-clock bound.
// A machine busy with other work can disturb one measurement, so a ratio
// over the bound is measured again, up to three times in all; work that
// really grows too fast exceeds it every time. n should make run(n) take a
// millisecond at least.
func Linear(t testing.TB, n int, run func(n int)) {
	t.Helper()
	var small, large time.Duration
	var ratio float64
	for try := 0; try < 3; try++ {
		small, large = fastest(n, run), fastest(4*n, run)
		ratio = float64(large) / float64(max(small, time.Microsecond))
		t.Logf("n=%d: %v, 4n=%d: %v, ratio %.1f", n, small, 4*n, large, ratio)
		if ratio <= MaxRatio {
			return
		}
	}
	t.Errorf("work grows faster than n log n: %v for n=%d, %v for 4n (ratio %.1f > %d, three times)", small, n, large, ratio, MaxRatio)
}

// fastest is the least CPU time of five runs of run(n) on this goroutine's
// thread (locked to it): time the machine's other work takes from the
// thread is not counted, which wall time counted (TestLinear failed under
// load with linear work).
func fastest(n int, run func(n int)) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	best := time.Duration(1<<63 - 1)
	for i := 0; i < 5; i++ {
		runtime.GC() // the last run's garbage is not this run's work
		start := threadTime()
		run(n)
		best = min(best, threadTime()-start)
	}
	return best
}

// FuzzInput is how much CPU time one fuzz input may take while fuzzing.
const FuzzInput = time.Second

// Slow returns a function to defer in a fuzz target's body: while fuzzing
// (go test -fuzz), it fails the input when it took more than FuzzInput of
// the process's CPU time (user and system, every thread: the GC's work
// counts), so that the fuzzer reports and keeps inputs that make work
// explode, not only panics. CPU time, not wall time: a fuzz worker
// starved by other work on the machine must not report a fast input as
// slow (wall time did, at 1.3 s for an input that takes 0.1 ms). Outside
// fuzzing (the seed corpus under go test, -race on a loaded machine) it
// checks nothing.
func Slow(t *testing.T) func() {
	if f := flag.Lookup("test.fuzz"); f == nil || f.Value.String() == "" {
		return func() {}
	}
	start := cpuTime()
	return func() {
		if d := cpuTime() - start; d > FuzzInput {
			t.Fatalf("input took %v of CPU time, over the %v bound", d, FuzzInput)
		}
	}
}
