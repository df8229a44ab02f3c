//go:build linux && (amd64 || arm64 || arm)

package rtps

import (
	"net"
	"net/netip"
	"os"
	"syscall"
	"unsafe"
)

// On Linux the participant's sockets are written and read by raw system
// calls on their non-blocking descriptors (which never block), waiting
// for readiness through the runtime's network poller as package net
// does. The reason is the Go runtime's monitor thread (sysmon): it
// sleeps while every P is idle, and every system call made through
// syscall.Syscall (as package net's reads and writes are) wakes it, after
// which it polls every 20 µs until the Ps are idle again. A writer at
// 100 Hz to 1 kHz, and the ACKNACKs its readers answer with, kept it
// polling all the time (issue 38): frcd's daemon publishing /joint_states
// at 1 kHz to a Cyclone DDS subscriber (internal/ros2bench -serve, 5 s),
// through package net, spent 17 % of its CPU in sysmon (perf record) and
// made 18,932 futex, 13,254 nanosleep and 2,814 sched_yield calls
// (strace -f -c); with raw calls 9,379, 4,266 and 13. At 100 Hz its
// context switches over 5 s fell from 4,829-5,125 to 2,913-3,158 (perf
// stat; the daemon without ROS 1,050-1,100). daemon's timerfd waiter
// does the same for the loop (daemon/wait_linux.go).

// sender sends the participant's datagrams from one socket. Its users
// hold p.mu: one send at a time.
type sender struct {
	c     *net.UDPConn
	rc    syscall.RawConn // nil: through c
	b     []byte
	sa    syscall.RawSockaddrInet4
	errno syscall.Errno
	fn    func(fd uintptr) bool // made once: a closure per send would allocate
}

func newSender(c *net.UDPConn) *sender {
	s := &sender{c: c}
	s.sa.Family = syscall.AF_INET
	s.fn = func(fd uintptr) bool {
		_, _, s.errno = syscall.RawSyscall6(syscall.SYS_SENDTO, fd, uintptr(unsafe.Pointer(&s.b[0])), uintptr(len(s.b)),
			0, uintptr(unsafe.Pointer(&s.sa)), unsafe.Sizeof(s.sa))
		return true
	}
	if rc, err := c.SyscallConn(); err == nil {
		s.rc = rc
	}
	return s
}

// send sends b to one address.
func (s *sender) send(b []byte, to netip.AddrPort) error {
	a := to.Addr().Unmap()
	if s.rc == nil || !a.Is4() || len(b) == 0 {
		_, err := s.c.WriteToUDPAddrPort(b, to)
		return err
	}
	s.sa.Addr = a.As4()
	port := (*[2]byte)(unsafe.Pointer(&s.sa.Port)) // network byte order
	port[0], port[1] = byte(to.Port()>>8), byte(to.Port())
	s.b = b
	err := s.rc.Write(s.fn)
	s.b = nil
	if err != nil {
		return err
	}
	switch s.errno {
	case 0:
		return nil
	case syscall.EAGAIN, syscall.EINTR: // the socket's buffer is full: wait for room as package net does
		_, err := s.c.WriteToUDPAddrPort(b, to)
		return err
	}
	return &net.OpError{Op: "write", Net: "udp", Addr: net.UDPAddrFromAddrPort(to), Err: os.NewSyscallError("sendto", s.errno)}
}

// receiver reads one socket's datagrams (one goroutine).
type receiver struct {
	c     *net.UDPConn
	rc    syscall.RawConn // nil: through c
	buf   []byte
	sa    syscall.RawSockaddrInet4
	n     int
	errno syscall.Errno
	fn    func(fd uintptr) bool
}

func newReceiver(c *net.UDPConn, size int) *receiver {
	r := &receiver{c: c, buf: make([]byte, size)}
	r.fn = func(fd uintptr) bool {
		salen := uint32(unsafe.Sizeof(r.sa))
		n, _, errno := syscall.RawSyscall6(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&r.buf[0])), uintptr(len(r.buf)),
			0, uintptr(unsafe.Pointer(&r.sa)), uintptr(unsafe.Pointer(&salen)))
		r.n, r.errno = int(n), errno
		return errno != syscall.EAGAIN && errno != syscall.EINTR // false: wait until readable, then again
	}
	if rc, err := c.SyscallConn(); err == nil {
		r.rc = rc
	}
	return r
}

// read reads the next datagram, into r.buf.
func (r *receiver) read() ([]byte, netip.AddrPort, error) {
	if r.rc == nil {
		n, from, err := r.c.ReadFromUDPAddrPort(r.buf)
		return r.buf[:n], from, err
	}
	if err := r.rc.Read(r.fn); err != nil {
		return nil, netip.AddrPort{}, err
	}
	if r.errno != 0 {
		return nil, netip.AddrPort{}, &net.OpError{Op: "read", Net: "udp", Err: os.NewSyscallError("recvfrom", r.errno)}
	}
	port := (*[2]byte)(unsafe.Pointer(&r.sa.Port))
	from := netip.AddrPortFrom(netip.AddrFrom4(r.sa.Addr), uint16(port[0])<<8|uint16(port[1]))
	return r.buf[:r.n], from, nil
}
