//go:build linux

package daemon

import (
	"os"
	"syscall"
	"time"
	"unsafe"
)

// waiter puts the real-time loop to sleep between cycles. On Linux it is
// a timerfd waited on through the runtime's network poller: the loop's
// goroutine parks like any other, so its thread and P are free while it
// sleeps, and the wake-up comes from a high-resolution kernel timer
// without the timer slack nanosleep adds (Go's own timers round to the
// millisecond).
//
// Why not nanosleep on a locked thread: a goroutine blocked in a syscall
// keeps the runtime's monitor thread (sysmon) awake, polling every 20 µs
// to 10 ms, and one that never parks is preempted and has its P retaken
// every 10 ms, which resets that polling to 20 µs: about 1,750 sysmon
// wake-ups a second at 100 Hz. The timerfd's own calls (arm, read) are
// raw system calls, which never block here (the fd is non-blocking):
// every call through syscall.Syscall wakes a sleeping sysmon.
//
// On a real-time thread (newWaiter(true): the loop's thread locked and at
// SCHED_FIFO) the timerfd blocks instead: the thread sleeps in the kernel
// and the timer wakes it at its own priority, not through the poller's
// thread at normal priority, which a loaded machine may not run for
// milliseconds. It is read by blockingRead, which gives the thread's P up
// for the sleep as the runtime does for a system call it knows blocks.
//
// Why not a plain blocking read (syscall.Syscall, which keeps the P): the
// locked goroutine never passes through the scheduler, so its P's
// schedule count stands still, and sysmon treats the thread as one that
// has run too long. It takes the P from the sleeping thread, so every P
// is idle and sysmon sleeps deeply; the thread's wake-up then needs a P
// and wakes sysmon, which restarts its 20 µs polling and, finding the
// cycle running Go code, preempts it, a hand-off through another thread
// mid-cycle. The schedule count is then fresh, the P is kept through the
// next sleep and sysmon polls on (20 µs, then doubling) until it goes
// stale again: 1,100-2,300 wake-ups a second at 100 Hz and 1,780 at
// 50 Hz (where a bare Go loop makes 400 and 200). A bare Go loop with 25 µs
// of Go work a cycle does not do this; the same loop with one cgo call a
// cycle does (1,860-2,390 wake-ups a second): a cgo call is a system call
// to the runtime, and sysmon taking the P in it is what restarts its
// polling. With the P given up at once (internal/wakebench, SCHED_FIFO
// 10, 7 rounds): 340 wake-ups a second, CPU 1.28x the bare loop's (rounds
// 1.16-1.39), against 1,157 and 3.39x (rounds 1.35-5.42) with syscall.Syscall.
//
// On waking, the read's return (exitsyscall) takes an idle P. With every
// P running other goroutines, the loop's goroutine goes on the global run
// queue and its thread parks (exitsyscallNoP, stoplockedm) until a thread
// of normal priority, entering the scheduler as its goroutine blocks,
// yields or is preempted (by sysmon after 10 ms), takes it from there (a
// P reads that queue when its own is empty, and at every 61st schedule)
// and hands it its P (startlockedm). A thread whose P sysmon had taken met
// the same, and sysmon took the loop's P in every sleep once its schedule
// count was 10 ms old; what is new is only that a goroutine waiting to run
// gets the P at once (handoffp), not a sysmon tick or two into the sleep.
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
	blocking bool     // read the timerfd with a blocking system call
	f        *os.File // the timerfd, nil when none could be made
	rc       syscall.RawConn
	fd       uintptr
	its      itimerspec
	buf      [8]byte               // the expiration count read from it
	read     func(fd uintptr) bool // made once: a closure per call would allocate
	errno    syscall.Errno         // the last read's
}

type itimerspec struct{ interval, value syscall.Timespec }

func newWaiter(blocking bool) *waiter {
	w := &waiter{blocking: blocking}
	w.read = func(fd uintptr) bool {
		_, _, w.errno = syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&w.buf[0])), uintptr(len(w.buf)))
		return w.errno != syscall.EAGAIN && w.errno != syscall.EINTR // false: wait until readable, then again
	}
	flags := uintptr(syscall.O_NONBLOCK | syscall.O_CLOEXEC)
	if blocking {
		flags = syscall.O_CLOEXEC
	}
	fd, _, errno := syscall.RawSyscall(syscall.SYS_TIMERFD_CREATE, 1 /* CLOCK_MONOTONIC */, flags, 0)
	if errno != 0 {
		return w // nanosleep instead
	}
	if blocking {
		w.fd = fd
		return w
	}
	f := os.NewFile(fd, "timerfd")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return w
	}
	w.f, w.rc, w.fd = f, rc, fd
	return w
}

// sleep blocks the calling goroutine for d (d > 0).
func (w *waiter) sleep(d time.Duration) {
	if w.blocking && w.fd != 0 {
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
	if w.f != nil {
		w.its.value = syscall.NsecToTimespec(int64(d))
		_, _, errno := syscall.RawSyscall6(syscall.SYS_TIMERFD_SETTIME, w.fd, 0, uintptr(unsafe.Pointer(&w.its)), 0, 0, 0)
		if errno == 0 {
			if err := w.rc.Read(w.read); err == nil && w.errno == 0 {
				return
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
	if w.f != nil {
		w.f.Close()
		w.f = nil
	}
	if w.blocking && w.fd != 0 {
		syscall.Close(int(w.fd))
		w.fd = 0
	}
}
