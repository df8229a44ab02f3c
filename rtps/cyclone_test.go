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

// The Cyclone DDS peer: testdata/cyclone/chatter.c, built against Debian's
// cyclonedds-dev 0.10.2 with its type from String.idl by idlc
// (cyclonedds-tools). It finds the Go participant by unicast (Peers), as
// loopback has no multicast here.
var (
	idlc        = tooltest.Tool{Name: "idlc", Package: "cyclonedds-tools"}
	gcc         = tooltest.Tool{Name: "gcc", Package: "gcc"}
	pkgConfig   = tooltest.Tool{Name: "pkg-config", Package: "pkgconf"}
	cycloneHdr  = "/usr/include/dds/dds.h"
	cycloneOnce sync.Once
	cycloneBin  string
	cycloneErr  error
)

// cycloneURI configures Cyclone for loopback and unicast discovery: peers
// on 127.0.0.1, participant indices 0 to 20 (which the Go side probes).
const cycloneURI = `<CycloneDDS><Domain id="any"><General><Interfaces><NetworkInterface address="127.0.0.1"/></Interfaces>` +
	`<AllowMulticast>false</AllowMulticast></General><Discovery><ParticipantIndex>auto</ParticipantIndex>` +
	`<MaxAutoParticipantIndex>20</MaxAutoParticipantIndex><Peers><Peer address="127.0.0.1"/></Peers></Discovery></Domain></CycloneDDS>`

func TestMain(m *testing.M) {
	code := m.Run()
	if cycloneBin != "" {
		os.RemoveAll(filepath.Dir(cycloneBin))
	}
	os.Exit(code)
}

// buildCyclone builds the chatter peer once per test binary.
func buildCyclone(t *testing.T) string {
	t.Helper()
	tooltest.Require(t, idlc, gcc, pkgConfig)
	tooltest.RequireFile(t, cycloneHdr, "the Debian package cyclonedds-dev")
	cycloneOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cyclone-chatter")
		if err != nil {
			cycloneErr = err
			return
		}
		src, _ := filepath.Abs("testdata/cyclone")
		cycloneBin = filepath.Join(dir, "chatter")
		flags, err := exec.Command("pkg-config", "--cflags", "--libs", "CycloneDDS").Output()
		if err != nil {
			cycloneErr = fmt.Errorf("pkg-config CycloneDDS: %w", err)
			return
		}
		for _, c := range [][]string{
			{"idlc", filepath.Join(src, "String.idl")},
			append([]string{"gcc", "-O1", "-Wall", "-o", cycloneBin, filepath.Join(src, "chatter.c"), "String.c", "-I."}, strings.Fields(string(flags))...),
		} {
			cmd := exec.Command(c[0], c[1:]...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				cycloneErr = fmt.Errorf("%s: %v\n%s", strings.Join(c, " "), err, out)
				return
			}
		}
	})
	if cycloneErr != nil {
		t.Fatal(cycloneErr)
	}
	return cycloneBin
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

// goToCyclone: a Go writer publishes count messages of size bytes on
// rt/chatter; the Cyclone subscriber gets each, in order, exactly. With
// transient, the Go writer writes them all before the subscriber starts.
func goToCyclone(t *testing.T, reliable, transient bool, count, size int) {
	bin := buildCyclone(t)
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
		sub.Wait("the Cyclone reader matched", func(e event) bool { return e.Event == "matched" })
		if err := w.WaitMatched(waitCtx(t), 1); err != nil {
			t.Fatal(err)
		}
		write()
	}
	for i := 0; i < count; i++ {
		e := sub.Wait(fmt.Sprintf("message %d", i), func(e event) bool { return e.Event == "" })
		want := message(i, size)
		if e.Len != len(want) || e.Head != fmt.Sprintf("hello %d", i) {
			t.Fatalf("Cyclone got %+v, want hello %d of %d bytes", e, i, len(want))
		}
	}
}

// cycloneToGo: the Cyclone publisher writes count messages; a Go reader
// gets each, in order, exactly. With transient, the Cyclone writer writes
// before the Go reader exists.
func cycloneToGo(t *testing.T, reliable, transient bool, count, size int) {
	bin := buildCyclone(t)
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
		pub.Wait("the Cyclone writer's messages", func(e event) bool { return e.Event == "written" })
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

func TestCycloneReliableGoToCyclone(t *testing.T)   { goToCyclone(t, true, false, 50, 0) }
func TestCycloneReliableCycloneToGo(t *testing.T)   { cycloneToGo(t, true, false, 50, 0) }
func TestCycloneBestEffortGoToCyclone(t *testing.T) { goToCyclone(t, false, false, 5, 0) }
func TestCycloneBestEffortCycloneToGo(t *testing.T) { cycloneToGo(t, false, false, 5, 0) }

// Late joiners: transient local, the reader starts after the writer wrote.
func TestCycloneTransientLocalGoToCyclone(t *testing.T) { goToCyclone(t, true, true, 5, 0) }
func TestCycloneTransientLocalCycloneToGo(t *testing.T) { cycloneToGo(t, true, true, 5, 0) }

// Samples of 100 kB: DATA_FRAG both ways (Cyclone fragments at 1344 bytes
// by default, the Go writer at 1024).
func TestCycloneFragmentsGoToCyclone(t *testing.T) { goToCyclone(t, true, false, 3, 100_000) }
func TestCycloneFragmentsCycloneToGo(t *testing.T) { cycloneToGo(t, true, false, 3, 100_000) }
