package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
)

// peerBinEnv names the environment variable that hands a peer program,
// built outside the namespace, to the run inside it.
func peerBinEnv(p *ddstest.Peer) string { return "FRCD_TEST_JOINT_STATES_" + strings.ToUpper(p.Name) }

// TestROS2RunSeenByAllPeers runs `frcd run --sim --ros 2` on examples/2026
// as a user would on a robot (a child process, ROS_DOMAIN_ID unset, no
// --ros-args, frcd's default discovery) in a network namespace laid out as
// a robot's network (tooltest.RobotNetwork: an interface with an IPv4
// address, multicast and its route; lo without multicast), and three
// subscribers of /joint_states with their implementations' default
// discovery, SPDP by multicast, all at once: Cyclone DDS (C, Cyclone's
// defaults: no CYCLONEDDS_URI), Fast DDS (C++, Fast DDS's default
// participant QoS) and @foxglove/rtps (test/rtps/joint_states.js, which
// decodes the CDR itself). Each must get samples with every joint, by
// name in the loop's order, finite, stamped now. It needs root for the
// namespace; skipped with -short, and when a tool is missing unless
// FRCD_REQUIRE_TOOLS=1.
func TestROS2RunSeenByAllPeers(t *testing.T) {
	runSeenByPeers(t, tooltest.RobotNetwork, tooltest.RobotAddr, true)
}

// TestROS2RunWithoutMulticastRoute is TestROS2RunSeenByAllPeers on a
// network with no route for 224.0.0.0/4 (a static address, no gateway):
// frcd joins the SPDP group on the interface it takes its address from,
// as Cyclone DDS and Fast DDS do, who see it. (frcd joining where the
// route says failed to start there: "setsockopt: no such device".)
// @foxglove/rtps joins and sends by the route, so it cannot take part.
func TestROS2RunWithoutMulticastRoute(t *testing.T) {
	runSeenByPeers(t, tooltest.RobotNetworkNoRoute, tooltest.RobotAddr, false)
}

// TestROS2RunOnMulticastLoopback is TestROS2RunSeenByAllPeers on a host
// with no network but a multicast-capable loopback (lo up with the
// MULTICAST flag, no other interface, no route for 224.0.0.0/4: a laptop
// with Wi-Fi off): frcd takes lo, announces by SPDP multicast there and
// by unicast to the host, and Cyclone DDS and Fast DDS with their
// defaults get /joint_states. (frcd used to turn multicast off on a
// loopback address, and Cyclone with its defaults never found it.)
// @foxglove/rtps joins and sends by the route: it has its run in
// TestROS2RunOnMulticastLoopbackRoute.
func TestROS2RunOnMulticastLoopback(t *testing.T) {
	runSeenByPeers(t, "ip link set lo up && ip link set lo multicast on", "127.0.0.1", false)
}

// TestROS2RunOnMulticastLoopbackRoute is TestROS2RunOnMulticastLoopback
// with the route for 224.0.0.0/4 on lo (tooltest.LoopbackMulticast), where
// @foxglove/rtps with its defaults takes part too.
func TestROS2RunOnMulticastLoopbackRoute(t *testing.T) {
	runSeenByPeers(t, tooltest.LoopbackMulticast, "127.0.0.1", true)
}

// runSeenByPeers is TestROS2RunSeenByAllPeers in a namespace set up by
// setup, where frcd's node is on addr, with @foxglove/rtps or without.
func runSeenByPeers(t *testing.T, setup, addr string, foxglove bool) {
	if testing.Short() {
		t.Skip("runs frcd and DDS peers in a network namespace: skipped with -short")
	}
	const urdf, yaml = "../../examples/2026/robot.urdf", "../../examples/2026/robot.yaml"
	script, _ := filepath.Abs("../../test/rtps/joint_states.js")
	var tools []tooltest.Tool
	if foxglove {
		tools = append(tools, tooltest.Node)
	}
	var env []string
	if !tooltest.InsideNetns(t) {
		// Checked and built out here, where a missing tool can skip; the
		// builds are shared with TestROS2JointStatesInterop.
		tooltest.Require(t, tools...)
		if foxglove {
			tooltest.RequireFile(t, "../../test/rtps/node_modules/@foxglove/rtps/package.json", "scripts/install-deps.sh (npm ci in test/rtps)")
		}
		env = buildJointStatesPeers(t)
	}
	if !tooltest.InNetns(t, setup, env, tools...) {
		return
	}
	names := loopJointNames(t, urdf, yaml)
	cmd, stderr := startROS2RunOn(t, addr, urdf, yaml)
	start := time.Now().Unix()

	const count = 20
	order, subs := startJointStatesPeers(t, count)
	if foxglove {
		order = append(order, "Foxglove")
		subs["Foxglove"] = tooltest.StartJSON[jsEvent](t, ddstest.MulticastEnv(-1), "node", script, "0", fmt.Sprint(count), addr)
	}
	checkJointStates(t, order, subs, names, start, count)
	terminate(t, cmd, stderr)
}

// jointStatesPeers are the Cyclone DDS and Fast DDS subscribers of
// /joint_states (testdata/ros2/joint_states.c, .cpp).
var jointStatesPeers = []struct {
	*ddstest.Peer
	src string
}{{ddstest.Cyclone, "testdata/ros2/joint_states.c"}, {ddstest.FastDDS, "testdata/ros2/joint_states.cpp"}}

// buildJointStatesPeers builds jointStatesPeers (outside a namespace,
// where a missing tool can skip) and returns the environment that hands
// them to the run inside it (peerBinEnv).
func buildJointStatesPeers(t *testing.T) []string {
	var env []string
	for _, p := range jointStatesPeers {
		env = append(env, peerBinEnv(p.Peer)+"="+p.Program(t, p.src, "testdata/ros2/JointState.idl"))
	}
	return env
}

// startJointStatesPeers starts jointStatesPeers (built by
// buildJointStatesPeers) with SPDP by multicast, each to read count joint
// states: their names, and their lines by name.
func startJointStatesPeers(t *testing.T, count int) ([]string, map[string]*tooltest.JSONLines[jsEvent]) {
	var order []string
	subs := map[string]*tooltest.JSONLines[jsEvent]{}
	for _, p := range jointStatesPeers {
		bin := os.Getenv(peerBinEnv(p.Peer))
		if bin == "" {
			t.Fatalf("no %s from the run outside the namespace", peerBinEnv(p.Peer))
		}
		order = append(order, p.Name)
		subs[p.Name] = tooltest.StartJSON[jsEvent](t, ddstest.MulticastEnv(-1), bin, fmt.Sprint(count))
	}
	return order, subs
}

// startROS2Run starts `frcd run --sim --ros 2` (and flags) on urdf and
// yaml as a user would on a robot (ROS_ variables unset: frcd's default
// discovery) and waits for its line saying where its node is (on
// RobotAddr, domain 0). The output after it is discarded; a failed test
// kills the child.
func startROS2Run(t *testing.T, urdf, yaml string, flags ...string) (*exec.Cmd, *strings.Builder) {
	t.Helper()
	return startROS2RunOn(t, tooltest.RobotAddr, urdf, yaml, flags...)
}

// startROS2RunOn is startROS2Run where frcd's node is to be on addr.
func startROS2RunOn(t *testing.T, addr, urdf, yaml string, flags ...string) (*exec.Cmd, *strings.Builder) {
	t.Helper()
	args := append(append([]string{"run", "--sim", "--ros", "2", "--wpilibws", "off", "--nt", "off"}, flags...), urdf, yaml)
	cmd := exec.Command(os.Args[0], args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ROS_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "FRCD_RUN_MAIN=1")
	out, stderr := startChild(t, cmd)
	// A guard against a hung child only: the test waits on output. A
	// failed test kills the child, which would outlive the namespace's run.
	guard := time.AfterFunc(4*time.Minute, func() { _ = cmd.Process.Kill() })
	t.Cleanup(func() {
		guard.Stop()
		if t.Failed() {
			_ = cmd.Process.Kill()
		}
	})
	sc := bufio.NewScanner(out)
	// Domain 0 and addr: multicast discovery on its interface.
	want := "frcd: ROS 2 node /frcd, domain 0, on " + addr + "; publishing /joint_states every "
	var lines []string
	for sc.Scan() && !strings.HasPrefix(sc.Text(), want) {
		lines = append(lines, sc.Text())
	}
	if sc.Err() != nil || !strings.HasPrefix(sc.Text(), want) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("no line %q in\n%s\nstderr:\n%s", want, strings.Join(lines, "\n"), stderr.String())
	}
	if strings.Contains(strings.Join(lines, "\n"), "ROS node") {
		t.Errorf("--ros 2 started ROS 1 too:\n%s", strings.Join(lines, "\n"))
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	return cmd, stderr
}

// checkJointStates reads count joint states from each subscriber (in
// order; the others' lines wait in their queues, so any order of arrival
// passes): every joint, by name in the loop's order, finite, stamped from
// start to now. The limits only guard against a hang: Fast DDS's
// discovery can take 20-30 s on a loaded machine.
func checkJointStates(t *testing.T, order []string, subs map[string]*tooltest.JSONLines[jsEvent], names []string, start int64, count int) {
	t.Helper()
	const limit = 2 * time.Minute
	for _, name := range order {
		sub := subs[name]
		sub.WaitWithin(name+"'s reader matched", limit, func(e jsEvent) bool { return e.Event == "matched" })
		for i := 0; i < count; i++ {
			e := sub.WaitWithin(fmt.Sprintf("%s: joint state %d", name, i), limit, func(e jsEvent) bool { return e.Event == "" || e.Event == "bad" })
			now := time.Now().Unix()
			if e.Event == "bad" || e.N != len(names) || !slices.Equal(e.Names, names) || e.Finite != 1 || e.Sec < start-1 || e.Sec > now+1 {
				t.Fatalf("%s: joint state %d: %+v, want the joints %q, finite, stamped in [%d, %d]", name, i, e, names, start-1, now+1)
			}
		}
	}
}
