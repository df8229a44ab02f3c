//go:build linux

package socketcan

import (
	"encoding/binary"
	"errors"
	"net"
	"strings"
	"testing"
	"unsafe"

	"github.com/go-daq/canbus"
	"golang.org/x/sys/unix"

	"github.com/frcd/frcd/hal"
)

func TestSocketFD(t *testing.T) {
	fd, err := socketFD(&canbus.Socket{})
	if err != nil || fd != 0 {
		t.Errorf("socketFD(canbus.Socket) = %d, %v: go-daq/canbus no longer keeps its descriptor in dev.fd", fd, err)
	}
	if _, err := socketFD(&struct{ dev int }{}); err == nil {
		t.Error("socketFD of a struct without dev.fd succeeded")
	}
}

// udpPair is a receiving UDP socket set up as a CAN socket is (receive
// timeout, drop counter) and a sending one connected to it: datagram
// sockets take the same recvmsg, SO_RCVTIMEO and SO_RXQ_OVFL as CAN_RAW,
// so the descriptor code runs here without a CAN interface.
func udpPair(t *testing.T, o Options, rcvbuf int) (rx, tx *sockConn) {
	t.Helper()
	rfd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rcvbuf > 0 {
		if err := unix.SetsockoptInt(rfd, unix.SOL_SOCKET, unix.SO_RCVBUF, rcvbuf); err != nil {
			t.Fatal(err)
		}
	}
	if err := unix.Bind(rfd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := setupSocket(rfd, o); err != nil {
		t.Fatal(err)
	}
	sa, err := unix.Getsockname(rfd)
	if err != nil {
		t.Fatal(err)
	}
	tfd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Connect(tfd, sa); err != nil {
		t.Fatal(err)
	}
	rx, tx = newSockConn(rfd), newSockConn(tfd)
	t.Cleanup(func() { _ = rx.close(); _ = tx.close() })
	return rx, tx
}

func TestSockConnReadsFramesAndTimesOut(t *testing.T) {
	rx, tx := udpPair(t, Options{RecvTimeout: ms(2)}, 0)
	var r rawFrame
	if _, err := rx.recv(&r); err != errAgain {
		t.Fatalf("recv on a quiet socket: %v, want the receive timeout", err)
	}
	want := frame(hal.HeartbeatID, 0, 0, 0, 0x12, 0, 0, 0, 0)
	if err := tx.send(encode(want)); err != nil {
		t.Fatal(err)
	}
	drops, err := rx.recv(&r)
	if err != nil || drops != 0 {
		t.Fatalf("recv = %d, %v", drops, err)
	}
	if f, k := decode(&r); f != want || k != kindData {
		t.Errorf("received %v (%v), sent %v", f, k, want)
	}
	// A datagram that is not 16 bytes is not a CAN frame.
	if _, err := unix.Write(tx.fd, []byte{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := rx.recv(&r); err != errShortFrame {
		t.Errorf("recv of 3 bytes: %v", err)
	}
	if n := testing.AllocsPerRun(100, func() {
		_ = tx.send(encode(want))
		_, _ = rx.recv(&r)
	}); n != 0 {
		t.Errorf("send and recv: %v allocations per frame", n)
	}
}

// A full receive queue drops frames; recvmsg carries the kernel's count
// (SO_RXQ_OVFL) with the frames queued after a drop, so frames read plus
// frames dropped are all those sent.
func TestSockConnCountsKernelDrops(t *testing.T) {
	rx, tx := udpPair(t, Options{RecvTimeout: ms(2)}, 1) // the smallest receive buffer
	const sent = 200
	for i := 0; i < sent; i++ {
		if err := tx.send(encode(frame(uint32(i)))); err != nil {
			t.Fatal(err)
		}
	}
	var r rawFrame
	read := 0
	for {
		_, err := rx.recv(&r)
		if err == errAgain {
			break
		}
		if err != nil {
			t.Fatalf("recv: %v", err)
		}
		read++
	}
	// The frames read were queued before the drops; the next one tells.
	if err := tx.send(encode(frame(1))); err != nil {
		t.Fatal(err)
	}
	drops, err := rx.recv(&r)
	if err != nil {
		t.Fatal(err)
	}
	if drops == 0 || read+int(drops) != sent {
		t.Errorf("read %d, kernel dropped %d: want drops, and %d in all", read, drops, sent)
	}
}

func TestRxqDropsParsing(t *testing.T) {
	oob := make([]byte, unix.CmsgSpace(4)*2)
	put := func(off, level, typ int, v uint32) {
		h := (*unix.Cmsghdr)(unsafe.Pointer(&oob[off]))
		h.Level, h.Type = int32(level), int32(typ)
		h.SetLen(unix.CmsgLen(4))
		binary.NativeEndian.PutUint32(oob[off+unix.CmsgLen(0):], v)
	}
	put(0, unix.SOL_SOCKET, unix.SO_TIMESTAMP, 9)
	put(unix.CmsgSpace(4), unix.SOL_SOCKET, unix.SO_RXQ_OVFL, 42)
	if d := rxqDrops(oob); d != 42 {
		t.Errorf("rxqDrops = %d, want 42 after another message", d)
	}
	if d := rxqDrops(oob[:unix.CmsgSpace(4)]); d != 0 {
		t.Errorf("rxqDrops = %d where there is no count", d)
	}
	if d := rxqDrops(oob[:3]); d != 0 {
		t.Error("rxqDrops of a truncated header")
	}
	bad := make([]byte, 64)
	(*unix.Cmsghdr)(unsafe.Pointer(&bad[0])).SetLen(1000) // longer than the buffer
	if d := rxqDrops(bad); d != 0 {
		t.Error("rxqDrops of a bad length")
	}
}

func TestOpenExplainsInterfaceProblems(t *testing.T) {
	if _, err := net.InterfaceByName("can7"); err == nil {
		t.Skip("this machine has a can7")
	}
	_, err := Open([]string{"can7", "lo"}, newClock(0), Options{})
	if err == nil {
		t.Fatal("Open(can7, lo) succeeded")
	}
	for _, want := range []string{
		"can7: no such network interface: is the USB-CAN adapter plugged in? `ip link show`",
		"lo: not a CAN interface (link type 772; CAN is 280)",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("%v is not hal.ErrNoDevice", err)
	}
}

func TestSocketErrors(t *testing.T) {
	for errno, want := range map[unix.Errno]string{
		unix.EAFNOSUPPORT: "this kernel has no SocketCAN (AF_CAN, CAN_RAW): load it with `modprobe can_raw`",
		unix.EPERM:        "permission denied",
		unix.EACCES:       "permission denied",
		unix.ENODEV:       "no such network interface",
		unix.ENETDOWN:     "`sudo ip link set can0 up type can bitrate 1000000`",
		unix.EINVAL:       "cannot open a CAN socket: invalid argument",
	} {
		err := socketError("can0", "open a CAN socket", errno)
		if !strings.HasPrefix(err.Error(), "can0: cannot open a CAN socket") || !strings.Contains(err.Error(), want) || !errors.Is(err, errno) {
			t.Errorf("%v: %v, want %q", errno, err, want)
		}
	}
}

// Where the kernel has SocketCAN, the real socket takes the options
// (binding needs an interface, so that is the on-hardware check's).
func TestCANSocketOptions(t *testing.T) {
	sck, err := canbus.New()
	if err != nil {
		e := socketError("can0", "open a CAN socket", err)
		if errors.Is(err, unix.EAFNOSUPPORT) && !strings.Contains(e.Error(), "modprobe can_raw") {
			t.Errorf("no AF_CAN: %v", e)
		}
		t.Skipf("no CAN sockets here: %v", e)
	}
	defer sck.Close()
	fd, err := socketFD(sck)
	if err != nil || fd <= 0 {
		t.Fatalf("socketFD = %d, %v", fd, err)
	}
	if err := setupCAN(fd, Options{}); err != nil {
		t.Fatal(err)
	}
	if v, err := unix.GetsockoptInt(fd, unix.SOL_CAN_RAW, unix.CAN_RAW_ERR_FILTER); err != nil || v != unix.CAN_ERR_MASK {
		t.Errorf("CAN_RAW_ERR_FILTER = %#x, %v", v, err)
	}
	// The heartbeat sender tells its own frames from a roboRIO's by this.
	if v, err := unix.GetsockoptInt(fd, unix.SOL_CAN_RAW, unix.CAN_RAW_RECV_OWN_MSGS); err != nil || v != 0 {
		t.Errorf("CAN_RAW_RECV_OWN_MSGS = %d, %v, want 0", v, err)
	}
	if v, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RXQ_OVFL); err != nil || v != 1 {
		t.Errorf("SO_RXQ_OVFL = %d, %v, want 1", v, err)
	}
}

// TestDownAndUpAgain: a send or a receive failing with ENETDOWN marks the
// interface down, with the command that brings it up; the next frame
// that goes or comes marks it up again.
func TestDownAndUpAgain(t *testing.T) {
	bs, conns := openFake(t, newClock(0), "can0")
	fc := conns["can0"]
	bus, _ := bs.Bus("")
	if err := bus.Down(); err != nil {
		t.Fatalf("Down at the start: %v", err)
	}
	fc.mu.Lock()
	fc.sendErr = unix.ENETDOWN
	fc.mu.Unlock()
	if err := bus.Send(frame(hal.HeartbeatID)); !errors.Is(err, unix.ENETDOWN) {
		t.Fatalf("Send: %v", err)
	}
	err := bus.Down()
	if !errors.Is(err, unix.ENETDOWN) || !strings.Contains(err.Error(), "can0: the interface is down") || !strings.Contains(err.Error(), "ip link set can0 up") {
		t.Errorf("Down after ENETDOWN on send: %v", err)
	}
	fc.mu.Lock()
	fc.sendErr = errTest // another failure says nothing about the link
	fc.mu.Unlock()
	_ = bus.Send(frame(hal.HeartbeatID))
	if bus.Down() == nil {
		t.Errorf("Down cleared by a failure other than ENETDOWN")
	}
	fc.mu.Lock()
	fc.sendErr = nil
	fc.mu.Unlock()
	if err := bus.Send(frame(hal.HeartbeatID)); err != nil || bus.Down() != nil {
		t.Errorf("after a send that went: Send %v, Down %v", err, bus.Down())
	}

	fc.deliver(t, item{err: unix.ENETDOWN}) // what the reader gets when the interface goes down
	if !errors.Is(bus.Down(), unix.ENETDOWN) {
		t.Errorf("Down after ENETDOWN on receive: %v", bus.Down())
	}
	fc.deliver(t, item{err: errAgain}) // a quiet bus says nothing either
	if bus.Down() == nil {
		t.Errorf("Down cleared by a receive timeout")
	}
	fc.frame(t, frame(0x08041400, 1))
	if err := bus.Down(); err != nil {
		t.Errorf("Down after a frame came: %v", err)
	}
}
