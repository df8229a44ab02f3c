//go:build linux

package daemon

import (
	"syscall"
	"time"
	"unsafe"
)

// waiter puts the real-time loop to sleep between cycles. On Linux it is
// a timerfd, read with a blocking system call (blockingRead) that gives
// the thread's P up for the sleep, as the runtime does for a system call
// it knows blocks: the timer wakes the thread itself, at its own priority
// and without the timer slack nanosleep adds (Go's own timers round to the
// millisecond), and the goroutine goes on where it slept. At SCHED_FIFO
// its goroutine is locked to its thread (raisePriority); at the normal
// priority it is not.
//
// `frcd run` keeps the runtime's monitor thread (sysmon) awake
// (GODEBUG=schedtrace, cmd/frcd/sysmon.go): it polls every 10 ms on its
// own timer instead of sleeping deeply while the loop sleeps. The waiter
// works without it, at a cost: sysmon then sleeps deeply with every P
// idle, and the wake-up (the read's return taking a P, or the cycle's
// first cgo call) wakes it with its 20 µs polling restarted, two or three
// wake-ups of sysmon a cycle.
//
// Why not a plain blocking read (syscall.Syscall, which keeps the P): a
// goroutine locked to its thread never passes through the scheduler, so
// its P's schedule count stands still, and sysmon treats the thread as
// one that has run too long. It takes the P from the sleeping thread; the
// thread's wake-up then needs a P, and sysmon, finding the cycle running
// Go code, preempts it, a hand-off through another thread mid-cycle, then
// polls on (20 µs, then doubling): 1,100-2,300 wake-ups a second at 100 Hz
// (a bare Go loop makes 400). A cgo call a cycle is enough to start it: a
// cgo call is a system call to the runtime. With the P given up at once
// (internal/wakebench, SCHED_FIFO 10, 7 rounds): 340 wake-ups a second,
// against 1,157 with syscall.Syscall.
//
// Why not the runtime's network poller (the timerfd non-blocking, waited
// on through a RawConn, as frcd did at the normal priority): the wake-up
// comes through whichever thread waits in the poller, so the loop's
// goroutine moves between threads, and each cycle costs the poller's
// calls. wakebench at the normal priority, 7 rounds, against the poller
// with sysmon sleeping deeply: 0.82 of its CPU with sysmon awake, 0.71
// with sysmon awake and the blocking read.
//
// On waking, the read's return (exitsyscall) takes an idle P. With every
// P running other goroutines, the loop's goroutine goes on the global run
// queue and waits (at SCHED_FIFO its thread parks, stoplockedm) until a
// thread entering the scheduler as its goroutine blocks, yields or is
// preempted (by sysmon after 10 ms) takes it from there (a P reads that
// queue when its own is empty, and at every 61st schedule), and at
// SCHED_FIFO hands it its P (startlockedm). A wake-up through the poller
// waited for a P the same way.
//
// It does not yield (runtime.Gosched) before blocking, though that keeps
// the locked goroutine's schedtick fresh and so sysmon quiet: the yield
// of a goroutine locked to its thread parks that thread until another
// thread, at normal priority, hands the goroutine back (runtime
// stoplockedm/startlockedm), and on a machine loaded by normal-priority
// work that thread waits its turn for longer than the period, so the next
// cycle starts late, the timer notwithstanding. wakebench at SCHED_FIFO 10
// with two nice-0 busy loops on the 2-core VM (load 1-8, 7 interleaved
// rounds of 6 s): with the yield, the status line's jitter p99 was 10 µs
// to 335 ms, median 10.5 ms, 36 overruns in all (in 5 of the 7 rounds);
// without it 24 to 655 µs, median 32 µs, 1 overrun.
//
// Without a timerfd it falls back to nanosleep.
type waiter struct {
	fd  uintptr // the timerfd, 0 when none could be made
	its itimerspec
	buf [8]byte // the expiration count read from it
}

type itimerspec struct{ interval, value syscall.Timespec }

func newWaiter() *waiter {
	w := &waiter{}
	fd, _, errno := syscall.RawSyscall(syscall.SYS_TIMERFD_CREATE, 1 /* CLOCK_MONOTONIC */, syscall.O_CLOEXEC, 0)
	if errno == 0 {
		w.fd = fd
	}
	return w
}

// sleep blocks the calling goroutine for d (d > 0).
func (w *waiter) sleep(d time.Duration) {
	if w.fd != 0 {
		w.its.value = syscall.NsecToTimespec(int64(d))
		_, _, errno := syscall.RawSyscall6(syscall.SYS_TIMERFD_SETTIME, w.fd, 0, uintptr(unsafe.Pointer(&w.its)), 0, 0, 0)
		for errno == 0 {
			if errno = blockingRead(w.fd, unsafe.Pointer(&w.buf[0]), uintptr(len(w.buf))); errno == 0 {
				return
			}
			if errno == syscall.EINTR {
				errno = 0
			}
		}
		w.close() // broken: nanosleep from now on
	}
	ts := syscall.NsecToTimespec(int64(d))
	for {
		var rem syscall.Timespec
		if err := syscall.Nanosleep(&ts, &rem); err != syscall.EINTR {
			return
		}
		ts = rem
	}
}

func (w *waiter) close() {
	if w.fd != 0 {
		syscall.Close(int(w.fd))
		w.fd = 0
	}
}
