package ros2node

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/frcd/frcd/rtps"
)

// Discovery reads ROS 2's discovery environment into an rtps.Config, as
// rcl and rmw_cyclonedds read it (docs/ros2.md, "Discovery as ROS 2
// configures it"):
//
//   - ROS_DOMAIN_ID: the domain, 0 by default.
//   - ROS_AUTOMATIC_DISCOVERY_RANGE (Iron and later; rcl 9.2.0
//     discovery_options.c): unset or empty SUBNET; LOCALHOST, SUBNET, OFF
//     or SYSTEM_DEFAULT exactly. Anything else is refused (rcl warns and
//     takes LOCALHOST).
//   - ROS_LOCALHOST_ONLY=1 (Humble's; deprecated since, still honoured):
//     LOCALHOST whatever ROS_AUTOMATIC_DISCOVERY_RANGE says, and no static
//     peers (rcl 9.2.0 init.c).
//   - ROS_STATIC_PEERS (Iron and later): IPv4 addresses, ';'-separated,
//     announced to by unicast with LOCALHOST and SUBNET; OFF and
//     SYSTEM_DEFAULT leave them out (rmw_cyclonedds rmw_node.cpp
//     check_create_domain).
//
// The ranges, as rmw_cyclonedds configures Cyclone: SUBNET (and
// SYSTEM_DEFAULT, frcd's own default) announces by multicast on addr's
// interface; LOCALHOST binds and announces on 127.0.0.1 only, by unicast
// to the host's participants (other hosts never reach frcd). OFF, which
// Cyclone makes a domain tag of its own process, is LOCALHOST without
// static peers here: frcd's node has no other participant in its process.
//
// getenv is os.Getenv or a test's. addr is the address when discovery
// reaches the subnet: a robot's interface, multicast-capable (the caller
// picks one with the MULTICAST flag). A loopback addr (a host whose only
// interface is a multicast-capable lo: a laptop with Wi-Fi off) keeps
// multicast on it, as Cyclone DDS and Fast DDS with their defaults
// announce there, and unicast to the host as well. An invalid addr (no
// interface with multicast) falls back to 127.0.0.1 and unicast to it.
func Discovery(getenv func(string) string, addr netip.Addr) (rtps.Config, error) {
	var c rtps.Config
	if d := getenv("ROS_DOMAIN_ID"); d != "" {
		n, err := strconv.Atoi(strings.TrimSpace(d))
		if err != nil || n < 0 || n > rtps.MaxDomain {
			return c, fmt.Errorf("ros2node: ROS_DOMAIN_ID=%q is not a domain id 0..%d", d, rtps.MaxDomain)
		}
		c.Domain = n
	}
	rng := getenv("ROS_AUTOMATIC_DISCOVERY_RANGE")
	if strings.TrimSpace(getenv("ROS_LOCALHOST_ONLY")) == "1" {
		rng = "LOCALHOST_ONLY"
	}
	localhost := netip.AddrFrom4([4]byte{127, 0, 0, 1})
	static := true
	switch rng {
	case "LOCALHOST_ONLY":
		c.Addr, c.Peers = localhost, []netip.Addr{localhost}
		static = false
	case "LOCALHOST":
		c.Addr, c.Peers = localhost, []netip.Addr{localhost}
	case "OFF":
		// frcd has no other participant in its process to keep: OFF is
		// LOCALHOST without static peers.
		c.Addr, c.Peers = localhost, []netip.Addr{localhost}
		static = false
	case "", "SUBNET", "SYSTEM_DEFAULT":
		static = rng != "SYSTEM_DEFAULT"
		switch {
		case !addr.IsValid():
			c.Addr, c.Peers = localhost, []netip.Addr{localhost}
		case addr.IsLoopback():
			c.Addr, c.Multicast, c.Peers = addr, true, []netip.Addr{addr}
		default:
			c.Addr, c.Multicast = addr, true
		}
	default:
		return c, fmt.Errorf("ros2node: ROS_AUTOMATIC_DISCOVERY_RANGE=%q is not LOCALHOST, SUBNET, OFF or SYSTEM_DEFAULT (rcl would take LOCALHOST)", rng)
	}
	for _, s := range strings.Split(getenv("ROS_STATIC_PEERS"), ";") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil || !a.Is4() {
			return c, fmt.Errorf("ros2node: ROS_STATIC_PEERS: %q is not an IPv4 address", s)
		}
		if static {
			c.Peers = append(c.Peers, a)
		}
	}
	return c, nil
}
