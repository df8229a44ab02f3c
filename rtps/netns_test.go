package rtps_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/rtps"
)

// inNetns runs the calling top-level test again in a new network
// namespace whose lo is up, has multicast on and the route for
// 224.0.0.0/4, then setup (shell commands, e.g. tc netem): see
// tooltest.InNetns. It returns true in the inner run, which then does
// the test, and false in the outer one, which is done.
func inNetns(t *testing.T, setup string, tools ...tooltest.Tool) bool {
	t.Helper()
	script := tooltest.LoopbackMulticast
	if setup != "" {
		script += " && " + setup
	}
	return tooltest.InNetns(t, script, nil, tools...)
}

// TestMulticastDiscovery: two participants with no unicast peers find
// each other by SPDP multicast (239.255.0.1) alone and exchange samples.
func TestMulticastDiscovery(t *testing.T) {
	if !inNetns(t, "") {
		return
	}
	open := func() *rtps.Participant {
		p, err := rtps.Open(rtps.Config{Domain: interopDomain(), Multicast: true, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
	a, b := open(), open()
	got := make(chan string, 32)
	q := qosOf(true, false)
	w, _ := a.NewWriter(chatter, stringType, q)
	r, _ := b.NewReader(chatter, stringType, q, func(s rtps.Sample) {
		var m ros2msg.String
		if ros2msg.Unmarshal(s.Payload, &m) == nil {
			got <- m.Data
		}
	})
	// Both ends matched before writing: a keep-last-10 writer may drop
	// what a reader that has not matched it yet did not acknowledge.
	if err := w.WaitMatched(waitCtx(t), 1); err != nil {
		t.Fatal(err)
	}
	if err := r.WaitMatched(waitCtx(t), 1); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		w.Write(ros2msg.Marshal(nil, &ros2msg.String{Data: message(i, 0)}))
	}
	expect(t, got, 20, 0)
}

// expect reads count messages from got and checks each is message(i, size).
func expect(t *testing.T, got <-chan string, count, size int) {
	t.Helper()
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

// TestFoxglove: @foxglove/rtps (npm, test/rtps/subscriber.js) subscribes
// to the Go writer: reliable volatile and transient local (a late
// joiner). It discovers by multicast only, hence the namespace.
func TestFoxglove(t *testing.T) {
	script, _ := filepath.Abs("../test/rtps/subscriber.js")
	if !tooltest.InsideNetns(t) {
		tooltest.Require(t, tooltest.Node)
		tooltest.RequireFile(t, "../test/rtps/node_modules/@foxglove/rtps/package.json", "scripts/install-deps.sh (npm ci in test/rtps)")
	}
	if !inNetns(t, "", tooltest.Node) {
		return
	}
	for _, c := range []struct {
		name      string
		transient bool
		count     int
	}{{"ReliableVolatile", false, 20}, {"TransientLocalLateJoiner", true, 5}} {
		t.Run(c.name, func(t *testing.T) {
			p, err := rtps.Open(rtps.Config{Domain: interopDomain(), Multicast: true, Logf: t.Logf})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			w, err := p.NewWriter(chatter, stringType, qosOf(true, c.transient))
			if err != nil {
				t.Fatal(err)
			}
			write := func() {
				for i := 0; i < c.count; i++ {
					w.Write(ros2msg.Marshal(nil, &ros2msg.String{Data: message(i, 0)}))
				}
			}
			if c.transient {
				write()
			}
			sub := tooltest.StartJSON[event](t, peerEnv(), "node", script, fmt.Sprint(interopDomain()), fmt.Sprint(c.count), "1", flag(c.transient))
			if !c.transient {
				sub.Wait("@foxglove/rtps discovered the writer", func(e event) bool { return e.Event == "matched" })
				if err := w.WaitMatched(waitCtx(t), 1); err != nil {
					t.Fatal(err)
				}
				write()
			}
			for i := 0; i < c.count; i++ {
				e := sub.Wait(fmt.Sprintf("message %d", i), func(e event) bool { return e.Event == "" })
				if e.Head != fmt.Sprintf("hello %d", i) || e.Len != len(message(i, 0)) {
					t.Fatalf("@foxglove/rtps got %+v, want hello %d", e, i)
				}
			}
		})
	}
}

// cycloneMulticastURI lets Cyclone discover by multicast on lo, with no
// unicast peers: the default discovery of a ROS 2 robot network.
const cycloneMulticastURI = `<CycloneDDS><Domain id="any"><General><Interfaces><NetworkInterface name="lo" multicast="true"/></Interfaces>` +
	`<AllowMulticast>true</AllowMulticast></General></Domain></CycloneDDS>`

// TestCycloneMulticast: with SPDP by multicast only (239.255.0.1) on both
// sides, a Go writer reaches a Cyclone DDS reader and a Cyclone writer a
// Go reader, reliable, every message in order.
func TestCycloneMulticast(t *testing.T) {
	bin := cyclone.program(t) // built outside the namespace too, so that a missing tool skips there
	if !inNetns(t, "") {
		return
	}
	env := peerEnv()
	for i, kv := range env.Vars {
		if strings.HasPrefix(kv, "CYCLONEDDS_URI=") {
			env.Vars[i] = "CYCLONEDDS_URI=" + cycloneMulticastURI
		}
	}
	p, err := rtps.Open(rtps.Config{Domain: interopDomain(), Multicast: true, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	q := qosOf(true, false)

	w, _ := p.NewWriter(chatter, stringType, q)
	sub := tooltest.StartJSON[event](t, env, bin, "sub", chatter, "10", "1", "0")
	sub.Wait("the Cyclone reader matched", func(e event) bool { return e.Event == "matched" })
	if err := w.WaitMatched(waitCtx(t), 1); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		w.Write(ros2msg.Marshal(nil, &ros2msg.String{Data: message(i, 0)}))
	}
	for i := 0; i < 10; i++ {
		if e := sub.Wait(fmt.Sprintf("message %d", i), func(e event) bool { return e.Event == "" }); e.Head != fmt.Sprintf("hello %d", i) {
			t.Fatalf("Cyclone got %+v, want hello %d", e, i)
		}
	}

	got := make(chan string, 16)
	p.NewReader("rt/back", stringType, q, func(s rtps.Sample) {
		var m ros2msg.String
		if ros2msg.Unmarshal(s.Payload, &m) == nil {
			got <- m.Data
		}
	})
	tooltest.StartJSON[event](t, env, bin, "pub", "rt/back", "10", "1", "0", "0")
	expect(t, got, 10, 0)
}
