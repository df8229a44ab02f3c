package goroslib

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"
)

// With two publishers on its topic, a subscriber (queue size 0, whose
// callback runs in the goroutine reading each publisher) gets both's
// messages, one callback at a time.
func TestSubscriberCallbacksOneAtATime(t *testing.T) {
	master := startMaster(t)
	pubs := []*Publisher{
		newTestPublisher(t, PublisherConf{Node: newTestNode(t, master, "pub_a"), Topic: "/js"}),
		newTestPublisher(t, PublisherConf{Node: newTestNode(t, master, "pub_b"), Topic: "/js"}),
	}
	var inside, overlaps atomic.Int32
	got := make(chan uint32, 1000)
	sub, err := NewSubscriber(SubscriberConf{Node: newTestNode(t, master, "sub"), Topic: "/js",
		Callback: func(m *sensor_msgs.JointState) {
			if inside.Add(1) > 1 {
				overlaps.Add(1)
			}
			time.Sleep(100 * time.Microsecond) // widen the window two calls could share
			inside.Add(-1)
			got <- m.Header.Seq
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()

	// Publisher i writes seq i+1, i+3, ... until the subscriber has heard
	// both, then 50 more each.
	heard := map[uint32]bool{}
	deadline := time.Now().Add(waitLimit)
	for seq := uint32(1); ; seq += 2 {
		for i, p := range pubs {
			p.Write(jointState(seq+uint32(i), 1))
		}
		for drained := false; !drained; {
			select {
			case s := <-got:
				heard[s%2] = true
			case <-time.After(5 * time.Millisecond):
				drained = true
			}
		}
		if heard[0] && heard[1] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("heard publishers %v only", heard)
		}
	}
	for n := 0; n < 50; n++ {
		for i, p := range pubs {
			p.Write(jointState(uint32(1000+2*n+i), 1))
		}
	}
	for n := 0; n < 100; {
		select {
		case s := <-got:
			if s >= 1000 {
				n++
			}
		case <-time.After(waitLimit):
			t.Fatalf("%d of 100 messages", n)
		}
	}
	if o := overlaps.Load(); o != 0 {
		t.Errorf("%d callbacks ran while another did", o)
	}
}

// BenchmarkSubscriberReceive: an op is one 20-joint JointState written
// and handed to a subscriber's callback (another node, over loopback).
// cpu-ns/op is the process's CPU time per op, every thread.
func BenchmarkSubscriberReceive(b *testing.B) {
	master := startMaster(b)
	p := newTestPublisher(b, PublisherConf{Node: newTestNode(b, master, "bench_pub"), Topic: "/js"})
	got := make(chan struct{}, 1)
	sub, err := NewSubscriber(SubscriberConf{Node: newTestNode(b, master, "bench_sub"), Topic: "/js",
		Callback: func(m *sensor_msgs.JointState) { got <- struct{}{} }})
	if err != nil {
		b.Fatal(err)
	}
	defer sub.Close()
	msg := jointState(1, 20)
	for connected := false; !connected; {
		p.Write(msg)
		select {
		case <-got:
			connected = true
		case <-time.After(10 * time.Millisecond):
		}
	}
	for drained := false; !drained; {
		select {
		case <-got:
		case <-time.After(50 * time.Millisecond):
			drained = true
		}
	}
	stuck := time.NewTimer(waitLimit)
	defer stuck.Stop()
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.Write(msg)
		select {
		case <-got:
		case <-stuck.C:
			b.Fatal(fmt.Sprintf("message %d not received", i))
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/op")
}

// A subscriber takes messages up to its MaxMessageBytes: a publisher that
// sends a longer one is disconnected before it is read, and counted; the
// limit of a type with no variable-length field is its size.
func TestSubscriberMessageLimit(t *testing.T) {
	master := startMaster(t)
	pub := newTestPublisher(t, PublisherConf{Node: newTestNode(t, master, "pub"), Topic: "/js"})
	got := make(chan int, 100)
	sub, err := NewSubscriber(SubscriberConf{Node: newTestNode(t, master, "sub"), Topic: "/js", MaxMessageBytes: 2048,
		Callback: func(m *sensor_msgs.JointState) { got <- len(m.Name) }})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	// Small messages until one arrives (the connection is up), then one
	// of 200 joints (about 7 KiB).
	for heard := false; !heard; {
		pub.Write(jointState(1, 3))
		select {
		case <-got:
			heard = true
		case <-time.After(20 * time.Millisecond):
		}
	}
	pub.Write(jointState(2, 200))
	deadline := time.Now().Add(waitLimit)
	for sub.Refused() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the long message was not refused")
		}
		runtime.Gosched() // the refusal happens in the subscriber's reader
	}
	for len(got) > 0 {
		if n := <-got; n != 3 {
			t.Errorf("a message of %d joints was delivered past the limit", n)
		}
	}

	f, err := NewSubscriber(SubscriberConf{Node: newTestNode(t, master, "sub_f"), Topic: "/f",
		Callback: func(m *std_msgs.Float64) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.maxMessage != 8 || sub.maxMessage != 2048 {
		t.Errorf("limits: std_msgs/Float64 %d (want 8), MaxMessageBytes 2048 gave %d", f.maxMessage, sub.maxMessage)
	}
}
