package main

import (
	"context"
	"math"
	"net/netip"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/ddsattack"
	"github.com/frcd/frcd/internal/tooltest"
)

// attackerAddr is a second address on RobotNetwork's interface: another
// host on the robot's network, as far as frcd can tell.
const attackerAddr = "10.27.0.66"

// TestROS2FakeParticipants replays issue 37's lockout: `frcd run --sim
// --ros 2 --ros2-egress 4mbit` in a namespace laid out as a robot's
// network, and a host on
// it announcing one-off participants (infinite leases, never a SEDP
// message) to frcd's discovery port, 2,000 a second. Cyclone DDS and
// Fast DDS subscribers of /joint_states, started after the first 1,000
// and while the flood goes on, discover frcd and get its joint states;
// after 10,000 (the flood stopped) two new ones do too. (Before, 64
// announcements locked every new peer out until frcd restarted.) It
// needs root for the namespace; skipped with -short, and when a tool is
// missing unless FRCD_REQUIRE_TOOLS=1.
func TestROS2FakeParticipants(t *testing.T) {
	cmd, stderr, names, ok := attackTarget(t, "4mbit")
	if !ok {
		return
	}
	start := time.Now().Unix()
	f, stop := startFakeParticipants(t, netip.MustParseAddrPort(tooltest.RobotAddr+":7410")) // domain 0, participant 0: frcd
	waitAnnounced(t, f, 1000)
	order, subs := startJointStatesPeers(t, 20)
	checkJointStates(t, order, subs, names, start, 20)
	during := f.Announced.Load()
	waitAnnounced(t, f, 10_000)
	stop()
	order, subs = startJointStatesPeers(t, 20)
	checkJointStates(t, order, subs, names, start, 20)
	t.Logf("the subscribers started during the flood had their joint states after %d fake participants; %d in all", during, f.Announced.Load())
	terminate(t, cmd, stderr)
}

// startFakeParticipants floods to with one-off participants from
// attackerAddr, 2,000 a second, until the test ends or stop.
func startFakeParticipants(t *testing.T, to netip.AddrPort) (a *ddsattack.Attacker, stop func()) {
	a, err := ddsattack.New(netip.MustParseAddr(attackerAddr), to)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = a.Participants(ctx, math.MaxInt, 20, 10*time.Millisecond)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			<-done
			a.Close()
		})
	}
	t.Cleanup(stop)
	return a, stop
}

// waitAnnounced waits until a has announced n participants.
func waitAnnounced(t *testing.T, a *ddsattack.Attacker, n int64) {
	t.Helper()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	limit := time.After(time.Minute)
	for a.Announced.Load() < n {
		select {
		case <-tick.C:
		case <-limit:
			t.Fatalf("%d fake participants announced in a minute, want %d", a.Announced.Load(), n)
		}
	}
}

// TestROS2AckNackStorm: `frcd run --sim --ros 2 --ros2-egress 1mbit` and a
// host on its network whose reader of /joint_states, matched and once
// acknowledging, asks for the writer's whole history 5,000 times a
// second until Cyclone DDS and Fast DDS subscribers, started as the
// storm begins, have read 20 joint states each. What frcd sends the attacker stays within the budget
// (1 Mbit/s over the time the attacker measured, plus a burst), and the
// subscribers get their joint states. (Before, each ACKNACK was answered
// in full: x28 to x81.)
func TestROS2AckNackStorm(t *testing.T) {
	cmd, stderr, names, ok := attackTarget(t, "1mbit")
	if !ok {
		return
	}
	start := time.Now().Unix()
	a, err := ddsattack.New(netip.MustParseAddr(attackerAddr), netip.MustParseAddrPort(tooltest.RobotAddr+":7410"))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := a.NewParticipant()
	if err != nil {
		t.Fatal(err)
	}
	writer, err := a.Writer(ctx, "rt/joint_states")
	if err != nil {
		t.Fatal(err)
	}
	reader, err := p.Reader(1, "rt/joint_states", "sensor_msgs::msg::dds_::JointState_")
	if err != nil {
		t.Fatal(err)
	}
	order, subs := startJointStatesPeers(t, 20)
	began, before := time.Now(), a.Received.Load()
	var sent atomic.Int64
	done, stopped := make(chan struct{}), make(chan error, 1)
	go func() { // 50 ACKNACKs every 10 ms (pacing the storm) until done
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			for range 50 {
				if err := p.AckNack(reader, writer, 1); err != nil {
					stopped <- err
					return
				}
				sent.Add(1)
			}
			select {
			case <-done:
				stopped <- nil
				return
			case <-tick.C:
			}
		}
	}()
	checkJointStates(t, order, subs, names, start, 20)
	close(done)
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	got, took := a.Received.Load()-before, time.Since(began)
	// frcd's clock spans no more than took: its budget, 125,000 bytes a
	// second, and its burst (64 KiB) bound what it sent in it.
	limit := int64(took.Seconds()*125_000) + 64<<10
	t.Logf("the storm (%d ACKNACKs) got %d bytes back in %v (%.0f/s) under a 1 Mbit/s budget", sent.Load(), got, took, float64(got)/took.Seconds())
	if got > limit {
		t.Fatalf("frcd sent the attacker %d bytes in %v, over its budget (%d)", got, took, limit)
	}
	terminate(t, cmd, stderr)
}

// attackTarget runs examples/2026 as `frcd run --sim --ros 2
// --ros2-egress EGRESS` on a robot's network with an attacker's address
// beside it: in the namespace InNetns made (ok), or false where the test
// ran again inside it. It skips with -short: make test runs it in full
// (as root, FRCD_REQUIRE_TOOLS=1), and make attack replays the attacks.
func attackTarget(t *testing.T, egress string) (cmd *exec.Cmd, stderr *strings.Builder, names []string, ok bool) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts frcd, Cyclone and Fast DDS peers in a network namespace (about a minute); make test runs it without -short")
	}
	const urdf, yaml = "../../examples/2026/robot.urdf", "../../examples/2026/robot.yaml"
	var env []string
	if !tooltest.InsideNetns(t) {
		env = buildJointStatesPeers(t)
	}
	if !tooltest.InNetns(t, tooltest.RobotNetwork+" && ip addr add "+attackerAddr+"/24 dev frcd0", env) {
		return nil, nil, nil, false
	}
	names = loopJointNames(t, urdf, yaml)
	cmd, stderr = startROS2Run(t, urdf, yaml, "--ros2-egress", egress)
	return cmd, stderr, names, true
}
