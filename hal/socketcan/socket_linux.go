//go:build linux

package socketcan

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/go-daq/canbus"
	"golang.org/x/sys/unix"
)

// dial opens a CAN_RAW socket on the interface: canbus makes and binds
// it; its descriptor is then set up and read here (see the package doc
// for why).
func dial(name string, o Options) (conn, error) {
	if err := checkInterface(name); err != nil {
		return nil, err
	}
	if o.FD {
		if iface, err := net.InterfaceByName(name); err == nil {
			if err := fdMTUProblem(name, iface.MTU); err != nil {
				return nil, err
			}
		}
	}
	sck, err := canbus.New()
	if err != nil {
		return nil, socketError(name, "open a CAN socket", err)
	}
	fd, err := socketFD(sck)
	if err != nil {
		_ = sck.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := setupCAN(fd, o); err != nil {
		_ = sck.Close()
		return nil, socketError(name, "set up the CAN socket", err)
	}
	if err := sck.Bind(name); err != nil {
		_ = sck.Close()
		return nil, socketError(name, "bind the CAN socket", err)
	}
	c := newSockConn(fd)
	c.closer = sck.Close
	return c, nil
}

// setupCAN asks for every error frame, leaves out the frames this socket
// sends itself (the Linux default, made sure of: the heartbeat sender
// tells its own heartbeat from a roboRIO's by it), and sets the receive
// timeout and the drop counter.
func setupCAN(fd int, o Options) error {
	if err := unix.SetsockoptInt(fd, unix.SOL_CAN_RAW, unix.CAN_RAW_ERR_FILTER, unix.CAN_ERR_MASK); err != nil {
		return fmt.Errorf("CAN_RAW_ERR_FILTER: %w", err)
	}
	if err := unix.SetsockoptInt(fd, unix.SOL_CAN_RAW, unix.CAN_RAW_RECV_OWN_MSGS, 0); err != nil {
		return fmt.Errorf("CAN_RAW_RECV_OWN_MSGS: %w", err)
	}
	if o.FD {
		if err := unix.SetsockoptInt(fd, unix.SOL_CAN_RAW, unix.CAN_RAW_FD_FRAMES, 1); err != nil {
			return fmt.Errorf("CAN_RAW_FD_FRAMES: %w", err)
		}
	}
	return setupSocket(fd, o)
}

// setupSocket sets the socket-level options any datagram socket takes:
// the receive timeout that lets the reader notice Close, and SO_RXQ_OVFL,
// the kernel's count of frames dropped on a full receive queue.
func setupSocket(fd int, o Options) error {
	tv := unix.NsecToTimeval(o.withDefaults().RecvTimeout.Nanoseconds())
	if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
		return fmt.Errorf("SO_RCVTIMEO: %w", err)
	}
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RXQ_OVFL, 1); err != nil {
		return fmt.Errorf("SO_RXQ_OVFL: %w", err)
	}
	return nil
}

// socketFD reads the descriptor of a canbus.Socket, which v0.2.0 keeps
// unexported (Socket.dev.fd). Reading a field by reflection is allowed;
// TestSocketFD fails if an upgrade moves it.
func socketFD(sck any) (int, error) {
	v := reflect.ValueOf(sck)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() == reflect.Struct {
		if dev := v.FieldByName("dev"); dev.IsValid() && dev.Kind() == reflect.Struct {
			if fd := dev.FieldByName("fd"); fd.IsValid() && fd.CanInt() {
				return int(fd.Int()), nil
			}
		}
	}
	return -1, fmt.Errorf("socketcan: cannot find the descriptor in %T (go-daq/canbus changed?)", sck)
}

// sockConn reads and writes struct can_frame on a socket descriptor, and
// struct canfd_frame on one opened with Options.FD (fdConn).
// recv uses recvmsg with a header, buffer and control buffer allocated
// once, so a frame costs no allocation (canbus's Recv makes a slice per
// frame and cannot time out).
type sockConn struct {
	fd     int
	closer func() error
	msg    unix.Msghdr
	iov    unix.Iovec
	buf    rawFDFrame // a classic frame fills its first 16 bytes
	oob    [64]byte
}

var _ fdConn = (*sockConn)(nil)

func newSockConn(fd int) *sockConn {
	c := &sockConn{fd: fd, closer: func() error { return unix.Close(fd) }}
	c.iov.Base = &c.buf[0]
	c.iov.SetLen(len(c.buf))
	c.msg.Iov = &c.iov
	c.msg.SetIovlen(1)
	c.msg.Control = &c.oob[0]
	return c
}

var errShortFrame = errors.New("socketcan: short read, not a CAN frame")

func (c *sockConn) recv(r *rawFrame) (uint32, error) {
	c.msg.SetControllen(len(c.oob))
	c.msg.Flags = 0
	n, _, e := unix.Syscall(unix.SYS_RECVMSG, uintptr(c.fd), uintptr(unsafe.Pointer(&c.msg)), 0)
	switch {
	case e == unix.EAGAIN || e == unix.EINTR:
		return 0, errAgain
	case e != 0:
		return 0, e
	case n == uintptr(len(c.buf)): // CANFD_MTU: only on a socket with CAN_RAW_FD_FRAMES
		return rxqDrops(c.oob[:c.msg.Controllen]), errFDRecv
	case n != uintptr(len(rawFrame{})):
		return 0, errShortFrame
	}
	*r = rawFrame(c.buf[:len(rawFrame{})])
	return rxqDrops(c.oob[:c.msg.Controllen]), nil
}

// lastFD is the CAN FD frame the last recv returned errFDRecv for.
func (c *sockConn) lastFD() *rawFDFrame { return &c.buf }

// sendFD writes a struct canfd_frame without waiting.
func (c *sockConn) sendFD(r *rawFDFrame) error {
	return unix.Sendto(c.fd, r[:], unix.MSG_DONTWAIT, nil)
}

// rxqDrops finds the SO_RXQ_OVFL count among a recvmsg's control
// messages. The kernel adds it only once the socket has dropped a frame:
// none is a count of 0.
func rxqDrops(oob []byte) uint32 {
	for len(oob) >= unix.SizeofCmsghdr {
		h := (*unix.Cmsghdr)(unsafe.Pointer(&oob[0]))
		n := int(h.Len)
		if n < unix.CmsgLen(0) || n > len(oob) {
			return 0
		}
		if h.Level == unix.SOL_SOCKET && h.Type == unix.SO_RXQ_OVFL && n >= unix.CmsgLen(4) {
			return binary.NativeEndian.Uint32(oob[unix.CmsgLen(0):])
		}
		oob = oob[min(unix.CmsgSpace(n-unix.CmsgLen(0)), len(oob)):]
	}
	return 0
}

// send writes without waiting (MSG_DONTWAIT): a full queue is ENOBUFS or
// EAGAIN at once, never a stalled control loop.
func (c *sockConn) send(r rawFrame) error {
	return unix.Sendto(c.fd, r[:], unix.MSG_DONTWAIT, nil)
}

func (c *sockConn) close() error { return c.closer() }

// checkInterface looks the interface up (it must exist, be a CAN
// interface and be up) so that Open's error says what to do.
func checkInterface(name string) error {
	iface, err := net.InterfaceByName(name)
	typ := -1
	if err == nil {
		if b, rerr := os.ReadFile("/sys/class/net/" + name + "/type"); rerr == nil {
			if t, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil {
				typ = t
			}
		}
	}
	var up bool
	if iface != nil {
		up = iface.Flags&net.FlagUp != 0
	}
	return interfaceProblem(name, err, typ, up)
}

// isNetDown reports whether a socket call failed because the interface
// is down.
func isNetDown(err error) bool { return errors.Is(err, unix.ENETDOWN) }

// socketError explains a socket call's failure.
func socketError(name, what string, err error) error {
	var errno unix.Errno
	errors.As(err, &errno)
	switch errno {
	case unix.EAFNOSUPPORT, unix.EPROTONOSUPPORT:
		return fmt.Errorf("%s: cannot %s: this kernel has no SocketCAN (AF_CAN, CAN_RAW): load it with `modprobe can_raw` (a vcan or USB-CAN driver also needs its module): %w", name, what, err)
	case unix.EPERM, unix.EACCES:
		return fmt.Errorf("%s: cannot %s: permission denied: a security policy (seccomp, AppArmor, SELinux, a container) forbids CAN sockets to this user: run frcd where it may open them, or as root: %w", name, what, err)
	case unix.ENODEV:
		return fmt.Errorf("%s: cannot %s: no such network interface: is the USB-CAN adapter plugged in? `ip link show`: %w", name, what, err)
	case unix.ENETDOWN:
		return fmt.Errorf("%s: cannot %s: %s: %w", name, what, downFix(name), err)
	}
	return fmt.Errorf("%s: cannot %s: %w", name, what, err)
}
