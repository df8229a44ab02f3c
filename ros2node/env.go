package ros2node

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/frcd/frcd/rtps"
)

// Discovery reads ROS 2's discovery environment into an rtps.Config:
// ROS_DOMAIN_ID, ROS_LOCALHOST_ONLY, ROS_AUTOMATIC_DISCOVERY_RANGE and
// ROS_STATIC_PEERS (IPv4 addresses, ';'-separated). getenv is os.Getenv
// or a test's. addr is the address to use when discovery reaches the
// subnet (a robot's interface); it is ignored for localhost.
func Discovery(getenv func(string) string, addr netip.Addr) (rtps.Config, error) {
	var c rtps.Config
	if d := getenv("ROS_DOMAIN_ID"); d != "" {
		n, err := strconv.Atoi(strings.TrimSpace(d))
		if err != nil || n < 0 || n > rtps.MaxDomain {
			return c, fmt.Errorf("ros2node: ROS_DOMAIN_ID=%q is not a domain id 0..%d", d, rtps.MaxDomain)
		}
		c.Domain = n
	}
	rng := strings.ToUpper(strings.TrimSpace(getenv("ROS_AUTOMATIC_DISCOVERY_RANGE")))
	if rng == "" && getenv("ROS_LOCALHOST_ONLY") == "1" {
		rng = "LOCALHOST"
	}
	localhost := netip.AddrFrom4([4]byte{127, 0, 0, 1})
	switch rng {
	case "LOCALHOST":
		c.Addr, c.Peers = localhost, []netip.Addr{localhost}
	case "OFF":
		c.Addr = localhost // only static peers
	case "", "SUBNET", "SYSTEM_DEFAULT":
		c.Addr, c.Multicast = addr, true
		if !addr.IsValid() || addr.IsLoopback() {
			c.Addr, c.Multicast, c.Peers = localhost, false, []netip.Addr{localhost}
		}
	default:
		return c, fmt.Errorf("ros2node: ROS_AUTOMATIC_DISCOVERY_RANGE=%q is not LOCALHOST, SUBNET, OFF or SYSTEM_DEFAULT", rng)
	}
	for _, s := range strings.Split(getenv("ROS_STATIC_PEERS"), ";") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil || !a.Is4() {
			return c, fmt.Errorf("ros2node: ROS_STATIC_PEERS: %q is not an IPv4 address", s)
		}
		c.Peers = append(c.Peers, a)
	}
	return c, nil
}
