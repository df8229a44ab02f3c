//go:build !(linux && (amd64 || arm64 || arm))

package rtps

import (
	"net"
	"net/netip"
)

// sender sends the participant's datagrams from one socket (package net
// here; raw system calls on Linux: socket_linux.go says why).
type sender struct{ c *net.UDPConn }

func newSender(c *net.UDPConn) *sender { return &sender{c: c} }

func (s *sender) send(b []byte, to netip.AddrPort) error {
	_, err := s.c.WriteToUDPAddrPort(b, to)
	return err
}

// receiver reads one socket's datagrams (one goroutine).
type receiver struct {
	c   *net.UDPConn
	buf []byte
}

func newReceiver(c *net.UDPConn, size int) *receiver { return &receiver{c: c, buf: make([]byte, size)} }

func (r *receiver) read() ([]byte, netip.AddrPort, error) {
	n, from, err := r.c.ReadFromUDPAddrPort(r.buf)
	return r.buf[:n], from, err
}
