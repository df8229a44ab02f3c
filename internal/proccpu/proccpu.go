// Package proccpu reads a child process's CPU time while it runs, for
// `make bench`'s measures (internal/cpubench, internal/ros2bench).
package proccpu

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"syscall"
	"time"
	"unsafe"
)

// CPU is the process's user + sys CPU time so far, from the kernel's
// process CPU clock (clock_gettime of CPUCLOCK_SCHED on pid: the
// accounting getrusage reports once the child is waited for), readable
// while it runs.
func CPU(pid int) (time.Duration, error) {
	clock := (^pid)<<3 | 2
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, uintptr(clock), uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, fmt.Errorf("the CPU clock of pid %d: %w", pid, errno)
	}
	return time.Duration(ts.Nano()), nil
}

// Exited says whether the child has exited (a zombie not yet waited for
// still has a CPU clock).
func Exited(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] == 'Z' || b[i+2] == 'X'
}

// PerMinute measures the running child pid as both benches do: it lets it
// run warm, then measure, and returns its CPU seconds per minute of wall
// clock over measure. A child that exits meanwhile is an error.
func PerMinute(pid int, warm, measure time.Duration) (float64, error) {
	time.Sleep(warm) // the child runs meanwhile
	t0, err := CPU(pid)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	time.Sleep(measure)
	t1, err := CPU(pid)
	if err == nil && Exited(pid) {
		err = errors.New("exited before the end of its measure")
	}
	if err != nil {
		return 0, err
	}
	return (t1 - t0).Seconds() / time.Since(start).Seconds() * 60, nil
}

// Median is the median of xs, NaN when there are none; xs is not changed.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
