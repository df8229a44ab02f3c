package main

import (
	"net"
	"net/netip"
	"testing"
)

// TestPickInterface: frcd's ROS 2 node takes a multicast-capable
// interface that is up and not loopback, and failing one a loopback that
// is up and multicast-capable (a laptop with Wi-Fi off), whose SPDP
// multicast Cyclone DDS and Fast DDS use with their defaults; a loopback
// without MULTICAST, or nothing up, leaves none (unicast to the host).
func TestPickInterface(t *testing.T) {
	lo := net.Interface{Index: 1, Name: "lo", Flags: net.FlagUp | net.FlagLoopback | net.FlagMulticast}
	loNoMC := net.Interface{Index: 1, Name: "lo", Flags: net.FlagUp | net.FlagLoopback}
	eth := net.Interface{Index: 2, Name: "eth0", Flags: net.FlagUp | net.FlagMulticast | net.FlagBroadcast}
	ethDown := net.Interface{Index: 2, Name: "eth0", Flags: net.FlagMulticast | net.FlagBroadcast}
	usb := net.Interface{Index: 3, Name: "usb0", Flags: net.FlagUp | net.FlagMulticast}
	ips := map[int][]net.Addr{
		1: {&net.IPNet{IP: net.ParseIP("::1"), Mask: net.CIDRMask(128, 128)}, &net.IPNet{IP: net.IPv4(127, 0, 0, 1), Mask: net.CIDRMask(8, 32)}},
		2: {&net.IPNet{IP: net.IPv4(10, 27, 0, 2), Mask: net.CIDRMask(24, 32)}},
		3: {&net.IPNet{IP: net.IPv4(172, 22, 11, 2), Mask: net.CIDRMask(24, 32)}},
	}
	addrs := func(ifc *net.Interface) ([]net.Addr, error) { return ips[ifc.Index], nil }
	for _, c := range []struct {
		ifs  []net.Interface
		name string
		addr string
	}{
		{[]net.Interface{lo, eth, usb}, "eth0", "10.27.0.2"},
		{[]net.Interface{lo, ethDown, usb}, "usb0", "172.22.11.2"},
		{[]net.Interface{lo, ethDown}, "lo", "127.0.0.1"},
		{[]net.Interface{lo}, "lo", "127.0.0.1"},
		{[]net.Interface{loNoMC, ethDown}, "", ""},
		{nil, "", ""},
	} {
		ifc, addr := pickInterface(c.ifs, addrs)
		name := ""
		if ifc != nil {
			name = ifc.Name
		}
		want := netip.Addr{}
		if c.addr != "" {
			want = netip.MustParseAddr(c.addr)
		}
		if name != c.name || addr != want {
			t.Errorf("%v: %q %v, want %q %v", c.ifs, name, addr, c.name, want)
		}
	}
}
