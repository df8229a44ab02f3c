package tooltest

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The tools a network namespace needs.
var (
	Unshare = Tool{"unshare", "util-linux"}
	IP      = Tool{"ip", "iproute2"}
)

// netnsEnv marks the run of a test inside its network namespace: its
// value is the test's name.
const netnsEnv = "FRCD_TEST_NETNS"

// netnsLimit guards the run in a namespace against a hang only.
const netnsLimit = 5 * time.Minute

// LoopbackMulticast is a namespace's setup for multicast on lo: lo up,
// with the MULTICAST flag and the route for 224.0.0.0/4.
const LoopbackMulticast = "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo"

// RobotAddr is the address of RobotNetwork's interface.
const RobotAddr = "10.27.0.1"

// RobotNetwork is a namespace's setup as a robot's network looks to a
// node on it: an Ethernet-like interface (frcd0, one end of a veth pair;
// the other end, frcd1, up without an address so that frcd0 has a
// carrier), up, multicast-capable, with the IPv4 address RobotAddr/24 and
// the route for 224.0.0.0/4 (where a robot has its default route, through
// the radio); lo up, without multicast, as on a stock Linux.
const RobotNetwork = RobotNetworkNoRoute + " && ip route add 224.0.0.0/4 dev frcd0"

// RobotNetworkNoRoute is RobotNetwork without a route for multicast, as on
// a coprocessor given a static address and no gateway.
const RobotNetworkNoRoute = "ip link set lo up && ip link add frcd0 type veth peer name frcd1 && " +
	"ip addr add " + RobotAddr + "/24 dev frcd0 && ip link set frcd1 up && ip link set frcd0 up"

// InsideNetns says whether this run of t is InNetns's inner one.
func InsideNetns(t *testing.T) bool { return os.Getenv(netnsEnv) == t.Name() }

// InsideNetnsOf says whether t (a test or one of its subtests) runs in
// the namespace InNetns made for its top-level test.
func InsideNetnsOf(t *testing.T) bool {
	top, _, _ := strings.Cut(t.Name(), "/")
	return top != "" && os.Getenv(netnsEnv) == top
}

// InNetns runs the calling top-level test again in a new network
// namespace (unshare --net) set up by setup (shell commands, e.g.
// LoopbackMulticast or RobotNetwork), with env added to its environment;
// it fails the test when that run fails or skips. It returns true in the
// inner run, which then does the test, and false in the outer one, which
// is done. It needs root (CAP_SYS_ADMIN), as make test in CI has: without
// it the test skips, or fails under FRCD_REQUIRE_TOOLS=1, as for a missing
// tool. A test checks the tools it needs in the outer run (see
// InsideNetns), where a missing one can still skip.
func InNetns(t *testing.T, setup string, env []string, tools ...Tool) bool {
	t.Helper()
	if InsideNetns(t) {
		return true
	}
	Require(t, append([]Tool{Unshare, IP}, tools...)...)
	if os.Geteuid() != 0 {
		missing(t, "a network namespace needs root")
	}
	ctx, cancel := context.WithTimeout(context.Background(), netnsLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "unshare", "--net", "sh", "-c", setup+` && exec "$0" "$@"`,
		os.Args[0], "-test.run", "^"+regexp.QuoteMeta(t.Name())+"$", "-test.v", "-test.count=1", "-test.timeout="+netnsLimit.String())
	cmd.Env = append(append(os.Environ(), env...), netnsEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	t.Logf("in its network namespace:\n%s", out)
	if err != nil {
		t.Fatalf("the run in a network namespace failed: %v", err)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatal("the run in a network namespace did not pass")
	}
	return false
}
