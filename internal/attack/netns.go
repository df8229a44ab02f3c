package main

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
)

// The network namespace the attacks run in: laid out as a robot's
// network as frcd's tests lay it out (internal/tooltest RobotNetwork):
// loopback up, and frcd0, one end of a veth pair, up and multicast-capable
// with the robot's address, the multicast route, and one address for
// each DDS attack (another host on the robot's network, as frcd sees it).
const (
	netnsEnv  = "FRCD_ATTACK_NETNS"
	robotAddr = "10.27.0.1"
)

// The DDS attackers' addresses, one an attack (ros2.go), so that one's
// admission rate does not limit the next.
const (
	floodAddr = "10.27.0.66"
	spoofAddr = "10.27.0.67"
	deafAddr  = "10.27.0.68"
	stormAddr = "10.27.0.69"
)

func netnsSetup() string {
	s := []string{"ip link set lo up", "ip link add frcd0 type veth peer name frcd1", "ip addr add " + robotAddr + "/24 dev frcd0",
		"ip link set frcd1 up", "ip link set frcd0 up", "ip route add 224.0.0.0/4 dev frcd0"}
	for _, a := range []string{floodAddr, spoofAddr, deafAddr, stormAddr} {
		s = append(s, "ip addr add "+a+"/24 dev frcd0")
	}
	return strings.Join(s, " && ")
}

// enterNetns runs this program again in a network namespace of its own
// and exits with its code; it returns true in that namespace, or false
// and why where it cannot make one (not root, no unshare or ip). The
// namespace, its interfaces and addresses go when the run exits.
func enterNetns() (bool, string) {
	if os.Getenv(netnsEnv) != "" {
		fmt.Println("in a network namespace of its own: frcd at " + robotAddr + " (frcd0) and 127.0.0.1, the attackers at 127.0.0.x and 10.27.0.66-69")
		return true, ""
	}
	if os.Geteuid() != 0 {
		return false, "a network namespace needs root"
	}
	for _, tool := range []string{"unshare", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			return false, tool + " not found"
		}
	}
	self, err := os.Executable()
	if err != nil {
		return false, err.Error()
	}
	cmd := exec.Command("unshare", append([]string{"--net", "sh", "-c", netnsSetup() + ` && exec "$0" "$@"`, self}, os.Args[1:]...)...)
	cmd.Env = append(os.Environ(), netnsEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	signal.Ignore(os.Interrupt) // the run in the namespace gets it and stops frcd
	if err := cmd.Run(); err != nil {
		if e, ok := err.(*exec.ExitError); ok {
			os.Exit(e.ExitCode())
		}
		fmt.Fprintln(os.Stderr, "attack: the network namespace:", err)
		os.Exit(2)
	}
	os.Exit(0)
	return false, ""
}
