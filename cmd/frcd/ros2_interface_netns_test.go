package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// TestROS2InterfaceChosen runs `frcd run --sim --ros 2` in a namespace
// with two interfaces (twoInterfaces), where frcd would take frcd0 by
// itself, told to use frcd2:
//   - flag: --ros2-interface frcd2, with CYCLONEDDS_URI naming frcd0 (the
//     flag wins);
//   - cyclone: no flag, CYCLONEDDS_URI=file://F, F naming frcd2 by
//     address as rmw_cyclonedds users write it;
//   - unicast: --ros2-interface frcd2 with frcd2's MULTICAST flag off:
//     frcd says it announces by unicast only, and the Cyclone peer,
//     given frcd's address as its peer (Cyclone's Discovery/Peers), finds
//     it so.
//
// Each time frcd says its node is on 10.28.0.1, a Cyclone DDS subscriber
// configured as rmw_cyclonedds users do (CYCLONEDDS_URI's
// NetworkInterface name="frcd2") gets /joint_states, and nothing was sent
// on frcd0 (its tx_packets the same before frcd started and after the
// samples arrived) while frcd2's grew (by multicast; unicast to the
// host's own address goes by lo). It needs root for the namespace;
// skipped with -short, and when a tool is missing unless
// FRCD_REQUIRE_TOOLS=1.
func TestROS2InterfaceChosen(t *testing.T) {
	if testing.Short() {
		t.Skip("runs frcd and a DDS peer in a network namespace: skipped with -short")
	}
	const urdf, yaml = "../../examples/2026/robot.urdf", "../../examples/2026/robot.yaml"
	var env []string
	if !tooltest.InsideNetns(t) {
		env = []string{peerBinEnv(ddstest.Cyclone) + "=" + ddstest.Cyclone.Program(t, "testdata/ros2/joint_states.c", "testdata/ros2/JointState.idl")}
	}
	if !tooltest.InNetns(t, twoInterfaces, env) {
		return
	}
	names := loopJointNames(t, urdf, yaml)
	file := filepath.Join(t.TempDir(), "cyclonedds.xml")
	config := `<?xml version="1.0" encoding="UTF-8" ?>
<CycloneDDS xmlns="https://cdds.io/config">
  <Domain Id="any">
    <General>
      <Interfaces>
        <NetworkInterface address="10.28.0.1" priority="default" multicast="default"/>
      </Interfaces>
    </General>
  </Domain>
</CycloneDDS>
`
	if err := os.WriteFile(file, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	const onFrcd2 = `<CycloneDDS><Domain><General><Interfaces><NetworkInterface name="frcd2"/></></></></>`
	for _, c := range []struct {
		name     string
		flags    []string
		uri      string // frcd's CYCLONEDDS_URI
		setup    string // ip arguments before frcd starts
		peerURI  string // the Cyclone peer's
		frcdSays string // in frcd's log
	}{
		{"flag", []string{"--ros2-interface", "frcd2"}, `<General><Interfaces><NetworkInterface name="frcd0"/></Interfaces></General>`, "", onFrcd2, ""},
		{"cyclone", nil, "file://" + file, "", onFrcd2, ""},
		{"unicast", []string{"--ros2-interface", "frcd2"}, "", "link set frcd2 multicast off",
			`<General><Interfaces><NetworkInterface name="frcd2"/></Interfaces></General><Discovery><Peers><Peer address="10.28.0.1"/></Peers><ParticipantIndex>auto</ParticipantIndex></Discovery>`,
			"ROS 2 on frcd2 (10.28.0.1): the interface has no MULTICAST flag, discovery by unicast only"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.setup != "" {
				if out, err := exec.Command("ip", strings.Fields(c.setup)...).CombinedOutput(); err != nil {
					t.Fatalf("ip %s: %v %s", c.setup, err, out)
				}
			}
			t.Setenv("CYCLONEDDS_URI", c.uri)
			tx0, tx2 := txPackets(t, "frcd0"), txPackets(t, "frcd2")
			cmd, stderr := startROS2RunOn(t, "10.28.0.1", urdf, yaml, c.flags...)
			start := time.Now().Unix()
			const count = 20
			e := ddstest.MulticastEnv(-1)
			e.Vars = append(e.Vars, "CYCLONEDDS_URI="+c.peerURI)
			sub := tooltest.StartJSON[jsEvent](t, e, os.Getenv(peerBinEnv(ddstest.Cyclone)), fmt.Sprint(count))
			checkJointStates(t, []string{"Cyclone"}, map[string]*tooltest.JSONLines[jsEvent]{"Cyclone": sub}, names, start, count)
			if got := txPackets(t, "frcd0"); got != tx0 {
				t.Errorf("frcd0 sent %d packets while frcd ran on frcd2", got-tx0)
			}
			t.Logf("sent on frcd0 %d, frcd2 %d packets", txPackets(t, "frcd0")-tx0, txPackets(t, "frcd2")-tx2)
			if got := txPackets(t, "frcd2"); got <= tx2 && c.frcdSays == "" { // by multicast: out of frcd2
				t.Errorf("frcd2 sent nothing (tx_packets %d, %d before): the count says nothing", got, tx2)
			}
			terminate(t, cmd, stderr)
			if !strings.Contains(stderr.String(), c.frcdSays) {
				t.Errorf("frcd's log has no %q:\n%s", c.frcdSays, stderr.String())
			}
		})
	}
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
