//go:build linux

package daemon

import (
	"os"
	"runtime"
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
// SCHED_FIFO) the timerfd blocks instead and is read with a plain system
// call: the thread then sleeps in the kernel and the timer wakes it at its
// own priority, not through the poller's thread at normal priority, which
// a loaded machine may not run for milliseconds.
//
// That thread's goroutine then never passes through the scheduler, and
// sysmon (go1.26 runtime/proc.go: retake) treats a goroutine seen on the
// same schedtick for forcePreemptNS (10 ms) as a hog: it preempts it when
// it finds it running Go code (a signal, then a hand-off of the locked
// goroutine through another thread) and takes its P when it finds it in a
// system call, so the cycle's first system call after the sleep (the
// read's return) finds no P, takes an idle one and wakes sysmon from its
// deep sleep with its delay reset to 20 µs, and sysmon then polls every
// 20 µs to 1 ms for as long as the P is busy: 1,200 to 2,100 wake-ups a
// second at 100 Hz on the fake HAL, against ~400 for a bare loop. So
// before blocking it yields (runtime.Gosched) at least every yieldEvery:
// one hand-off a cycle through an idle thread, after the cycle's outputs
// are written and with the timer already armed, keeps the schedtick fresh;
// sysmon then neither preempts the loop nor takes its P (its system calls
// change the syscalltick every cycle), never deep-sleeps and polls every
// 10 ms (500 to 550 wake-ups a second in all).
//
// Without a timerfd it falls back to nanosleep.
type waiter struct {
	blocking bool      // read the timerfd with a blocking system call
	yielded  time.Time // when the blocking sleep last yielded
	f        *os.File  // the timerfd, nil when none could be made
	rc       syscall.RawConn
	fd       uintptr
	its      itimerspec
	buf      [8]byte               // the expiration count read from it
	read     func(fd uintptr) bool // made once: a closure per call would allocate
	errno    syscall.Errno         // the last read's
}

// yieldEvery is how often the blocking sleep yields: under half of
// forcePreemptNS, so that sysmon, which looks at most every 10 ms, sees
// a new schedtick at every look.
const yieldEvery = 5 * time.Millisecond

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
		if errno == 0 && time.Since(w.yielded) >= yieldEvery {
			// The timer runs meanwhile: a slow hand-off delays no wake-up.
			runtime.Gosched()
			w.yielded = time.Now()
		}
		for errno == 0 {
			if _, _, errno = syscall.Syscall(syscall.SYS_READ, w.fd, uintptr(unsafe.Pointer(&w.buf[0])), uintptr(len(w.buf))); errno == 0 {
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
