// Command attack replays the attacks of issues 32 and 37 against an frcd
// it starts (on the sim, with its embedded master), each bounded in count
// and time. Run as root, it first moves itself into a network namespace
// of its own (unshare --net, laid out as a robot's network: loopback and
// an Ethernet-like interface, frcd0, with the robot's address and other
// hosts' addresses; netns.go), so that no attack touches the host's
// network, and the namespace goes when it exits; there frcd runs with
// ROS 2 as well (--ros both, --ros2-egress), and the DDS attacks and a
// Cyclone DDS subscriber run too (ros2.go). Elsewhere it runs on the
// host's loopback without them, and says so. For each it prints the loop's cycles as a
// share of its 100 Hz (from the status lines), frcd's peak resident
// memory (VmHWM, Linux), the bytes frcd wrote to its sockets and files
// (wchar, /proc/PID/io: its egress), and whether the legitimate clients
// were served during the attack and after it: a ROS 1 node that registers
// and receives /joint_states, an NT4 dashboard, and in the namespace a
// Cyclone DDS subscriber that discovers frcd and receives /joint_states. It exits 1 when an
// attack breaks a bound: frcd stopped, the loop under 95 % of its cycles,
// peak memory at 100 MB or more, a legitimate client not served, or a
// bound of the attack's own (an egress budget).
//
// Each attack is one entry of a table (attack); a file registers its own
// (ros1.go, web.go, ros2.go) with one line. Addresses 127.0.0.2 and up stand for
// other computers: frcd counts a connection whose remote address is not
// its local one as remote. A measurement: the figures depend on the
// machine (`make attack`). Run from the repository root:
//
//	go run ./internal/attack [-run REGEXP] bin/frcd
//
// -run replays only the attacks whose names match (and the idle baseline).
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Bounds of the done-when: what every attack must keep.
const (
	minLoopShare = 0.95
	maxPeakBytes = 100 << 20
)

// attack is one entry of the table.
type attack struct {
	name string
	// run attacks target t and returns a note on what it saw; it must
	// return within seconds. during is called once while the attack is
	// under way (from run's goroutine, when run says so).
	run func(t *target, during func()) string
}

var attacks []attack

// netnsAttacks and netnsClients need the network namespace (ros2.go):
// they are added to attacks and legitimate only in it.
var (
	netnsAttacks []attack
	netnsClients []client
)

// idle is the baseline, first: no attack.
func init() {
	register(attack{"idle", func(_ *target, during func()) string { during(); return "[no attack]" }})
}

// register adds a file's attacks to the table.
func register(a ...attack) { attacks = append(attacks, a...) }

// target is the running frcd and its addresses.
type target struct {
	cmd                        *exec.Cmd
	env                        []string
	ntAddr, wsAddr, masterAddr string
	masterURI                  string
	ros2                       bool   // in the namespace: --ros both, --ros2-egress egress
	ros2Line                   string // frcd's line saying where its ROS 2 node is

	broken []string // the bounds of its own the attack under way broke (fail)

	mu      sync.Mutex
	samples []sample
	lines   []string // the last status lines
	exited  chan struct{}
}

type sample struct {
	t                float64
	cycles, overruns int
}

var cyclesRe = regexp.MustCompile(`t=([0-9.]+)s \S+ cycles=(\d+) .*overruns=(\d+)`)

func main() {
	fs := flag.NewFlagSet("attack", flag.ExitOnError)
	run := fs.String("run", "", "replay only the attacks whose names match this regular expression (and idle)")
	fs.Parse(os.Args[1:])
	if fs.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/attack [-run REGEXP] FRCD")
		os.Exit(2)
	}
	sel, err := regexp.Compile(*run)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	inNetns, why := enterNetns() // returns only inside it, or where it cannot make one
	ros2 := false
	if inNetns {
		if err := buildSubscriber(); err != nil {
			why = "no Cyclone DDS subscriber: " + err.Error()
		} else {
			defer os.RemoveAll(peerDir)
			ros2 = true
			attacks = append(attacks, netnsAttacks...)
			legitimate = append(legitimate, netnsClients...)
		}
	}
	if !ros2 {
		fmt.Printf("on the host's loopback, without ROS 2 and its attacks (%s)\n", why)
	}
	state, err := os.MkdirTemp("", "frcd-attack")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer os.RemoveAll(state)
	t := &target{ntAddr: freeAddr(), wsAddr: freeAddr(), masterAddr: freeAddr(), ros2: ros2}
	t.masterURI = "http://" + t.masterAddr + "/"
	t.env = append(cleanEnv(), "ROS_MASTER_URI=http://"+t.masterAddr, "ROS_IP=127.0.0.1", "ROS_HOME="+state)
	if err := t.start(fs.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer t.stop()
	time.Sleep(4 * time.Second)
	if t.ros2 {
		t.mu.Lock()
		fmt.Println(t.ros2Line)
		t.mu.Unlock()
	}
	failed, ran := 0, 0
	for i, a := range attacks {
		if i > 0 && !sel.MatchString(a.name) {
			continue
		}
		ran++
		if !t.measure(a) {
			failed++
		}
	}
	if failed > 0 {
		fmt.Printf("%d of %d attacks broke a bound\n", failed, ran)
		t.stop()
		os.Exit(1)
	}
	fmt.Printf("all %d attacks held: frcd ran, loop >= %.0f%%, peak < %d MB, legitimate clients served during and after\n",
		ran, minLoopShare*100, maxPeakBytes>>20)
}

// cleanEnv is the environment without its ROS_ and CYCLONEDDS_ variables:
// frcd's and the subscriber's defaults, as on a robot.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ROS_") && !strings.HasPrefix(kv, "CYCLONEDDS_") {
			env = append(env, kv)
		}
	}
	return env
}

func (t *target) start(frcd string) error {
	args := []string{"run", "--sim", "--status", "500ms", "--nt", t.ntAddr, "--wpilibws", t.wsAddr}
	if t.ros2 {
		args = append(args, "--ros", "both", "--ros2-egress", egressFlag)
	}
	t.cmd = exec.Command(frcd, append(args, "examples/competition/robot.urdf", "examples/competition/robot.yaml")...)
	t.cmd.Env = t.env
	out, err := t.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	t.cmd.Stderr = nil
	if err := t.cmd.Start(); err != nil {
		return err
	}
	t.exited = make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			t.status(sc.Text())
		}
	}()
	go func() { t.cmd.Wait(); close(t.exited) }()
	return nil
}

func (t *target) status(line string) {
	m := cyclesRe.FindStringSubmatch(line)
	if m == nil {
		if strings.HasPrefix(line, "frcd: ROS 2 node") {
			t.mu.Lock()
			t.ros2Line = line
			t.mu.Unlock()
		}
		return
	}
	s := sample{}
	s.t, _ = strconv.ParseFloat(m[1], 64)
	s.cycles, _ = strconv.Atoi(m[2])
	s.overruns, _ = strconv.Atoi(m[3])
	t.mu.Lock()
	t.samples = append(t.samples, s)
	t.lines = append(t.lines[max(0, len(t.lines)-9):], line)
	t.mu.Unlock()
}

func (t *target) stop() {
	if t.cmd.Process == nil {
		return
	}
	t.cmd.Process.Signal(os.Interrupt)
	select {
	case <-t.exited:
	case <-time.After(10 * time.Second):
		t.cmd.Process.Kill()
		<-t.exited
	}
}

func (t *target) running() bool {
	select {
	case <-t.exited:
		return false
	default:
		return true
	}
}

// last is the newest status sample.
func (t *target) last() sample {
	for i := 0; i < 100; i++ {
		t.mu.Lock()
		n := len(t.samples)
		var s sample
		if n > 0 {
			s = t.samples[n-1]
		}
		t.mu.Unlock()
		if n > 0 {
			return s
		}
		time.Sleep(100 * time.Millisecond)
	}
	return sample{}
}

// proc reads a field of /proc/PID/FILE (kB for status, bytes for io).
func (t *target) proc(file, field string) int64 {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/%s", t.cmd.Process.Pid, file))
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && strings.TrimSuffix(f[0], ":") == field {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	return 0
}

// measure runs one attack and prints its line; false when it broke a
// bound.
func (t *target) measure(a attack) bool {
	fmt.Printf("%s: ", a.name)
	before, wrote := t.last(), t.proc("io", "wchar")
	t.broken = nil
	servedDuring := true
	during := func() { servedDuring = t.served("during") }
	note := a.run(t, during)
	time.Sleep(1200 * time.Millisecond) // a status line after the attack
	after := t.last()
	servedAfter := t.served("after")
	share := 0.0
	if dt := after.t - before.t; dt > 0 {
		share = float64(after.cycles-before.cycles) / (dt * 100)
	}
	peak := t.proc("status", "VmHWM") << 10
	egress := t.proc("io", "wchar") - wrote
	alive := t.running()
	for _, b := range t.broken {
		fmt.Printf("[BROKEN: %s] ", b)
	}
	fmt.Printf("%s; loop %.2f of 100 Hz over %.1fs, overruns +%d, peak %d MB, egress %.1f MB; served during %v, after %v; frcd running %v\n",
		note, share, after.t-before.t, after.overruns-before.overruns, peak>>20, float64(egress)/1e6, servedDuring, servedAfter, alive)
	return alive && share >= minLoopShare && peak < maxPeakBytes && servedDuring && servedAfter && len(t.broken) == 0
}

// fail notes a bound of the attack's own that it broke.
func (t *target) fail(format string, args ...any) {
	t.broken = append(t.broken, fmt.Sprintf(format, args...))
}

// served says whether every legitimate client is served now: a ROS 1
// node registers and receives /joint_states, an NT4 dashboard connects,
// and in the namespace a Cyclone DDS subscriber receives /joint_states
// (ros1.go, web.go, ros2.go).
func (t *target) served(when string) bool {
	ok := true
	for _, c := range legitimate {
		if err := c.check(t); err != nil {
			fmt.Printf("[%s %s not served: %v] ", c.name, when, err)
			ok = false
		}
	}
	return ok
}

// client is a legitimate client's check.
type client struct {
	name  string
	check func(t *target) error
}

var legitimate []client

// freeAddr is a loopback address with a port free now.
func freeAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// dialFrom dials addr from a loopback source address of its own
// (127.0.0.x stands for another computer).
func dialFrom(ctx context.Context, src, addr string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 2 * time.Second}
	return d.DialContext(ctx, "tcp", addr)
}

// drain reads c until it closes, so that the kernel's buffers stay empty.
func drain(c net.Conn) { go io.Copy(io.Discard, c) }
