package relisten

import (
	"net"
	"testing"
	"time"
)

// TestTakenThenFree: an address taken at start gives a Listener that
// reports why and serves once the address is free; Close ends a waiting
// Accept.
func TestTakenThenFree(t *testing.T) {
	holder, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := holder.Addr().String()
	if _, err := Listen(addr, 0, nil); err == nil {
		t.Fatal("a taken address listened without retry")
	}
	fails := make(chan error, 100)
	l, err := Listen(addr, 5*time.Millisecond, func(err error) { fails <- err })
	if err != nil || l.Err() == nil || l.Addr().String() != addr {
		t.Fatalf("Listen on a taken address: %v, Err %v, Addr %v", err, l.Err(), l.Addr())
	}
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := l.Accept()
		if err == nil {
			accepted <- c
		}
		close(accepted)
	}()
	<-fails // it tried again, and failed: the address is still taken
	holder.Close()
	<-l.Bound()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if s := <-accepted; s == nil {
		t.Fatal("no connection accepted once the address was free")
	} else {
		s.Close()
	}
	if l.Err() != nil {
		t.Errorf("Err after binding: %v", l.Err())
	}
	l.Close()

	// A Listener waiting for its address: Close ends its Accept.
	holder2, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer holder2.Close()
	l2, _ := Listen(holder2.Addr().String(), time.Hour, nil)
	done := make(chan error)
	go func() { _, err := l2.Accept(); done <- err }()
	l2.Close()
	if err := <-done; err == nil {
		t.Error("Accept after Close returned a connection")
	}
}
