package main

import (
	"encoding/binary"
	"net"
	"net/netip"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/rtps"
)

// attackerAddr is a second address on RobotNetwork's interface: another
// host on the robot's network, as far as frcd can tell.
const attackerAddr = "10.27.0.66"

// TestROS2FakeParticipants replays issue 37's lockout: `frcd run --sim
// --ros 2` in a namespace laid out as a robot's network, and a host on
// it announcing one-off participants (infinite leases, never a SEDP
// message) to frcd's discovery port, 2,000 a second. Cyclone DDS and
// Fast DDS subscribers of /joint_states, started after the first 1,000
// and while the flood goes on, discover frcd and get its joint states;
// after 10,000 (the flood stopped) two new ones do too. (Before, 64
// announcements locked every new peer out until frcd restarted.) It
// needs root for the namespace; skipped with -short, and when a tool is
// missing unless FRCD_REQUIRE_TOOLS=1.
func TestROS2FakeParticipants(t *testing.T) {
	if testing.Short() {
		t.Skip("runs frcd and DDS peers in a network namespace: skipped with -short")
	}
	const urdf, yaml = "../../examples/2026/robot.urdf", "../../examples/2026/robot.yaml"
	var env []string
	if !tooltest.InsideNetns(t) {
		env = buildJointStatesPeers(t)
	}
	if !tooltest.InNetns(t, tooltest.RobotNetwork+" && ip addr add "+attackerAddr+"/24 dev frcd0", env) {
		return
	}
	names := loopJointNames(t, urdf, yaml)
	cmd, stderr := startROS2Run(t, urdf, yaml)
	start := time.Now().Unix()
	f := startFakeParticipants(t, netip.MustParseAddrPort(tooltest.RobotAddr+":7410")) // domain 0, participant 0: frcd
	subscribe := func() ([]string, map[string]*tooltest.JSONLines[jsEvent]) {
		var order []string
		subs := map[string]*tooltest.JSONLines[jsEvent]{}
		for _, p := range jointStatesPeers {
			bin := os.Getenv(peerBinEnv(p.Peer))
			if bin == "" {
				t.Fatalf("no %s from the run outside the namespace", peerBinEnv(p.Peer))
			}
			order = append(order, p.Name)
			subs[p.Name] = tooltest.StartJSON[jsEvent](t, ddstest.MulticastEnv(-1), bin, "20")
		}
		return order, subs
	}
	f.waitSent(t, 1000)
	order, subs := subscribe()
	checkJointStates(t, order, subs, names, start, 20)
	during := f.sent.Load()
	f.waitSent(t, 10_000)
	f.stop()
	order, subs = subscribe()
	checkJointStates(t, order, subs, names, start, 20)
	t.Logf("the subscribers started during the flood had their joint states after %d fake participants; %d in all", during, f.sent.Load())
	terminate(t, cmd, stderr)
}

// fakeParticipants announces new participants to one address until
// stopped.
type fakeParticipants struct {
	sent atomic.Int64
	done chan struct{}
	wg   sync.WaitGroup
}

func startFakeParticipants(t *testing.T, to netip.AddrPort) *fakeParticipants {
	c, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.MustParseAddrPort(attackerAddr+":0")))
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeParticipants{done: make(chan struct{})}
	t.Cleanup(f.stop)
	loc := []rtps.Locator{rtps.UDPv4(netip.MustParseAddrPort(attackerAddr + ":7999"))}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		defer c.Close()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		var m rtps.Builder
		for id := uint32(1); ; {
			select {
			case <-f.done:
				return
			case <-tick.C:
			}
			for range 20 {
				var prefix rtps.GuidPrefix
				prefix[0] = 0xfa
				binary.BigEndian.PutUint32(prefix[8:], id)
				id++
				d := rtps.ParticipantData{GUID: rtps.GUID{Prefix: prefix, Entity: rtps.EntityParticipant}, MetaUnicast: loc, DefaultUnicast: loc,
					BuiltinEndpoints: 0x3f, LeaseDuration: 1 << 62}
				m.Reset(nil, prefix)
				m.Data(&rtps.Data{Writer: rtps.EntitySPDPWriter, SN: 1, Payload: d.Marshal(nil)})
				if _, err := c.WriteToUDPAddrPort(m.Bytes(), to); err == nil {
					f.sent.Add(1)
				}
			}
		}
	}()
	return f
}

// waitSent waits until n announcements have been sent.
func (f *fakeParticipants) waitSent(t *testing.T, n int64) {
	t.Helper()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	limit := time.After(time.Minute)
	for f.sent.Load() < n {
		select {
		case <-tick.C:
		case <-limit:
			t.Fatalf("%d fake participants sent in a minute, want %d", f.sent.Load(), n)
		}
	}
}

func (f *fakeParticipants) stop() {
	select {
	case <-f.done:
	default:
		close(f.done)
	}
	f.wg.Wait()
}
