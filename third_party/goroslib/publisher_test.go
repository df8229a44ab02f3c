package goroslib

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/prototcp"
)

// rawSub is a TCPROS subscriber on a bare socket: it reads only when
// the test asks, so it can play a subscriber that stops reading.
type rawSub struct {
	conn  net.Conn
	tconn *prototcp.Conn
}

// dialSub connects to p's node as callerID and completes the handshake.
func dialSub(t *testing.T, p *Publisher, callerID string, nodelay int) *rawSub {
	t.Helper()
	c, err := net.Dial("tcp", p.conf.Node.tcprosListener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(waitLimit))
	tc := prototcp.NewConn(c)
	err = tc.WriteHeader(&prototcp.HeaderSubscriber{
		Callerid:   callerID,
		Md5sum:     p.msgMd5,
		Topic:      p.conf.Node.absoluteTopicName(p.conf.Topic),
		Type:       p.msgType,
		TcpNodelay: nodelay,
	})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := tc.ReadHeaderRaw()
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := raw["error"]; ok {
		t.Fatalf("publisher refused %s: %s", callerID, e)
	}
	// the publisher has registered the subscriber once it can be found
	waitSubscriber(t, p, callerID)
	return &rawSub{conn: c, tconn: tc}
}

func waitSubscriber(t *testing.T, p *Publisher, callerID string) *publisherSubscriber {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ; {
		p.mu.Lock()
		ps := p.subscribers[callerID]
		p.mu.Unlock()
		if ps != nil {
			return ps
		}
		if time.Now().After(deadline) {
			t.Fatalf("subscriber %s not registered", callerID)
		}
		runtime.Gosched() // registered by the node's goroutine
	}
}

func (s *rawSub) read(t *testing.T) *sensor_msgs.JointState {
	t.Helper()
	s.conn.SetReadDeadline(time.Now().Add(waitLimit))
	var m sensor_msgs.JointState
	if err := s.tconn.ReadMessage(&m); err != nil {
		t.Fatal(err)
	}
	return &m
}

// A subscriber that stops reading neither blocks Write nor holds back
// another subscriber: its queue stays bounded, losing its oldest
// messages, and once it reads again it gets whole messages, in order.
func TestPublisherSlowSubscriber(t *testing.T) {
	n := newTestNode(t, startMaster(t), "pub_slow")
	p := newTestPublisher(t, PublisherConf{Node: n, Topic: "/js"})
	slow := dialSub(t, p, "/slow", 1)
	fast := dialSub(t, p, "/fast", 1)
	slowPS := waitSubscriber(t, p, "/slow")

	// ~40 kB a message: a few hundred of them fill any socket's buffers.
	// Each is written once the fast subscriber has the one before, so
	// that it alone never loses one.
	const count = 400
	msg := jointState(0, 1000)
	got := make(chan struct{})
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		for i := uint32(1); i <= count; i++ {
			msg.Header.Seq = i // msg reused: Write has encoded it
			p.Write(msg)
			select {
			case <-got:
			case <-time.After(waitLimit):
				return
			}
		}
	}()
	for i := uint32(1); i <= count; i++ {
		if m := fast.read(t); m.Header.Seq != i || len(m.Position) != 1000 {
			t.Fatalf("fast subscriber got seq %d (%d positions), want %d", m.Header.Seq, len(m.Position), i)
		}
		got <- struct{}{}
	}
	<-wrote

	slowPS.tcpW.mu.Lock()
	queued, dropped := len(slowPS.tcpW.queue), slowPS.tcpW.dropped
	slowPS.tcpW.mu.Unlock()
	if queued > tcpSubQueue || dropped == 0 {
		t.Fatalf("slow subscriber: %d queued (limit %d), %d dropped", queued, tcpSubQueue, dropped)
	}

	// Reading again, it gets every message still queued, whole and in
	// order, the last one last.
	last := uint32(0)
	for last != count {
		m := slow.read(t)
		if m.Header.Seq <= last || len(m.Position) != 1000 || m.Position[1] != float64(0)+0.1 {
			t.Fatalf("slow subscriber got seq %d after %d (%d positions)", m.Header.Seq, last, len(m.Position))
		}
		last = m.Header.Seq
	}
}

// A subscriber stays connected past the node's write timeout, whether
// its messages went straight to the socket or through its queue (the
// deadline of the handshake and of the queue's writes once failed every
// write after it).
func TestPublisherPastWriteTimeout(t *testing.T) {
	const timeout = 300 * time.Millisecond
	n, err := NewNode(NodeConf{Name: "pub_timeout", MasterAddress: startMaster(t), Host: "127.0.0.1",
		LogDestinations: LogDestinationCallback, WriteTimeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	p := newTestPublisher(t, PublisherConf{Node: n, Topic: "/js"})
	s := dialSub(t, p, "/sub", 1)
	ps := waitSubscriber(t, p, "/sub")

	// Big messages written faster than read, then small ones, one a
	// millisecond for several write timeouts. The subscriber reads all
	// the while, each frame's sequence number only (cheap, so that it
	// keeps up within the timeout under -race).
	const big = 300
	const total = big + uint32(3*timeout/time.Millisecond)
	go func() {
		for seq := uint32(1); seq <= total; seq++ {
			if seq <= big {
				p.Write(jointState(seq, 1000))
				continue
			}
			p.Write(jointState(seq, 2))
			time.Sleep(time.Millisecond) // pacing the writer, not waiting for a result
		}
	}()
	buf := make([]byte, 1<<20)
	for got := uint32(0); got != total; {
		s.conn.SetReadDeadline(time.Now().Add(waitLimit))
		_, err := io.ReadFull(s.conn, buf[:4])
		l := binary.LittleEndian.Uint32(buf)
		if err == nil && l > uint32(len(buf)) {
			err = fmt.Errorf("frame of %d bytes", l)
		}
		if err == nil {
			_, err = io.ReadFull(s.conn, buf[:l])
		}
		if err != nil {
			ps.tcpW.mu.Lock()
			werr := ps.tcpW.err
			ps.tcpW.mu.Unlock()
			t.Fatalf("after seq %d: %v (the publisher's side: %v)", got, err, werr)
		}
		seq := binary.LittleEndian.Uint32(buf) // Header.Seq comes first
		if seq <= got {
			t.Fatalf("seq %d after %d", seq, got)
		}
		got = seq
	}
}

// A subscriber whose socket closes is dropped by the publisher, whose
// Write goes on serving the others.
func TestPublisherSubscriberGone(t *testing.T) {
	n := newTestNode(t, startMaster(t), "pub_gone")
	p := newTestPublisher(t, PublisherConf{Node: n, Topic: "/js"})
	gone := dialSub(t, p, "/gone", 1)
	stays := dialSub(t, p, "/stays", 1)
	gone.conn.Close()

	for deadline, seq := time.Now().Add(waitLimit), uint32(1); ; seq++ {
		p.Write(jointState(seq, 3))
		if m := stays.read(t); m.Header.Seq != seq {
			t.Fatalf("got seq %d, want %d", m.Header.Seq, seq)
		}
		p.mu.Lock()
		_, there := p.subscribers["/gone"]
		p.mu.Unlock()
		if !there {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the closed subscriber is still the publisher's")
		}
	}
}

// Write allocates nothing in the steady state, whatever the number of
// subscribers: the message is encoded once into the publisher's buffer
// and written from it (v2.1.5 encoded it in each subscriber's goroutine,
// boxing every field).
func TestPublisherWriteDoesNotAllocate(t *testing.T) {
	n := newTestNode(t, startMaster(t), "pub_alloc")
	for _, subs := range []int{1, 3} {
		p := newTestPublisher(t, PublisherConf{Node: n, Topic: fmt.Sprintf("/js%d", subs)})
		readers := make([]*rawSub, subs)
		for i := range readers {
			readers[i] = dialSub(t, p, fmt.Sprintf("/sub%d_%d", subs, i), 1)
		}
		// The readers drain their sockets into a buffer of their own,
		// allocating nothing, so that AllocsPerRun counts Write's.
		for _, r := range readers {
			r.conn.SetReadDeadline(time.Time{})
			go func(c net.Conn) {
				buf := make([]byte, 64*1024)
				for {
					if _, err := c.Read(buf); err != nil {
						return
					}
				}
			}(r.conn)
		}
		msg := jointState(1, 20)
		if allocs := testing.AllocsPerRun(1000, func() { p.Write(msg) }); allocs != 0 {
			t.Errorf("%d subscribers: %v allocations per Write, want 0", subs, allocs)
		}
	}
}

// A latching publisher sends a late subscriber the last message as it
// was when written, even if the caller has reused it since.
func TestPublisherLatch(t *testing.T) {
	n := newTestNode(t, startMaster(t), "pub_latch")
	p := newTestPublisher(t, PublisherConf{Node: n, Topic: "/js", Latch: true})
	msg := jointState(7, 2)
	p.Write(msg)
	msg.Header.Seq, msg.Position[0] = 99, -1

	for _, id := range []string{"/late1", "/late2"} {
		m := dialSub(t, p, id, 0).read(t)
		if m.Header.Seq != 7 || m.Position[0] != 7 {
			t.Errorf("%s got seq %d position %v, want the message as written (seq 7, position 7)", id, m.Header.Seq, m.Position[0])
		}
	}
}

// TCP_NODELAY as the subscriber asks (roscpp), or always with
// PublisherConf.TCPNoDelay (rospy's tcp_nodelay): read back from the
// publisher's own accepted socket.
func TestPublisherTCPNoDelay(t *testing.T) {
	n := newTestNode(t, startMaster(t), "pub_nodelay")
	for _, c := range []struct {
		conf, header int
		want         int
	}{
		{0, 0, 0},
		{0, 1, 1},
		{1, 0, 1},
		{1, 1, 1},
	} {
		topic := fmt.Sprintf("/nodelay_%d_%d", c.conf, c.header)
		p := newTestPublisher(t, PublisherConf{Node: n, Topic: topic, TCPNoDelay: c.conf == 1})
		dialSub(t, p, "/sub", c.header)
		ps := waitSubscriber(t, p, "/sub")
		raw, err := ps.tcpNConn.(*net.TCPConn).SyscallConn()
		if err != nil {
			t.Fatal(err)
		}
		var got int
		var gerr error
		raw.Control(func(fd uintptr) { got, gerr = syscall.GetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_NODELAY) })
		if gerr != nil {
			t.Fatal(gerr)
		}
		if (got != 0) != (c.want != 0) {
			t.Errorf("TCPNoDelay %v, header tcp_nodelay %d: TCP_NODELAY %d, want %d", c.conf == 1, c.header, got, c.want)
		}
	}
}

// A UDPROS subscriber (goroslib's own) gets the messages as written,
// though the caller reuses its message at once: Write keeps none.
func TestPublisherUDP(t *testing.T) {
	master := startMaster(t)
	p := newTestPublisher(t, PublisherConf{Node: newTestNode(t, master, "pub_udp"), Topic: "/js"})
	got := make(chan *sensor_msgs.JointState, 100)
	sub, err := NewSubscriber(SubscriberConf{Node: newTestNode(t, master, "sub_udp"), Topic: "/js", Protocol: UDP,
		Callback: func(m *sensor_msgs.JointState) { got <- m }})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()

	msg := jointState(0, 3)
	write := func(seq uint32) {
		msg.Header.Seq, msg.Position[0] = seq, float64(seq)
		p.Write(msg)
		msg.Header.Seq, msg.Position[0] = 0, -1 // reused at once
	}
	// Until the subscriber is connected, messages are nobody's.
	seq := uint32(1)
	for connected := false; !connected; seq++ {
		write(seq)
		select {
		case <-got:
			connected = true
		case <-time.After(20 * time.Millisecond):
		}
	}
	for i := 0; i < 5; i++ {
		write(seq)
		for m := (*sensor_msgs.JointState)(nil); m == nil || m.Header.Seq < seq; { // skip the connection's
			select {
			case m = <-got:
				if m.Header.Seq > seq || m.Position[0] != float64(m.Header.Seq) {
					t.Fatalf("got seq %d position %v, want %d", m.Header.Seq, m.Position[0], seq)
				}
			case <-time.After(waitLimit):
				t.Fatal("no message over UDP")
			}
		}
		seq++
	}
}
