// Package proccpu reads a child process's CPU time while it runs, for
// `make bench`'s measures (internal/cpubench, internal/ros2bench).
package proccpu

import (
	"bytes"
	"fmt"
	"os"
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
