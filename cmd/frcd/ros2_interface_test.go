package main

import (
	"net"
	"net/netip"
	"strings"
	"testing"
)

// testHost is a roboRIO's interfaces: lo, eth0 (the robot network),
// usb0 (the USB link, here without the MULTICAST flag), wlan0 (down) and
// can0 (no IPv4).
func testHost() []hostInterface {
	p := netip.MustParsePrefix
	return []hostInterface{
		{net.Interface{Index: 1, Name: "lo", Flags: net.FlagUp | net.FlagLoopback}, []netip.Prefix{p("127.0.0.1/8"), p("::1/128")}},
		{net.Interface{Index: 2, Name: "eth0", Flags: net.FlagUp | net.FlagMulticast | net.FlagBroadcast}, []netip.Prefix{p("fe80::1/64"), p("10.27.0.2/24"), p("10.99.0.7/16")}},
		{net.Interface{Index: 3, Name: "usb0", Flags: net.FlagUp | net.FlagBroadcast}, []netip.Prefix{p("172.22.11.2/24")}},
		{net.Interface{Index: 4, Name: "wlan0", Flags: net.FlagMulticast}, []netip.Prefix{p("192.168.1.5/24")}},
		{net.Interface{Index: 5, Name: "can0", Flags: net.FlagUp}, nil},
	}
}

// TestChooseInterface: --ros2-interface by name or address, else
// CYCLONEDDS_URI's interface, else frcd's default; the flag wins; an
// interface without MULTICAST (or multicast="false") is unicast only, said
// in the log; Cyclone's multicast="true" overrides the flag's absence.
func TestChooseInterface(t *testing.T) {
	ifs := testHost()
	for _, c := range []struct {
		flag, uri string
		ifc, addr string // "" for frcd's default
		multicast bool
		note      string
	}{
		{"", "", "", "", false, ""},
		{"eth0", "", "eth0", "10.27.0.2", true, ""},
		{"10.27.0.2", "", "eth0", "10.27.0.2", true, ""},
		{"10.99.0.7", "", "eth0", "10.99.0.7", true, ""},
		{"", `<General><Interfaces><NetworkInterface address="10.99.0.0"/></></>`, "eth0", "10.99.0.7", true, ""},
		{"usb0", "", "usb0", "172.22.11.2", false, "no MULTICAST flag, discovery by unicast only"},
		{"lo", "", "lo", "127.0.0.1", false, "no MULTICAST flag"},
		{"", `<General><Interfaces><NetworkInterface name="eth0"/></></>`, "eth0", "10.27.0.2", true, ""},
		{"", `<General><Interfaces><NetworkInterface address="10.27.0.0"/></></>`, "eth0", "10.27.0.2", true, ""},
		{"", `<General><Interfaces><NetworkInterface name="usb0" multicast="true"/></></>`, "usb0", "172.22.11.2", true, ""},
		{"", `<General><Interfaces><NetworkInterface name="eth0" multicast="false"/></></>`, "eth0", "10.27.0.2", false, `multicast="false" in CYCLONEDDS_URI:1:22`},
		{"", `<General><NetworkInterfaceAddress>usb0</></>`, "usb0", "172.22.11.2", false, "no MULTICAST flag"},
		{"", `<General><Interfaces><NetworkInterface name="eth0"/><NetworkInterface name="usb0"/></></>`, "eth0", "10.27.0.2", true, "names 1 more interface(s); frcd's node uses one, the first"},
		{"usb0", `<General><Interfaces><NetworkInterface name="eth0"/></></>`, "usb0", "172.22.11.2", false, "no MULTICAST"}, // the flag wins
		{"", `<General><DontRoute>true</></>`, "", "", false, ""},
	} {
		got, ok, err := chooseInterface(c.flag, c.uri, 0, ifs, nil)
		if err != nil {
			t.Errorf("%q %q: %v", c.flag, c.uri, err)
			continue
		}
		name, addr := "", ""
		if ok {
			name, addr = got.ifc.Name, got.addr.String()
		}
		if name != c.ifc || addr != c.addr || (ok && got.multicast != c.multicast) || !strings.Contains(got.note, c.note) || (c.note == "" && got.note != "") {
			t.Errorf("%q %q: %s %s multicast %v note %q; want %s %s %v %q", c.flag, c.uri, name, addr, got.multicast, got.note, c.ifc, c.addr, c.multicast, c.note)
		}
	}
}

// TestChooseInterfaceErrors: what names nothing usable on this host stops
// the start, saying what there is.
func TestChooseInterfaceErrors(t *testing.T) {
	ifs := testHost()
	have := "the host has lo (127.0.0.1, up), eth0 (10.27.0.2 10.99.0.7, up, multicast), usb0 (172.22.11.2, up), wlan0 (192.168.1.5, down, multicast), can0 (no IPv4, up)"
	for _, c := range []struct{ flag, uri, want string }{
		{"eth1", "", `--ros2-interface: no interface "eth1" on this host; ` + have},
		{"10.27.0.9", "", "--ros2-interface: address 10.27.0.9 is not on this host; " + have},
		{"fe80::1", "", "--ros2-interface: address fe80::1 is not IPv4"},
		{"can0", "", "--ros2-interface: interface can0 has no IPv4 address (frcd's ROS 2 is IPv4 only); " + have},
		{"wlan0", "", "--ros2-interface: interface wlan0 is down; " + have},
		{"", `<General><Interfaces><NetworkInterface name="usb1"/></></>`, `CYCLONEDDS_URI:1:22: no interface "usb1" on this host`},
		{"", `<General><Interfaces><NetworkInterface name="eth0" address="172.22.11.2"/></></>`, "interface eth0 and address 172.22.11.2 are different interfaces (usb0 has it)"},
		{"", `<General><NetworkInterfaceAddress>10.1.1.1</></>`, "CYCLONEDDS_URI:1:10: address 10.1.1.1 is not on this host"},
		{"", `<General><Interfaces><NetworkInterface name="eth0"></General>`, "does not match"},
	} {
		_, _, err := chooseInterface(c.flag, c.uri, 0, ifs, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %q: %v, want an error with %q", c.flag, c.uri, err, c.want)
		}
	}
}
