//go:build linux && (amd64 || arm64 || arm)

package ros2bridge

import (
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// waker is how the loop wakes the bridge's goroutine
// (control.Loop.NotifyWith): on Linux an eventfd, written by the loop and
// read by the bridge by raw system calls, the bridge waiting for it in
// the runtime's network poller. Why not the loop's channel
// (control.Notice.C): a goroutine readied through a channel while a P is
// idle makes the runtime wake an idle thread to look for it
// (runtime.wakep: a futex wake, that thread's spinning, a 3 µs nanosleep
// as it tries to steal the goroutine, its futex sleep again), once per
// published cycle; a poller's readiness is found by the loop's own thread
// when the loop sleeps (or by the thread already blocked in the poller),
// with no such wake. Issue 38, frcd's daemon publishing /joint_states to
// a Cyclone DDS subscriber (internal/ros2bench -serve, perf stat over
// 5 s, 3 interleaved runs): at 100 Hz the channel's 2,764-3,306 context
// switches and 98-114 ms of CPU became 1,634-1,722 and 55-80 ms (the
// daemon without ROS: 1,004-1,039 and 34-42 ms; Cyclone's C publisher
// 559-587 and 21-35 ms); at 1 kHz 19,942-20,177 became 7,905-8,450. The
// raw calls never block (the eventfd is non-blocking) and do not wake
// the runtime's sysmon thread as syscall.Syscall's do (rtps
// socket_linux.go).
type waker struct {
	f       *os.File // nil: no eventfd, the channel instead
	ch      *chanWaker
	rc      syscall.RawConn
	once    sync.Once
	one     uint64  // written: the eventfd's counter adds it
	buf     [8]byte // read: the counter, reset
	errno   syscall.Errno
	writeFn func(fd uintptr) bool // made once: a closure per call would allocate
	readFn  func(fd uintptr) bool
}

func newWaker() *waker {
	w := &waker{one: 1}
	fd, _, errno := syscall.RawSyscall(syscall.SYS_EVENTFD2, 0, syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if errno != 0 {
		w.ch = newChanWaker()
		return w
	}
	f := os.NewFile(fd, "eventfd")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		w.ch = newChanWaker()
		return w
	}
	w.f, w.rc = f, rc
	w.writeFn = func(fd uintptr) bool {
		syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&w.one)), 8) // fails only at a counter of 2^64-2
		return true
	}
	w.readFn = func(fd uintptr) bool {
		_, _, w.errno = syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&w.buf[0])), uintptr(len(w.buf)))
		return w.errno != syscall.EAGAIN && w.errno != syscall.EINTR // false: wait until readable, then again
	}
	return w
}

// wake wakes wait (the wakes before it returns count as one). Any
// goroutine; after close it does nothing (the closed file's descriptor,
// perhaps another file's by then, is not written).
func (w *waker) wake() {
	if w.f == nil {
		w.ch.wake()
		return
	}
	_ = w.rc.Write(w.writeFn)
}

// wait waits for a wake; false once closed.
func (w *waker) wait() bool {
	if w.f == nil {
		return w.ch.wait()
	}
	return w.rc.Read(w.readFn) == nil && w.errno == 0
}

// close ends wait, now and for good; it may be called more than once.
func (w *waker) close() {
	if w.f == nil {
		w.ch.close()
		return
	}
	w.once.Do(func() { w.f.Close() })
}
