package rtps

import (
	"bytes"
	"errors"
	"net"
	"net/netip"
	"testing"
)

// TestSocketRoundTrip: the participant's sender and receiver (raw
// system calls on Linux, package net elsewhere) carry a datagram over
// 127.0.0.1 with its source address, send without allocating, and the
// receiver ends with net.ErrClosed when its socket closes.
func TestSocketRoundTrip(t *testing.T) {
	listen := func() *net.UDPConn {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a, b := listen(), listen()
	defer a.Close()
	s, r := newSender(a), newReceiver(b, 2048)
	to := b.LocalAddr().(*net.UDPAddr).AddrPort()
	for i, msg := range [][]byte{[]byte("RTPS one"), bytes.Repeat([]byte{7}, 1400)} {
		if err := s.send(msg, to); err != nil {
			t.Fatal(err)
		}
		got, from, err := r.read()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, msg) || from != a.LocalAddr().(*net.UDPAddr).AddrPort() {
			t.Fatalf("datagram %d: %d bytes from %v, want %d from %v", i, len(got), from, len(msg), a.LocalAddr())
		}
	}
	// An IPv4-mapped address is the same address.
	if err := s.send([]byte("mapped"), netip.AddrPortFrom(netip.AddrFrom16(to.Addr().As16()), to.Port())); err != nil {
		t.Fatal(err)
	}
	if got, _, err := r.read(); err != nil || string(got) != "mapped" {
		t.Fatalf("mapped: %q, %v", got, err)
	}
	msg := []byte("no allocation")
	if n := testing.AllocsPerRun(100, func() { _ = s.send(msg, to) }); n != 0 {
		t.Errorf("send allocates %v times", n)
	}
	if err := s.send(msg, netip.MustParseAddrPort("[::1]:7400")); err == nil {
		t.Error("sent to an IPv6 address from an IPv4 socket")
	}
	done := make(chan error, 1)
	go func() {
		for {
			if _, _, err := r.read(); err != nil {
				done <- err
				return
			}
		}
	}()
	b.Close()
	if err := <-done; !errors.Is(err, net.ErrClosed) {
		t.Fatalf("read after close: %v, want net.ErrClosed", err)
	}
}
