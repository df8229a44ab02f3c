package goroslib

import (
	"errors"
	"io"
	"net"
	"testing"
	"time"
)

// TestTCPROSHandshakeLimit: connections that never send their header
// hold at most MaxTCPROSHandshakes slots; one more is closed at once, not
// after the read timeout.
func TestTCPROSHandshakeLimit(t *testing.T) {
	master := startMaster(t)
	n, err := NewNode(NodeConf{Name: "limits", MasterAddress: master, Host: "127.0.0.1",
		LogDestinations: LogDestinationCallback, ReadTimeout: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	addr := n.tcprosListener.Addr().String()

	closed := make(chan int, MaxTCPROSHandshakes+1)
	for i := 0; i <= MaxTCPROSHandshakes; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		go func(i int, c net.Conn) {
			c.SetReadDeadline(time.Now().Add(waitLimit))
			_, err := c.Read(make([]byte, 1))
			var ne net.Error
			if errors.Is(err, io.EOF) || (err != nil && !(errors.As(err, &ne) && ne.Timeout())) {
				closed <- i
			}
		}(i, c)
	}
	select {
	case <-closed:
	case <-time.After(waitLimit):
		t.Fatalf("%d connections without a header were all kept open (the node's read timeout is 5 min)", MaxTCPROSHandshakes+1)
	}
}
