package daemon

import (
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// TestWaiterUsesTimerfd: on Linux the loop sleeps on its timerfd, and
// keeps it through sleeps (a failed arm or read falls back to nanosleep).
func TestWaiterUsesTimerfd(t *testing.T) {
	w := newWaiter(false)
	defer w.close()
	if w.f == nil {
		t.Fatal("no timerfd: the loop would sleep in nanosleep")
	}
	for i := 0; i < 3; i++ {
		w.sleep(50 * time.Microsecond)
	}
	if w.f == nil {
		t.Error("the timerfd was given up after a sleep")
	}
}

// On a real-time thread the waiter blocks on its timerfd in the kernel,
// sleeps at least as long as asked, keeps the fd and allocates nothing.
func TestBlockingWaiter(t *testing.T) {
	w := newWaiter(true)
	defer w.close()
	if w.fd == 0 || w.f != nil {
		t.Fatalf("blocking waiter: fd %d, poller file %v", w.fd, w.f)
	}
	start := time.Now()
	w.sleep(2 * time.Millisecond)
	if got := time.Since(start); got < 2*time.Millisecond {
		t.Errorf("slept %v, asked 2ms", got)
	}
	if n := testing.AllocsPerRun(5, func() { w.sleep(50 * time.Microsecond) }); n != 0 {
		t.Errorf("%v allocations a sleep", n)
	}
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
