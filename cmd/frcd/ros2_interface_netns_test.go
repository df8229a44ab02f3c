package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
)

// twoInterfaces is a namespace with two robot-like interfaces, as a
// roboRIO's eth0 and usb0: frcd0 (10.27.0.1/24, with the route for
// 224.0.0.0/4: frcd's default choice) and frcd2 (10.28.0.1/24), each one
// end of a veth pair whose other end is up without an address, both
// multicast-capable; IPv6 off, so that only what frcd and its peers send
// leaves them (no router solicitations, MLD or DAD).
const twoInterfaces = "echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6 && echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6 && " +
	tooltest.RobotNetwork + " && ip link add frcd2 type veth peer name frcd3 && " +
	"ip addr add 10.28.0.1/24 dev frcd2 && ip link set frcd3 up && ip link set frcd2 up"

// TestROS2InterfaceChosen runs `frcd run --sim --ros 2 --ros2-interface
// frcd2` with CYCLONEDDS_URI naming frcd0 (the flag wins) in a namespace
// with two interfaces (twoInterfaces), where frcd would take frcd0 by
// itself: frcd says its node is on 10.28.0.1, a Cyclone DDS subscriber
// configured as rmw_cyclonedds users do (CYCLONEDDS_URI's
// NetworkInterface name="frcd2") gets /joint_states, and nothing was sent
// on frcd0 (its tx_packets the same before frcd started and after the
// samples arrived) while frcd2's grew. It needs root for the namespace;
// skipped with -short, and when a tool is missing unless
// FRCD_REQUIRE_TOOLS=1.
func TestROS2InterfaceChosen(t *testing.T) {
	if testing.Short() {
		t.Skip("runs frcd and a DDS peer in a network namespace: skipped with -short")
	}
	const urdf, yaml = "../../examples/2026/robot.urdf", "../../examples/2026/robot.yaml"
	var env []string
	if !tooltest.InsideNetns(t) {
		env = []string{peerBinEnv(ddstest.Cyclone) + "=" + ddstest.Cyclone.Program(t, "testdata/ros2/joint_states.c", "testdata/ros2/JointState.idl"),
			`CYCLONEDDS_URI=<General><Interfaces><NetworkInterface name="frcd0"/></Interfaces></General>`}
	}
	if !tooltest.InNetns(t, twoInterfaces, env) {
		return
	}
	names := loopJointNames(t, urdf, yaml)
	tx0, tx2 := txPackets(t, "frcd0"), txPackets(t, "frcd2")
	cmd, stderr := startROS2RunOn(t, "10.28.0.1", urdf, yaml, "--ros2-interface", "frcd2")
	start := time.Now().Unix()

	const count = 20
	e := ddstest.MulticastEnv(-1)
	e.Vars = append(e.Vars, `CYCLONEDDS_URI=<CycloneDDS><Domain><General><Interfaces><NetworkInterface name="frcd2"/></></></></>`)
	sub := tooltest.StartJSON[jsEvent](t, e, os.Getenv(peerBinEnv(ddstest.Cyclone)), fmt.Sprint(count))
	checkJointStates(t, []string{"Cyclone"}, map[string]*tooltest.JSONLines[jsEvent]{"Cyclone": sub}, names, start, count)
	if got := txPackets(t, "frcd0"); got != tx0 {
		t.Errorf("frcd0 sent %d packets while frcd ran on frcd2", got-tx0)
	}
	if got := txPackets(t, "frcd2"); got <= tx2 {
		t.Errorf("frcd2 sent nothing (tx_packets %d, %d before): the count says nothing", got, tx2)
	}
	terminate(t, cmd, stderr)
}

// txPackets is the packets interface name has sent, from /proc/net/dev
// (this namespace's; /sys is the host's).
func txPackets(t *testing.T, name string) int {
	t.Helper()
	b, err := os.ReadFile("/proc/net/dev")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		ifc, counters, ok := strings.Cut(line, ":")
		if f := strings.Fields(counters); ok && strings.TrimSpace(ifc) == name && len(f) >= 10 {
			n, err := strconv.Atoi(f[9]) // 8 receive counters, then bytes and packets sent
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /proc/net/dev:\n%s", name, b)
	return 0
}
