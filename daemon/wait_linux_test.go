package daemon

import (
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// TestWaiterUsesTimerfd: on Linux the loop sleeps in a blocking read of
// its timerfd, on a goroutine locked to its thread (SCHED_FIFO) or not,
// and keeps the timerfd through sleeps (a failed arm or read falls back to
// nanosleep). TestWaiterSleepsAndDoesNotAllocate checks the sleep itself.
func TestWaiterUsesTimerfd(t *testing.T) {
	w := newWaiter()
	defer w.close()
	if w.fd == 0 {
		t.Fatal("no timerfd: the loop would sleep in nanosleep")
	}
	for i := 0; i < 3; i++ {
		w.sleep(50 * time.Microsecond)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		for i := 0; i < 3; i++ {
			w.sleep(50 * time.Microsecond)
		}
	}()
	<-done
	if w.fd == 0 {
		t.Error("the timerfd was given up after a sleep")
	}
}

// blockingRead reads as read(2) does and blocks until there is something
// to read: with one P, a goroutine locked to its thread and blocked in it
// must leave the P to the writer that wakes it (given up at once here;
// with syscall.Syscall, sysmon would take it within a few of its ticks, so
// this cannot tell the two apart). At the end of the file it reads
// nothing; a bad descriptor is an error, not a hang.
func TestBlockingRead(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(p[0])
	type result struct {
		buf   [8]byte
		errno syscall.Errno
	}
	reading := make(chan struct{})
	got := make(chan result)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var r result
		close(reading) // the writer is made runnable, and runs once the P is free
		r.errno = blockingRead(uintptr(p[0]), unsafe.Pointer(&r.buf[0]), uintptr(len(r.buf)))
		got <- r
	}()
	<-reading
	if _, err := syscall.Write(p[1], []byte("frcd-p!\n")); err != nil {
		t.Fatal(err)
	}
	syscall.Close(p[1])
	if r := <-got; r.errno != 0 || string(r.buf[:]) != "frcd-p!\n" {
		t.Errorf("read %q, errno %v; want \"frcd-p!\\n\", 0", r.buf, r.errno)
	}
	var buf [8]byte
	if e := blockingRead(uintptr(p[0]), unsafe.Pointer(&buf[0]), 8); e != 0 {
		t.Errorf("read at end of file: %v, want 0", e)
	}
	if e := blockingRead(^uintptr(0), unsafe.Pointer(&buf[0]), 8); e != syscall.EBADF {
		t.Errorf("read of a bad descriptor: %v, want EBADF", e)
	}
}
