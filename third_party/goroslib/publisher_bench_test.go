package goroslib

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/prototcp"
)

// BenchmarkPublisherWrite publishes a 20-joint JointState (the size of a
// robot's /joint_states) to 1 and 3 TCPROS subscribers on loopback. An op
// is one Write and every subscriber having the whole message: the
// subscribers are bare sockets that read each frame into a buffer of
// their own (allocating nothing) and report it. cpu-ns/op is the
// process's CPU time (user + system, every thread) per op; -benchmem's
// allocations are the publisher's, whatever goroutine makes them.
func BenchmarkPublisherWrite(b *testing.B) {
	for _, subs := range []int{1, 3} {
		b.Run(fmt.Sprintf("subs=%d", subs), func(b *testing.B) {
			n := newTestNode(b, startMaster(b), "pub_bench")
			p := newTestPublisher(b, PublisherConf{Node: n, Topic: "/js"})
			frames := make(chan struct{}, 16*subs)
			for i := 0; i < subs; i++ {
				benchSub(b, p, fmt.Sprintf("/bench%d", i), frames)
			}
			msg := jointState(1, 20)

			// A message written before a subscriber is registered is not
			// its: write until each has one, then drain.
			for got := 0; got < subs; {
				p.Write(msg)
				select {
				case <-frames:
					got++
				case <-time.After(10 * time.Millisecond):
				}
			}
			for drained := false; !drained; {
				select {
				case <-frames:
				case <-time.After(50 * time.Millisecond):
					drained = true
				}
			}

			stuck := time.NewTimer(waitLimit) // no time.After: it allocates
			defer stuck.Stop()
			b.ReportAllocs()
			cpu0 := cpuTime(b)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p.Write(msg)
				for j := 0; j < subs; j++ {
					select {
					case <-frames:
					case <-stuck.C:
						b.Fatal("a subscriber did not get its message")
					}
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// benchSub connects a bare-socket subscriber that sends on frames at
// every whole message it reads.
func benchSub(b *testing.B, p *Publisher, callerID string, frames chan<- struct{}) {
	c, err := net.Dial("tcp", p.conf.Node.tcprosListener.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	tc := prototcp.NewConn(c)
	err = tc.WriteHeader(&prototcp.HeaderSubscriber{Callerid: callerID, Md5sum: p.msgMd5,
		Topic: p.conf.Node.absoluteTopicName(p.conf.Topic), Type: p.msgType, TcpNodelay: 1})
	if err != nil {
		b.Fatal(err)
	}
	go func() {
		// The socket itself is read (no bufio.Reader reading ahead):
		// the publisher's header first, then the messages.
		buf := make([]byte, 1<<20)
		for header := true; ; header = false {
			if _, err := io.ReadFull(c, buf[:4]); err != nil {
				return
			}
			l := binary.LittleEndian.Uint32(buf)
			if l > uint32(len(buf)) {
				return
			}
			if _, err := io.ReadFull(c, buf[:l]); err != nil {
				return
			}
			if !header {
				frames <- struct{}{}
			}
		}
	}()
}

// cpuTime is the process's CPU time so far, user and system, in ns.
func cpuTime(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
