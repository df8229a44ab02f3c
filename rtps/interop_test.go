package rtps_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/rtps"
)

// The peers' programs (testdata/cyclone/chatter.c,
// testdata/fastdds/chatter.cpp) take the same arguments and print the
// same lines; their type comes from testdata/String.idl through each
// implementation's IDL compiler.
type peer struct {
	*ddstest.Peer
	src string
}

var (
	cyclone = peer{ddstest.Cyclone, "testdata/cyclone/chatter.c"}
	fastdds = peer{ddstest.FastDDS, "testdata/fastdds/chatter.cpp"}
)

func (p peer) program(t *testing.T) string { return p.Program(t, p.src, "testdata/String.idl") }

func TestMain(m *testing.M) {
	code := m.Run()
	ddstest.Cleanup()
	os.Exit(code)
}

// event is a line of the chatter peer.
type event struct {
	Event string `json:"event"`
	Len   int    `json:"len"`
	Head  string `json:"head"`
}

func interopDomain() int { return ddstest.Domain() }

func peerEnv() *tooltest.ROS { return ddstest.Env(interopDomain()) }

func goParticipant(t *testing.T) *rtps.Participant {
	t.Helper()
	p, err := rtps.Open(rtps.Config{Domain: interopDomain(), MaxPeerID: ddstest.MaxPeerID, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

const (
	chatter    = "rt/chatter"
	stringType = "std_msgs::msg::dds_::String_"
)

func waitCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), tooltest.Timeout)
	t.Cleanup(cancel)
	return ctx
}

// message is the i-th message of a test: "hello i" padded with x to size.
func message(i, size int) string {
	s := fmt.Sprintf("hello %d", i)
	if len(s) < size {
		s += strings.Repeat("x", size-len(s))
	}
	return s
}

func qosOf(reliable, transient bool) rtps.QoS {
	q := rtps.QoS{Reliability: rtps.BestEffort, History: rtps.KeepLast, Depth: 10}
	if reliable {
		q.Reliability = rtps.Reliable
	}
	if transient {
		q.Durability = rtps.TransientLocal
	}
	return q
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// goToPeer: a Go writer publishes count messages of size bytes on
// rt/chatter; the peer's subscriber gets each, in order, exactly. With
// transient, the Go writer writes them all before the subscriber starts.
func goToPeer(t *testing.T, pr peer, reliable, transient bool, count, size int) {
	bin := pr.program(t)
	p := goParticipant(t)
	w, err := p.NewWriter(chatter, stringType, qosOf(reliable, transient))
	if err != nil {
		t.Fatal(err)
	}
	write := func() {
		for i := 0; i < count; i++ {
			if err := w.Write(ros2msg.Marshal(nil, &ros2msg.String{Data: message(i, size)})); err != nil {
				t.Fatal(err)
			}
		}
	}
	if transient {
		write()
	}
	sub := tooltest.StartJSON[event](t, peerEnv(), bin, "sub", chatter, fmt.Sprint(count), flag(reliable), flag(transient))
	if !transient {
		sub.Wait("the peer's reader matched", func(e event) bool { return e.Event == "matched" })
		if err := w.WaitMatched(waitCtx(t), 1); err != nil {
			t.Fatal(err)
		}
		write()
	}
	for i := 0; i < count; i++ {
		e := sub.Wait(fmt.Sprintf("message %d", i), func(e event) bool { return e.Event == "" })
		want := message(i, size)
		if e.Len != len(want) || e.Head != fmt.Sprintf("hello %d", i) {
			t.Fatalf("%s got %+v, want hello %d of %d bytes", pr.Name, e, i, len(want))
		}
	}
}

// peerToGo: the peer's publisher writes count messages; a Go reader gets
// each, in order, exactly. With transient, the peer's writer writes before
// the Go reader exists.
func peerToGo(t *testing.T, pr peer, reliable, transient bool, count, size int) {
	bin := pr.program(t)
	p := goParticipant(t)
	got := make(chan string, count+10)
	newReader := func() {
		_, err := p.NewReader(chatter, stringType, qosOf(reliable, transient), func(s rtps.Sample) {
			var m ros2msg.String
			if err := ros2msg.Unmarshal(s.Payload, &m); err != nil {
				t.Errorf("sample %d: %v", s.SN, err)
				return
			}
			got <- m.Data
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if !transient {
		newReader()
	}
	pub := tooltest.StartJSON[event](t, peerEnv(), bin, "pub", chatter, fmt.Sprint(count), flag(reliable), flag(transient), fmt.Sprint(size))
	if transient {
		pub.Wait("the peer writer's messages", func(e event) bool { return e.Event == "written" })
		newReader()
	}
	timeout := time.NewTimer(tooltest.Timeout)
	defer timeout.Stop()
	for i := 0; i < count; i++ {
		select {
		case s := <-got:
			if s != message(i, size) {
				t.Fatalf("message %d: got %.40q (%d bytes), want %.40q", i, s, len(s), message(i, size))
			}
		case <-timeout.C:
			t.Fatalf("message %d not received", i)
		}
	}
}

// TestInterop runs each case with each peer, both directions:
// reliable (50 messages) and best effort (5) volatile readers matched
// before the writes; transient local late joiners (5 messages written
// before the reader exists); 100 kB samples through DATA_FRAG (Cyclone
// fragments at 1344 bytes by default, Fast DDS at its UDP datagram size,
// the Go writer at 1024).
func TestInterop(t *testing.T) {
	for _, pr := range []peer{cyclone, fastdds} {
		for _, c := range []struct {
			name                string
			reliable, transient bool
			count, size         int
		}{
			{"Reliable", true, false, 50, 0},
			{"BestEffort", false, false, 5, 0},
			{"TransientLocal", true, true, 5, 0},
			{"Fragments", true, false, 3, 100_000},
		} {
			t.Run(pr.Name+"/"+c.name+"GoToPeer", func(t *testing.T) { goToPeer(t, pr, c.reliable, c.transient, c.count, c.size) })
			t.Run(pr.Name+"/"+c.name+"PeerToGo", func(t *testing.T) { peerToGo(t, pr, c.reliable, c.transient, c.count, c.size) })
		}
	}
}
