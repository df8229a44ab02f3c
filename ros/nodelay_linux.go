package ros

import (
	"os"
	"strconv"
	"syscall"
)

// setNoDelay sets TCP_NODELAY on this process's TCP connections whose
// local port is port (the listener's accepted connections), returning
// how many were off. It reads /proc/self/fd; a socket closed meanwhile is
// skipped.
func setNoDelay(port int) int {
	d, err := os.Open("/proc/self/fd")
	if err != nil {
		return 0
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return 0
	}
	n := 0
	for _, name := range names {
		fd, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		sa, err := syscall.Getsockname(fd)
		if err != nil {
			continue // not a socket (ENOTSOCK), or closed meanwhile
		}
		var p int
		switch a := sa.(type) {
		case *syscall.SockaddrInet4:
			p = a.Port
		case *syscall.SockaddrInet6:
			p = a.Port
		}
		if p != port {
			continue
		}
		if l, err := syscall.GetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_ACCEPTCONN); err != nil || l != 0 {
			continue // the listener: not a connection
		}
		if on, err := syscall.GetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY); err != nil || on != 0 {
			continue
		}
		if syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1) == nil {
			n++
		}
	}
	return n
}
