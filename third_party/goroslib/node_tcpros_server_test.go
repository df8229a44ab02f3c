package goroslib

import (
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
)

// TestTCPROSHandshakeLimit: connections that never send their header
// hold at most MaxTCPROSHandshakes slots; one more is closed at once, not
// after the read timeout. They come from five loopback addresses, each
// under MaxTCPROSHandshakesPerAddr.
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
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 1, byte(1+i%5))}}
		c, err := d.Dial("tcp", addr)
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

// TestTCPROSHandshakesPerAddr: one address's half-open connections hold
// at most MaxTCPROSHandshakesPerAddr handshakes (one more closes the
// oldest, counted); a subscriber from another address still connects
// and receives meanwhile.
func TestTCPROSHandshakesPerAddr(t *testing.T) {
	master := startMaster(t)
	n, err := NewNode(NodeConf{Name: "pubnode", MasterAddress: master, Host: "127.0.0.1",
		LogDestinations: LogDestinationCallback, ReadTimeout: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	pub := newTestPublisher(t, PublisherConf{Node: n, Topic: "/js"})
	addr := n.tcprosListener.Addr().String()

	closed := make(chan int, MaxTCPROSHandshakesPerAddr+1)
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}
	for i := 0; i <= MaxTCPROSHandshakesPerAddr; i++ {
		c, err := d.Dial("tcp", addr)
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
		t.Fatalf("%d half-open connections from one address were all kept", MaxTCPROSHandshakesPerAddr+1)
	}
	if n.TCPROSEvicted() == 0 {
		t.Error("the oldest handshake closed for the newest was not counted")
	}
	got := make(chan struct{}, 100)
	sub, err := NewSubscriber(SubscriberConf{Node: newTestNode(t, master, "sub"), Topic: "/js",
		Callback: func(*sensor_msgs.JointState) { got <- struct{}{} }})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	deadline := time.Now().Add(waitLimit)
	for heard := false; !heard; {
		pub.Write(jointState(1, 3))
		select {
		case <-got:
			heard = true
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("the subscriber from another address never received")
		}
	}
}
