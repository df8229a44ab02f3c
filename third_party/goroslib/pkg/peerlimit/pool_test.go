package peerlimit

import (
	"net"
	"testing"
)

type fakeConn struct {
	net.Conn
	addr   net.Addr
	closed bool
}

func (c *fakeConn) RemoteAddr() net.Addr { return c.addr }
func (c *fakeConn) LocalAddr() net.Addr  { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 11311} }
func (c *fakeConn) Close() error         { c.closed = true; return nil }

func conn(ip string) *fakeConn {
	return &fakeConn{addr: &net.TCPAddr{IP: net.ParseIP(ip), Port: 1234}}
}

// TestPoolEvictsTheIdlest: an address past its share, or slots past the
// total, make room by closing the half-open connection that waited
// longest; busy ones are kept, and with every one busy the newcomer is
// refused. Connections from this computer have slots of their own.
func TestPoolEvictsTheIdlest(t *testing.T) {
	p := NewPool(4, 2)
	a1, a2, a3 := conn("10.0.0.1"), conn("10.0.0.1"), conn("10.0.0.1")
	e1, _ := p.Admit(a1)
	e2, _ := p.Admit(a2)
	e1.Idle() // a1 finished a request: now a2 has waited longest
	if _, ok := p.Admit(a3); !ok || !a2.closed || a1.closed {
		t.Fatalf("the third of one address: admitted %v, a2 closed %v, a1 closed %v", ok, a2.closed, a1.closed)
	}
	e2.Release() // its close, after the eviction: harmless
	e1.Busy()
	a4 := conn("10.0.0.1")
	if _, ok := p.Admit(a4); !ok || !a3.closed || a1.closed {
		t.Fatalf("a busy connection evicted, or the half-open one kept")
	}
	// Other addresses fill the remote slots: the oldest half-open goes.
	b1, b2, b3 := conn("10.0.0.2"), conn("10.0.0.3"), conn("10.0.0.4")
	p.Admit(b1)
	p.Admit(b2)
	if _, ok := p.Admit(b3); !ok || !a4.closed {
		t.Fatalf("remote slots full: admitted %v, the oldest half-open (a4) closed %v", ok, a4.closed)
	}
	// Loopback has its own slots, whatever remote clients hold.
	var locals []*Entry
	for i := 0; i < 4; i++ {
		e, ok := p.Admit(conn("127.0.0.1"))
		if !ok {
			t.Fatal("a local connection refused while remote ones hold their slots")
		}
		e.Busy()
		locals = append(locals, e)
	}
	if _, ok := p.Admit(conn("127.0.0.1")); ok {
		t.Error("a fifth local connection admitted while four are busy")
	}
	if p.Refused() != 1 || p.Evicted() != 3 {
		t.Errorf("Refused %d, Evicted %d; want 1, 3", p.Refused(), p.Evicted())
	}
	if b1.closed || b2.closed || b3.closed {
		t.Error("a remote connection closed for a local one")
	}
	locals[0].Release()
	if _, ok := p.Admit(conn("127.0.0.1")); !ok {
		t.Error("a released local slot not taken again")
	}
}
