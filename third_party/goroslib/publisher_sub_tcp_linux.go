package goroslib

import (
	"syscall"
	"unsafe"
)

const nonBlockingWriteAvailable = true

// nonBlockingWrite writes b to the socket fd (non-blocking, as Go opens
// every socket), returning how much it took; a full socket buffer
// (EAGAIN) is no error. It is a raw system call: it cannot block, and
// the scheduler need not know of it (syscall.Write would wake the
// runtime's monitor thread at every message).
func nonBlockingWrite(fd uintptr, b []byte) (int, error) {
	written := 0
	for written < len(b) {
		p := b[written:]
		n, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		switch errno {
		case 0:
			written += int(n)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return written, nil
		default:
			return written, errno
		}
	}
	return written, nil
}
