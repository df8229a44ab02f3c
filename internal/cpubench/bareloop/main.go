// Command bareloop is the reference of `make bench` (internal/cpubench)
// for the real-time loop's CPU: a bare Go loop on a locked OS thread that
// sleeps to absolute deadlines at --rate Hz (clock_nanosleep with
// TIMER_ABSTIME, the textbook real-time loop) and does nothing else, until
// SIGTERM or --for. With --rt-priority N its thread runs at SCHED_FIFO N,
// as frcd's loop thread does (internal/wakebench compares the two at the
// same priority).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

func main() {
	rate := flag.Float64("rate", 100, "cycles a second")
	dur := flag.Duration("for", 0, "stop after this long (0: at SIGTERM)")
	prio := flag.Int("rt-priority", 0, "the thread's SCHED_FIFO priority (1-99); 0: the normal priority")
	flag.Parse()
	if *rate <= 0 {
		fmt.Fprintln(os.Stderr, "bareloop: --rate must be positive")
		os.Exit(2)
	}
	runtime.LockOSThread()
	if *prio > 0 {
		param := struct{ prio int32 }{int32(*prio)}
		if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETSCHEDULER, 0, 1 /* SCHED_FIFO */, uintptr(unsafe.Pointer(&param))); e != 0 {
			fmt.Fprintf(os.Stderr, "bareloop: SCHED_FIFO %d: %v\n", *prio, e)
			os.Exit(1)
		}
	}
	period := int64(float64(time.Second) / *rate)
	var ts syscall.Timespec
	now := func() int64 {
		syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, 1 /* CLOCK_MONOTONIC */, uintptr(unsafe.Pointer(&ts)), 0)
		return ts.Nano()
	}
	next := now()
	end := int64(1<<63 - 1)
	if *dur > 0 {
		end = next + int64(*dur)
	}
	for next < end {
		next += period
		deadline := syscall.NsecToTimespec(next)
		for {
			_, _, errno := syscall.Syscall6(syscall.SYS_CLOCK_NANOSLEEP, 1, 1 /* TIMER_ABSTIME */, uintptr(unsafe.Pointer(&deadline)), 0, 0, 0)
			if errno != syscall.EINTR {
				break
			}
		}
	}
}
