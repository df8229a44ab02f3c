package ros2node

import (
	"net"
	"net/netip"
	"testing"

	"github.com/frcd/frcd/internal/tooltest"
)

// TestLocalhostStaysOffOtherHosts: with ROS_AUTOMATIC_DISCOVERY_RANGE=
// LOCALHOST (or Humble's ROS_LOCALHOST_ONLY=1) on a host with a robot's
// interface (tooltest.RobotNetwork), the node's unicast ports are bound
// on 127.0.0.1 only: the same ports on the interface's address are free,
// so nothing from another host reaches the node. With the default range
// (SUBNET) they are taken on every address, which shows the probe sees a
// bound port. It needs root for the namespace.
func TestLocalhostStaysOffOtherHosts(t *testing.T) {
	if !tooltest.InNetns(t, tooltest.RobotNetwork, nil) {
		return
	}
	robot := netip.MustParseAddr(tooltest.RobotAddr)
	// free says whether port is free on the robot's interface address.
	free := func(port int) bool {
		c, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.AddrPortFrom(robot, uint16(port))))
		if err != nil {
			return false
		}
		c.Close()
		return true
	}
	for _, c := range []struct {
		env   map[string]string
		local bool
	}{
		{map[string]string{"ROS_AUTOMATIC_DISCOVERY_RANGE": "LOCALHOST"}, true},
		{map[string]string{"ROS_LOCALHOST_ONLY": "1"}, true},
		{map[string]string{"ROS_AUTOMATIC_DISCOVERY_RANGE": "SUBNET"}, false},
	} {
		cfg, err := Discovery(func(k string) string { return c.env[k] }, robot)
		if err != nil {
			t.Fatal(err)
		}
		n, err := New(Config{Name: "probe", RTPS: cfg})
		if err != nil {
			t.Fatalf("%v: %v", c.env, err)
		}
		ports := n.Participant().Ports()
		for _, port := range []int{ports.MetaUnicast(), ports.UserUnicast()} {
			if got := free(port); got != c.local {
				t.Errorf("%v: port %d free on %v: %v, want %v", c.env, port, robot, got, c.local)
			}
		}
		if err := n.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
