package main

import (
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/ros2node"
)

// rosChoice is --ros: which ROS transports frcd serves.
type rosChoice struct{ ros1, ros2 bool }

// rosUsage is --ros's help.
const rosUsage = "the ROS transports: 1 (ROS 1: a master, TCPROS), 2 (ROS 2 over DDS/RTPS, ROS_DOMAIN_ID; --ros-args ... -- for the node), both, or none (as --no-ros)"

// parseROS reads --ros; --no-ros is none whatever --ros says.
func parseROS(s string, noROS bool) (rosChoice, error) {
	if noROS {
		return rosChoice{}, nil
	}
	switch s {
	case "1":
		return rosChoice{ros1: true}, nil
	case "2":
		return rosChoice{ros2: true}, nil
	case "both":
		return rosChoice{ros1: true, ros2: true}, nil
	case "none":
		return rosChoice{}, nil
	}
	return rosChoice{}, fmt.Errorf("--ros %s: want 1, 2, both or none", s)
}

// ros2Args takes ROS 2's arguments (--ros-args ... [--]) out of args for
// the node frcd.
func ros2Args(args []string) (rest []string, a ros2node.Args, err error) {
	return ros2node.ParseArgs(args, "frcd")
}

// ros2Options are the ROS 2 node's options from its arguments and the
// environment (ROS_DOMAIN_ID, ROS_AUTOMATIC_DISCOVERY_RANGE,
// ROS_LOCALHOST_ONLY, ROS_STATIC_PEERS; ROS_DISTRO humble or older: no
// type hashes in the endpoints' USER_DATA, Humble's controller_manager_msgs). Discovery reaching the subnet
// uses the interface --ros2-interface (iface) names, else the one
// CYCLONEDDS_URI names (chooseInterface), else the first IPv4 address of
// an interface that is up, multicast-capable and not loopback (else of a
// multicast-capable loopback: subnetInterface), and joins the SPDP
// multicast group on that interface. A chosen interface without the
// MULTICAST flag (or multicast="false") gets unicast discovery only.
func ros2Options(a ros2node.Args, iface string, getenv func(string) string, urdf string, logf func(string, ...any)) (*daemon.ROS2Options, error) {
	base, err := ros2node.Discovery(getenv, netip.Addr{})
	if err != nil {
		return nil, err
	}
	var ifs []hostInterface
	if iface != "" || strings.TrimSpace(getenv("CYCLONEDDS_URI")) != "" {
		if ifs, err = hostInterfaces(); err != nil {
			return nil, err
		}
	}
	choice, chosen, err := chooseInterface(iface, getenv("CYCLONEDDS_URI"), base.Domain, ifs, nil)
	if err != nil {
		return nil, err
	}
	ifc, addr := choice.ifc, choice.addr
	if !chosen {
		ifc, addr = subnetInterface()
	}
	cfg, err := ros2node.Discovery(getenv, addr)
	if err != nil {
		return nil, err
	}
	if cfg.Multicast && cfg.Addr == addr {
		// The interface it binds, not the one the route for 239.255.0.1
		// names: a robot's network may have no such route (no default
		// route), and Cyclone and Fast DDS join on their interfaces too.
		cfg.Interface = ifc
		if chosen && !choice.multicast {
			// Unicast to this host's participants besides the static
			// peers, as on a loopback without multicast.
			cfg.Multicast, cfg.Interface = false, nil
			cfg.Peers = append([]netip.Addr{addr}, cfg.Peers...)
		}
	}
	if chosen && choice.note != "" && cfg.Addr == addr {
		logf("frcd: %s", choice.note)
	}
	var files *ros2node.ParamsOverrides
	if len(a.ParamsFiles) > 0 {
		files = &ros2node.ParamsOverrides{Locate: config.LocateYAML}
		for _, f := range a.ParamsFiles {
			if err := files.ReadParamsFile(f); err != nil {
				return nil, err
			}
		}
	}
	name := "frcd"
	if a.Node != "" {
		name = a.Node
	}
	return &daemon.ROS2Options{Node: ros2node.Config{Name: name, Namespace: a.Namespace, Enclave: a.Enclave, Remaps: a.Remaps, RTPS: cfg,
		TypeHashes: ros2node.TypeHashesFor(getenv("ROS_DISTRO")), Humble: ros2node.HumbleFor(getenv("ROS_DISTRO"))},
		URDF: urdf, Params: a.Params, NodeParams: a.NodeParams, ParamsFiles: files, Logf: logf}, nil
}

// subnetInterface is the first interface that is up, multicast-capable
// and not loopback with an IPv4 address, and that address; failing one, a
// loopback interface that is up and multicast-capable (a laptop with
// Wi-Fi off: Cyclone DDS and Fast DDS announce there by multicast with
// their defaults) and its IPv4 address; nil and an invalid address when
// there is neither.
func subnetInterface() (*net.Interface, netip.Addr) {
	ifs, err := net.Interfaces()
	if err != nil {
		return nil, netip.Addr{}
	}
	return pickInterface(ifs, func(ifc *net.Interface) ([]net.Addr, error) { return ifc.Addrs() })
}

// pickInterface is subnetInterface's choice among ifs, with addrs
// listing an interface's addresses.
func pickInterface(ifs []net.Interface, addrs func(*net.Interface) ([]net.Addr, error)) (*net.Interface, netip.Addr) {
	for _, loopback := range []bool{false, true} {
		for i := range ifs {
			ifc := &ifs[i]
			if ifc.Flags&net.FlagUp == 0 || (ifc.Flags&net.FlagLoopback != 0) != loopback || ifc.Flags&net.FlagMulticast == 0 {
				continue
			}
			as, _ := addrs(ifc)
			for _, ad := range as {
				if p, ok := ad.(*net.IPNet); ok {
					if ip, ok := netip.AddrFromSlice(p.IP.To4()); ok && p.IP.To4() != nil {
						return ifc, ip
					}
				}
			}
		}
	}
	return nil, netip.Addr{}
}

// printROS2 says where the ROS 2 node is.
func printROS2(w io.Writer, d *daemon.Daemon, o *daemon.ROS2Options) {
	if d.Bridge2 == nil {
		return
	}
	full, _ := ros2node.Resolve(o.Node.Namespace, o.Node.Name, "~")
	js, _ := ros2node.ResolveRemapped(o.Node.Namespace, o.Node.Name, "joint_states", o.Node.Remaps)
	fmt.Fprintf(w, "frcd: ROS 2 node %s, domain %d, on %s; publishing %s every %s\n", full, o.Node.RTPS.Domain, o.Node.RTPS.Addr, js, d.Bridge2.Every())
}

// egressUsage is --ros2-egress's help.
const egressUsage = "the most the ROS 2 node sends, in bits a second (4mbit, 500kbit, 0: no limit): set it to what the robot's radio allows ROS 2. Traffic to subscribers that acknowledge comes first; repairs and traffic to peers that have not acknowledged get what it leaves (docs/ros2.md)"

// parseEgress reads --ros2-egress: a rate in bits a second, with an
// optional unit bit, kbit or mbit (1000s), into bytes a second.
func parseEgress(s string) (int, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	mult := 1.0
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"mbit", 1e6}, {"kbit", 1e3}, {"bit", 1}} {
		if strings.HasSuffix(v, u.suffix) {
			v, mult = strings.TrimSpace(strings.TrimSuffix(v, u.suffix)), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || f*mult/8 > 1<<40 {
		return 0, fmt.Errorf("--ros2-egress %s: want a rate in bits a second such as 4mbit, 500kbit or 0 (no limit)", s)
	}
	bytes := int(f * mult / 8)
	if bytes == 0 && f > 0 {
		bytes = 1
	}
	return bytes, nil
}
