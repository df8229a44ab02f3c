//go:build linux

package daemon

import (
	"syscall"
	"unsafe"
)

// The runtime's entry to a system call known to block, which it uses
// around its own blocking waits (notetsleepg, runtime/lock_futex.go), and
// the exit from any system call, which package syscall and
// golang.org/x/sys call after theirs (they enter by entersyscall). The
// runtime marks both for packages outside it (go.dev/issue/67401: "Do not
// remove or change the type signature"), so these links build under the
// linker's -checklinkname.
//
//go:linkname entersyscallblock runtime.entersyscallblock
func entersyscallblock()

//go:linkname exitsyscall runtime.exitsyscall
func exitsyscall()

// blockingRead is read(2) of n bytes from fd into p that gives the calling
// thread's P up at once, as the runtime does for the system calls it knows
// will block (entersyscallblock), instead of keeping it while the thread
// sleeps, as syscall.Syscall does (entersyscall). waiter says why the loop
// needs that.
//
// Between entersyscallblock and exitsyscall the goroutine has no P, so
// nothing there may grow the stack, allocate or be instrumented: it is
// nosplit and norace, one basic block (a coverage counter goes at its
// entry, before the P is given up), and calls only syscall.RawSyscall6,
// which is nosplit and norace itself, as package syscall's Syscall does.
//
//go:nosplit
//go:norace
func blockingRead(fd uintptr, p unsafe.Pointer, n uintptr) syscall.Errno {
	entersyscallblock()
	_, _, e := syscall.RawSyscall6(syscall.SYS_READ, fd, uintptr(p), n, 0, 0, 0)
	exitsyscall()
	return e
}
