package main

import (
	"fmt"
	"net"
	"net/netip"
	"strings"

	"github.com/frcd/frcd/ros2node"
)

// interfaceUsage is --ros2-interface's help.
const interfaceUsage = "the network interface of the ROS 2 node, by name (eth0, usb0) or IPv4 address; default: CYCLONEDDS_URI's General/Interfaces/NetworkInterface (or NetworkInterfaceAddress) when set, else the first interface up, multicast-capable and not loopback (docs/ros2.md, Discovery)"

// hostInterface is an interface of the host and its addresses (a test's
// or net.Interfaces').
type hostInterface struct {
	net.Interface
	Addrs []netip.Prefix
}

// hostInterfaces lists the host's interfaces and their addresses.
func hostInterfaces() ([]hostInterface, error) {
	ifs, err := net.Interfaces()
	if err != nil {
		return nil, fmt.Errorf("listing the network interfaces: %w", err)
	}
	out := make([]hostInterface, 0, len(ifs))
	for _, ifc := range ifs {
		h := hostInterface{Interface: ifc}
		as, _ := ifc.Addrs()
		for _, a := range as {
			if p, ok := a.(*net.IPNet); ok {
				ip, _ := netip.AddrFromSlice(p.IP)
				ones, _ := p.Mask.Size()
				if ip.Is4In6() {
					ip = ip.Unmap()
				}
				h.Addrs = append(h.Addrs, netip.PrefixFrom(ip, ones))
			}
		}
		out = append(out, h)
	}
	return out, nil
}

// interfaceChoice is the interface the ROS 2 node is to use: the
// interface, its IPv4 address, whether to use multicast on it, and a
// note for the log when it is not what was asked (nil ifc: frcd's
// default choice, subnetInterface).
type interfaceChoice struct {
	ifc       *net.Interface
	addr      netip.Addr
	multicast bool
	note      string
}

// chooseInterface is the interface --ros2-interface (flag) names, else
// the one CYCLONEDDS_URI names (for domain), else none (ok false: frcd's
// default). A name or address that is not this host's, an interface that
// is down or has no IPv4 address, is an error naming what there is.
func chooseInterface(flag, cycloneURI string, domain int, ifs []hostInterface, readFile func(string, int64) ([]byte, error)) (c interfaceChoice, ok bool, err error) {
	var s ros2node.InterfaceSetting
	switch {
	case flag != "":
		s = ros2node.InterfaceSetting{From: "--ros2-interface"}
		if _, err := netip.ParseAddr(flag); err == nil {
			s.Address = flag
		} else {
			s.Name = flag
		}
	case strings.TrimSpace(cycloneURI) != "":
		var set bool
		if s, set, err = ros2node.CycloneInterface(cycloneURI, domain, readFile); err != nil || !set {
			return c, false, err
		}
	default:
		return c, false, nil
	}
	h, err := findInterface(s, ifs)
	if err != nil {
		return c, false, err
	}
	// The address named (or in the network named), else the first IPv4.
	var ip netip.Addr
	want, _ := netip.ParseAddr(s.Address)
	for _, p := range h.Addrs {
		named := want.IsValid() && (p.Addr() == want || p.Masked().Addr() == want)
		if p.Addr().Is4() && (!ip.IsValid() || named) {
			ip = p.Addr()
			if named {
				break
			}
		}
	}
	if h.Flags&net.FlagUp == 0 {
		return c, false, fmt.Errorf("%s: interface %s is down; %s", s.From, h.Name, describeInterfaces(ifs))
	}
	if !ip.IsValid() {
		return c, false, fmt.Errorf("%s: interface %s has no IPv4 address (frcd's ROS 2 is IPv4 only); %s", s.From, h.Name, describeInterfaces(ifs))
	}
	ifc := h.Interface
	c = interfaceChoice{ifc: &ifc, addr: ip, multicast: h.Flags&net.FlagMulticast != 0}
	switch s.Multicast {
	case "true":
		c.multicast = true
	case "false":
		c.multicast = false
		c.note = fmt.Sprintf("ROS 2 on %s (%s): multicast=\"false\" in %s, discovery by unicast only (to ROS_STATIC_PEERS and this host)", h.Name, ip, s.From)
	default:
		if !c.multicast {
			c.note = fmt.Sprintf("ROS 2 on %s (%s): the interface has no MULTICAST flag, discovery by unicast only (to ROS_STATIC_PEERS and this host)", h.Name, ip)
		}
	}
	if s.Others > 0 {
		c.note = strings.TrimPrefix(c.note+"; ", "; ") + fmt.Sprintf("ROS 2 on %s: %s names %d more interface(s); frcd's node uses one, the first", h.Name, s.From, s.Others)
	}
	return c, true, nil
}

// findInterface is the interface s names: by name, by address (or, as
// Cyclone's address attribute, by network: an IPv4 address whose host
// part is zero), or both, which must agree.
func findInterface(s ros2node.InterfaceSetting, ifs []hostInterface) (*hostInterface, error) {
	var byName, byAddr *hostInterface
	if s.Name != "" {
		for i := range ifs {
			if ifs[i].Name == s.Name {
				byName = &ifs[i]
			}
		}
		if byName == nil {
			return nil, fmt.Errorf("%s: no interface %q on this host; %s", s.From, s.Name, describeInterfaces(ifs))
		}
	}
	if s.Address != "" {
		a, err := netip.ParseAddr(s.Address)
		if err != nil {
			return nil, fmt.Errorf("%s: address %q is not an IP address", s.From, s.Address)
		}
		if !a.Is4() {
			return nil, fmt.Errorf("%s: address %s is not IPv4 (frcd's ROS 2 is IPv4 only)", s.From, a)
		}
		for i := range ifs {
			for _, p := range ifs[i].Addrs {
				if byAddr == nil && (p.Addr() == a || (p.Addr().Is4() && p.Masked().Addr() == a && p.Bits() < 32)) {
					byAddr = &ifs[i]
				}
			}
		}
		if byAddr == nil {
			return nil, fmt.Errorf("%s: address %s is not on this host; %s", s.From, a, describeInterfaces(ifs))
		}
	}
	switch {
	case byName != nil && byAddr != nil && byName.Index != byAddr.Index:
		return nil, fmt.Errorf("%s: interface %s and address %s are different interfaces (%s has it)", s.From, s.Name, s.Address, byAddr.Name)
	case byName != nil:
		return byName, nil
	}
	return byAddr, nil
}

// describeInterfaces says what interfaces there are: "the host has lo
// (127.0.0.1, up), eth0 (10.1.2.2, up, multicast), usb0 (no IPv4, down)".
func describeInterfaces(ifs []hostInterface) string {
	var parts []string
	for _, h := range ifs {
		var v4 []string
		for _, p := range h.Addrs {
			if p.Addr().Is4() {
				v4 = append(v4, p.Addr().String())
			}
		}
		d := "no IPv4"
		if len(v4) > 0 {
			d = strings.Join(v4, " ")
		}
		if h.Flags&net.FlagUp != 0 {
			d += ", up"
		} else {
			d += ", down"
		}
		if h.Flags&net.FlagMulticast != 0 {
			d += ", multicast"
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", h.Name, d))
	}
	if len(parts) == 0 {
		return "the host has no network interface"
	}
	return "the host has " + strings.Join(parts, ", ")
}
