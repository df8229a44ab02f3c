// Command attack replays the attacks of issues 32 and 37 on loopback
// against an frcd it starts (on the sim, with its embedded master), each
// bounded in count and time. For each it prints the loop's cycles as a
// share of its 100 Hz (from the status lines), frcd's peak resident
// memory (VmHWM, Linux), the bytes frcd wrote to its sockets and files
// (wchar, /proc/PID/io: its egress), and whether the legitimate clients
// were served during the attack and after it: a ROS 1 node that registers
// and receives /joint_states, and an NT4 dashboard. It exits 1 when an
// attack breaks a bound: frcd stopped, the loop under 95 % of its cycles,
// peak memory at 100 MB or more, or a legitimate client not served.
//
// Each attack is one entry of a table (attack); a file registers its own
// (ros1.go, web.go) with one line. Addresses 127.0.0.2 and up stand for
// other computers: frcd counts a connection whose remote address is not
// its local one as remote. A measurement: the figures depend on the
// machine (`make attack`). Run from the repository root:
//
//	go run ./internal/attack bin/frcd
package main

import (
	"bufio"
	"context"
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
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/attack FRCD")
		os.Exit(2)
	}
	state, err := os.MkdirTemp("", "frcd-attack")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer os.RemoveAll(state)
	t := &target{ntAddr: freeAddr(), wsAddr: freeAddr(), masterAddr: freeAddr()}
	t.masterURI = "http://" + t.masterAddr + "/"
	t.env = append(os.Environ(), "ROS_MASTER_URI=http://"+t.masterAddr, "ROS_IP=127.0.0.1", "ROS_HOME="+state)
	if err := t.start(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer t.stop()
	time.Sleep(4 * time.Second)
	failed := 0
	for _, a := range attacks {
		if !t.measure(a) {
			failed++
		}
	}
	if failed > 0 {
		fmt.Printf("%d of %d attacks broke a bound\n", failed, len(attacks))
		t.stop()
		os.Exit(1)
	}
	fmt.Printf("all %d attacks held: frcd ran, loop >= %.0f%%, peak < %d MB, legitimate clients served during and after\n",
		len(attacks), minLoopShare*100, maxPeakBytes>>20)
}

func (t *target) start(frcd string) error {
	t.cmd = exec.Command(frcd, "run", "--sim", "--status", "500ms", "--nt", t.ntAddr, "--wpilibws", t.wsAddr,
		"examples/competition/robot.urdf", "examples/competition/robot.yaml")
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
	fmt.Printf("%s; loop %.2f of 100 Hz over %.1fs, overruns +%d, peak %d MB, egress %.1f MB; served during %v, after %v; frcd running %v\n",
		note, share, after.t-before.t, after.overruns-before.overruns, peak>>20, float64(egress)/1e6, servedDuring, servedAfter, alive)
	return alive && share >= minLoopShare && peak < maxPeakBytes && servedDuring && servedAfter
}

// served says whether every legitimate client is served now: a ROS 1
// node registers and receives /joint_states, and an NT4 dashboard
// connects (ros1.go, web.go).
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
