package rtps_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/rtps"
)

// The DDS peers, each a program with the same arguments and output
// (testdata/cyclone/chatter.c, testdata/fastdds/chatter.cpp), built once
// per test binary from Debian's packages, with their type generated from
// testdata/String.idl by the implementation's own IDL compiler. They find
// the Go participant by unicast on 127.0.0.1 (loopback has no multicast
// here) at the discovery ports of participant ids 0 to 20.
type peer struct {
	name  string
	tools []tooltest.Tool
	files map[string]string // a header that must exist -> its Debian package
	build func(dir, src string) [][]string
	once  sync.Once
	bin   string
	err   error
}

var (
	gcc       = tooltest.Tool{Name: "gcc", Package: "gcc"}
	gxx       = tooltest.Tool{Name: "g++", Package: "g++"}
	pkgConfig = tooltest.Tool{Name: "pkg-config", Package: "pkgconf"}
	peerDirs  []string
)

// cyclone is Cyclone DDS 0.10.2 (cyclonedds-dev), what rmw_cyclonedds_cpp uses.
var cyclone = &peer{
	name:  "Cyclone",
	tools: []tooltest.Tool{{Name: "idlc", Package: "cyclonedds-tools"}, gcc, pkgConfig},
	files: map[string]string{"/usr/include/dds/dds.h": "cyclonedds-dev"},
	build: func(dir, src string) [][]string {
		return [][]string{
			{"idlc", filepath.Join(src, "String.idl")},
			{"sh", "-c", "gcc -O1 -Wall -o chatter " + filepath.Join(src, "cyclone", "chatter.c") + " String.c -I. $(pkg-config --cflags --libs CycloneDDS)"},
		}
	},
}

// fastdds is Fast DDS 2.9.1 (libfastrtps-dev) with fastddsgen, what
// rmw_fastrtps_cpp uses.
var fastdds = &peer{
	name:  "FastDDS",
	tools: []tooltest.Tool{{Name: "fastddsgen", Package: "fastddsgen"}, gxx},
	files: map[string]string{"/usr/include/fastdds/dds/domain/DomainParticipant.hpp": "libfastrtps-dev"},
	build: func(dir, src string) [][]string {
		return [][]string{
			{"fastddsgen", "-d", ".", filepath.Join(src, "String.idl")},
			{"g++", "-std=c++14", "-O1", "-o", "chatter", filepath.Join(src, "fastdds", "chatter.cpp"), "String.cxx", "StringPubSubTypes.cxx", "-I.", "-lfastrtps", "-lfastcdr"},
		}
	},
}

// cycloneURI configures Cyclone for loopback and unicast discovery: peers
// on 127.0.0.1, participant indices 0 to 20 (which the Go side probes).
const cycloneURI = `<CycloneDDS><Domain id="any"><General><Interfaces><NetworkInterface address="127.0.0.1"/></Interfaces>` +
	`<AllowMulticast>false</AllowMulticast></General><Discovery><ParticipantIndex>auto</ParticipantIndex>` +
	`<MaxAutoParticipantIndex>20</MaxAutoParticipantIndex><Peers><Peer address="127.0.0.1"/></Peers></Discovery></Domain></CycloneDDS>`

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range peerDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

var buildMu sync.Mutex

// program builds the peer once per test binary and returns its path.
func (p *peer) program(t *testing.T) string {
	t.Helper()
	tooltest.Require(t, p.tools...)
	for f, pkg := range p.files {
		tooltest.RequireFile(t, f, "the Debian package "+pkg)
	}
	p.once.Do(func() {
		dir, err := os.MkdirTemp("", "dds-chatter")
		if err != nil {
			p.err = err
			return
		}
		buildMu.Lock()
		peerDirs = append(peerDirs, dir)
		buildMu.Unlock()
		src, _ := filepath.Abs("testdata")
		for _, c := range p.build(dir, src) {
			cmd := exec.Command(c[0], c[1:]...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				p.err = fmt.Errorf("%s: %v\n%s", strings.Join(c, " "), err, out)
				return
			}
		}
		p.bin = filepath.Join(dir, "chatter")
	})
	if p.err != nil {
		t.Fatal(p.err)
	}
	return p.bin
}

// event is a line of the chatter peer.
type event struct {
	Event string `json:"event"`
	Len   int    `json:"len"`
	Head  string `json:"head"`
}

// interopDomain is this test process's domain, apart from other runs.
func interopDomain() int { return 10 + os.Getpid()%90 }

// peerEnv is the environment of a DDS peer on the test's domain.
func peerEnv() *tooltest.ROS {
	var vars []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ROS_") && !strings.HasPrefix(kv, "CYCLONEDDS_") {
			vars = append(vars, kv)
		}
	}
	vars = append(vars, fmt.Sprintf("ROS_DOMAIN_ID=%d", interopDomain()), "CYCLONEDDS_URI="+cycloneURI)
	return &tooltest.ROS{Vars: vars}
}

func goParticipant(t *testing.T) *rtps.Participant {
	t.Helper()
	p, err := rtps.Open(rtps.Config{Domain: interopDomain(), MaxPeerID: 20, Logf: t.Logf})
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
func goToPeer(t *testing.T, pr *peer, reliable, transient bool, count, size int) {
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
			t.Fatalf("%s got %+v, want hello %d of %d bytes", pr.name, e, i, len(want))
		}
	}
}

// peerToGo: the peer's publisher writes count messages; a Go reader gets
// each, in order, exactly. With transient, the peer's writer writes before
// the Go reader exists.
func peerToGo(t *testing.T, pr *peer, reliable, transient bool, count, size int) {
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
	for _, pr := range []*peer{cyclone, fastdds} {
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
			t.Run(pr.name+"/"+c.name+"GoToPeer", func(t *testing.T) { goToPeer(t, pr, c.reliable, c.transient, c.count, c.size) })
			t.Run(pr.name+"/"+c.name+"PeerToGo", func(t *testing.T) { peerToGo(t, pr, c.reliable, c.transient, c.count, c.size) })
		}
	}
}
