// Command cpubench is `make bench`'s measure of what the robot costs the
// machine: CPU seconds per simulated minute (user + sys, from the kernel's
// own accounting of the child process) of frcd running the competition
// example in real time, each next to a reference measured in the same run,
// interleaved, the median of --reps printed as a ratio:
//
//   - the loop alone (--no-ros) at 100 Hz and 1 kHz, against bareloop, a
//     bare Go loop of the same rate on a locked thread;
//   - at 100 Hz, frcd with its NT4 server on and no client against --nt
//     off: what the dashboards' server costs while nobody watches;
//   - the ROS share (frcd with ROS less frcd without, same rate) against
//     rosref, a minimal roscpp node publishing the messages the bridge
//     publishes, of the same sizes, at the same rates, built here from
//     Debian's libroscpp-dev; both publish to one subscriber (rosref
//     --listen) through Debian's rosmaster.
//
// Each run is a few seconds (--for) after a warm-up, scaled to a minute.
// It also prints the 1 kHz loop's jitter p99 (frcd's status line), at
// normal priority (--rt-priority 0) and, where the machine permits a
// real-time one, with frcd raising its loop's thread to SCHED_FIFO 10
// itself (its default --rt-priority), and, with
// valgrind, the instructions one cycle costs (callgrind: independent of
// the machine's load). It asserts nothing: the figures are the machine's.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/proccpu"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/sim"
)

const (
	exampleURDF = "examples/competition/robot.urdf"
	exampleYAML = "examples/competition/robot.yaml"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "cpubench: %v\n", err)
		os.Exit(1)
	}
}

type options struct {
	warm, measure time.Duration
	reps          int
	noROS         bool
	noCallgrind   bool
	rates         []float64
	work          string
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("cpubench", flag.ContinueOnError)
	var o options
	fs.DurationVar(&o.warm, "warm", 2*time.Second, "how long each process runs before it is measured (start-up, ROS registration)")
	fs.DurationVar(&o.measure, "for", 4*time.Second, "how long each process is measured; scaled to a minute")
	fs.IntVar(&o.reps, "reps", 3, "runs of each, interleaved; the median is printed")
	fs.BoolVar(&o.noROS, "no-ros", false, "skip the ROS share (no rosmaster or libroscpp-dev needed)")
	fs.BoolVar(&o.noCallgrind, "no-callgrind", false, "skip the instruction counts")
	printSpec := fs.Float64("print-spec", 0, "print rosref's spec for this loop rate and exit")
	if err := fs.Parse(args); err != nil {
		return err
	}
	o.rates = []float64{100, 1000}
	if *printSpec > 0 {
		spec, err := rosSpec(exampleURDF, exampleYAML, []float64{*printSpec})
		if err != nil {
			return err
		}
		_, err = io.WriteString(out, spec[*printSpec])
		return err
	}
	work, err := os.MkdirTemp("", "cpubench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	o.work = work
	bins, err := build(o)
	if err != nil {
		return err
	}
	spec, err := rosSpec(exampleURDF, exampleYAML, o.rates)
	if err != nil {
		return err
	}
	res, err := measureAll(o, bins, spec)
	if err != nil {
		return err
	}
	report(out, o, res)
	if !o.noCallgrind {
		if err := instructions(out, work); err != nil {
			fmt.Fprintf(out, "\ninstructions per cycle: not measured: %v\n", err)
		}
	}
	return nil
}

// binaries are the programs measured.
type binaries struct {
	frcd, bare, rosref string
}

func build(o options) (binaries, error) {
	b := binaries{frcd: filepath.Join(o.work, "frcd"), bare: filepath.Join(o.work, "bareloop")}
	for _, c := range [][]string{{"-o", b.frcd, "./cmd/frcd"}, {"-o", b.bare, "./internal/cpubench/bareloop"}} {
		cmd := exec.Command("go", append([]string{"build"}, c...)...)
		if msg, err := cmd.CombinedOutput(); err != nil {
			return b, fmt.Errorf("go build %s: %v\n%s", c[2], err, msg)
		}
	}
	if o.noROS {
		return b, nil
	}
	flags, err := exec.Command("pkg-config", "--cflags", "--libs", "roscpp", "std_msgs", "sensor_msgs", "nav_msgs", "diagnostic_msgs", "geometry_msgs").Output()
	if err != nil {
		return b, fmt.Errorf("pkg-config roscpp: %v (make deps-bench installs libroscpp-dev and the message headers; --no-ros skips the ROS share)", err)
	}
	b.rosref = filepath.Join(o.work, "rosref")
	args := append([]string{"-O2", "-o", b.rosref, "internal/cpubench/rosref/rosref.cpp"}, strings.Fields(string(flags))...)
	if msg, err := exec.Command("g++", args...).CombinedOutput(); err != nil {
		return b, fmt.Errorf("g++ rosref.cpp: %v\n%s", err, msg)
	}
	return b, nil
}

// rosSpec describes, for rosref, what frcd's bridge publishes and
// subscribes to for the robot, at each loop rate: the topics from the
// loop's snapshot, the sim's truth and the controllers, as package ros
// builds them, and the state topics' period from ros.PublishPeriod.
func rosSpec(urdfPath, yamlPath string, rates []float64) (map[float64]string, error) {
	r, list, err := robot.Load(urdfPath, yamlPath)
	if err != nil || list.Errors() > 0 {
		return nil, fmt.Errorf("load the example robot: %v %v", err, list)
	}
	d, err := daemon.NewSim(r, daemon.SimOptions{}, daemon.Options{})
	if err != nil {
		return nil, err
	}
	snap := d.Loop.NewSnapshot()
	var b strings.Builder
	fmt.Fprintf(&b, "joint_states /joint_states %d\n", len(snap.Joints))
	for _, imu := range snap.IMUs {
		fmt.Fprintf(&b, "imu /%s/imu 0\n", imu.Name)
	}
	for _, p := range snap.PDPs {
		fmt.Fprintf(&b, "battery /%s/battery 0\nfloat64s /%s/currents %d\n", p.Name, p.Name, 16)
	}
	for _, c := range snap.Compressors {
		fmt.Fprintf(&b, "bool /%s/running 0\nbool /%s/closed_loop 0\nbool /%s/pressure_switch 0\nfloat64 /%s/current 0\n", c.Name, c.Name, c.Name, c.Name)
	}
	for _, s := range snap.LinkDigital {
		fmt.Fprintf(&b, "bool /%s 0\n", s.Name)
	}
	for _, s := range snap.LinkAnalog {
		fmt.Fprintf(&b, "float64 /%s 0\n", s.Name)
	}
	joints := 0
	d.Sim.EachJoint(func(string, sim.JointTruth) { joints++ })
	fmt.Fprintf(&b, "joint_states /sim/joint_states_truth %d\n", joints)
	if _, ok := d.Sim.Pose(); ok {
		b.WriteString("odometry /sim/ground_truth 0\n")
	}
	// The loop's status and one per device (the backend's own, CAN buses
	// and inventory, add a few on top).
	fmt.Fprintf(&b, "diagnostics /diagnostics %d\n", 1+len(snap.Devices))
	for _, od := range snap.Odometry { // a drive base's, here at the state topics' period (frcd: its own publish_rate, faster or slower)
		fmt.Fprintf(&b, "odometry /%s/odom 0\n", od.Name)
	}
	for _, c := range d.Loop.Controllers() {
		typ, ok := map[control.Command]string{control.Float64: "float64", control.Bool: "bool", control.Int8: "int8",
			control.Float64Array: "float64s", control.Twist: "twist"}[c.Takes()]
		if !ok {
			continue // no topic of its own to subscribe (the joint state controller; trajectories are actions)
		}
		fmt.Fprintf(&b, "command /%s/%s %s\n", c.Name, c.Topic(), typ)
	}
	specs := map[float64]string{}
	for _, rate := range rates {
		every := ros.PublishPeriod(r.Config, time.Duration(float64(time.Second)/rate), 0)
		specs[rate] = fmt.Sprintf("every %g\n%s", every.Seconds(), b.String())
	}
	return specs, nil
}

// sample is one measured run: CPU seconds per minute, and the last
// status line's jitter p99 (frcd only).
type sample struct {
	cpuPerMin float64
	jitter    time.Duration
}

type results map[string][]sample

// withPriority is frcd's arguments with --rt-priority's value replaced.
func withPriority(args []string, prio string) []string {
	out := slices.Clone(args)
	if i := slices.Index(out, "--rt-priority"); i >= 0 && i+1 < len(out) {
		out[i+1] = prio
	}
	return out
}

func measureAll(o options, b binaries, spec map[float64]string) (results, error) {
	res := results{}
	frcdArgs := func(rate float64, ros bool) []string {
		a := []string{"run", "--sim", "--wpilibws", "off", "--nt", "off", "--rate", strconv.FormatFloat(rate, 'f', -1, 64),
			"--status", "1s", "--rt-priority", "0", exampleURDF, exampleYAML}
		if !ros {
			a = append(a[:1], append([]string{"--no-ros"}, a[1:]...)...)
		} else {
			a = append(a[:1], append([]string{"--master", "external"}, a[1:]...)...)
		}
		return a
	}
	var env []string
	if !o.noROS {
		stop, uri, err := startROS(b, spec[o.rates[0]])
		if err != nil {
			return nil, err
		}
		defer stop()
		env = []string{"ROS_MASTER_URI=" + uri, "ROS_IP=127.0.0.1", "ROS_HOSTNAME=127.0.0.1"}
	}
	// The real-time priority a robot's loop runs at, when this machine
	// grants it (frcd takes it itself, as on a robot with CAP_SYS_NICE):
	// the jitter under the shared load then shows the loop's own, not the
	// other processes'.
	fifo := exec.Command("chrt", "-f", "10", "true").Run() == nil
	for rep := 0; rep < o.reps; rep++ {
		for _, rate := range o.rates {
			key := func(s string) string { return fmt.Sprintf("%s %g", s, rate) }
			runs := []struct {
				name  string
				cmd   []string
				stdin string
			}{
				{"frcd", append([]string{b.frcd}, frcdArgs(rate, false)...), ""},
				{"bare", []string{b.bare, "--rate", strconv.FormatFloat(rate, 'f', -1, 64)}, ""},
			}
			if rate == 100 {
				// The NT4 server on, no client connected: it should cost
				// nothing (the telemetry sleeps until a client comes).
				runs = append(runs, struct {
					name  string
					cmd   []string
					stdin string
				}{"frcd nt4", append([]string{b.frcd}, ntArgs(frcdArgs(rate, false))...), ""})
			}
			if !o.noROS {
				runs = append(runs,
					struct {
						name  string
						cmd   []string
						stdin string
					}{"frcd+ros", append([]string{b.frcd}, frcdArgs(rate, true)...), ""},
					struct {
						name  string
						cmd   []string
						stdin string
					}{"rosref", []string{b.rosref}, spec[rate]})
			}
			if fifo && rate == 1000 {
				runs = append(runs, struct {
					name  string
					cmd   []string
					stdin string
				}{"frcd fifo", append([]string{b.frcd}, withPriority(frcdArgs(rate, false), "10")...), ""})
			}
			for _, r := range runs {
				s, err := measure(o, r.cmd, env, r.stdin)
				if err != nil {
					return nil, fmt.Errorf("%s at %g Hz: %w", r.name, rate, err)
				}
				res[key(r.name)] = append(res[key(r.name)], s)
			}
		}
	}
	return res, nil
}

// ntArgs turns frcd's arguments' --nt off into an NT4 server on a free
// port of loopback.
func ntArgs(args []string) []string {
	out := append([]string(nil), args...)
	for i := range out {
		if out[i] == "--nt" && i+1 < len(out) {
			out[i+1] = "127.0.0.1:0"
		}
	}
	return out
}

// startROS starts Debian's rosmaster on a free port and the listener
// that subscribes to every state topic.
func startROS(b binaries, spec string) (stop func(), uri string, err error) {
	port, err := freePort()
	if err != nil {
		return nil, "", err
	}
	uri = fmt.Sprintf("http://127.0.0.1:%d/", port)
	master := exec.Command("rosmaster", "--core", "-p", strconv.Itoa(port))
	master.Env = append(os.Environ(), "ROS_MASTER_URI="+uri, "ROS_HOSTNAME=127.0.0.1", "ROS_LOG_DIR="+os.TempDir())
	if err := master.Start(); err != nil {
		return nil, "", fmt.Errorf("rosmaster: %v (make deps installs python3-rosmaster; --no-ros skips the ROS share)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
			break
		}
		if ctx.Err() != nil {
			master.Process.Kill()
			master.Wait()
			return nil, "", errors.New("rosmaster did not listen within 20s")
		}
		time.Sleep(50 * time.Millisecond) // polling a real external process, with a deadline
	}
	listener := exec.Command(b.rosref, "--listen")
	listener.Env = append(os.Environ(), "ROS_MASTER_URI="+uri, "ROS_IP=127.0.0.1", "ROS_HOSTNAME=127.0.0.1", "ROS_LOG_DIR="+os.TempDir())
	listener.Stdin = strings.NewReader(spec)
	if err := listener.Start(); err != nil {
		master.Process.Kill()
		master.Wait()
		return nil, "", err
	}
	return func() {
		for _, c := range []*exec.Cmd{listener, master} {
			c.Process.Signal(syscall.SIGTERM)
			c.Wait()
		}
	}, uri, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

var jitterRE = regexp.MustCompile(`jitter p99<=([0-9.]+)(µs|ms)`)

// measure runs cmd for o.warm + o.measure and returns its CPU time over
// the measured part, from the kernel's CPU clock of the process (all its
// threads, user and system), per minute.
func measure(o options, cmd, env []string, stdin string) (sample, error) {
	c := exec.Command(cmd[0], cmd[1:]...)
	c.Env = append(os.Environ(), env...)
	c.Env = append(c.Env, "ROS_LOG_DIR="+os.TempDir())
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	if stdin != "" {
		c.Stdin = strings.NewReader(stdin)
	}
	if err := c.Start(); err != nil {
		return sample{}, err
	}
	defer func() {
		c.Process.Signal(syscall.SIGTERM)
		c.Wait()
	}()
	fail := func(err error) (sample, error) {
		c.Process.Signal(syscall.SIGTERM)
		c.Wait() // before its output is read
		return sample{}, fmt.Errorf("%v: %s", err, lastLine(stderr.String()))
	}
	perMin, err := proccpu.PerMinute(c.Process.Pid, o.warm, o.measure)
	if err != nil {
		return fail(err)
	}
	s := sample{cpuPerMin: perMin}
	c.Process.Signal(syscall.SIGTERM)
	c.Wait()
	if m := jitterRE.FindAllStringSubmatch(stdout.String(), -1); len(m) > 0 {
		last := m[len(m)-1]
		v, _ := strconv.ParseFloat(last[1], 64)
		unit := time.Microsecond
		if last[2] == "ms" {
			unit = time.Millisecond
		}
		s.jitter = time.Duration(v * float64(unit))
	}
	return s, nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func cpus(ss []sample) []float64 {
	var xs []float64
	for _, s := range ss {
		xs = append(xs, s.cpuPerMin)
	}
	return xs
}

func report(w io.Writer, o options, res results) {
	fmt.Fprintf(w, "CPU per simulated minute, the median of %d interleaved runs of %s each (scaled), as ratios to a reference measured in the same run\n", o.reps, o.measure)
	fmt.Fprintf(w, "%-28s %8s %10s %8s\n", "", "ratio", "target", "% core")
	for _, rate := range o.rates {
		k := func(s string) []sample { return res[fmt.Sprintf("%s %g", s, rate)] }
		loop, bare := proccpu.Median(cpus(k("frcd"))), proccpu.Median(cpus(k("bare")))
		target := "-"
		if rate == 100 {
			target = "<= 1.5"
		}
		fmt.Fprintf(w, "%-28s %8.2f %10s %7.2f%%\n", fmt.Sprintf("loop alone %g Hz / bare Go", rate), loop/bare, target, loop/60*100)
	}
	if nt, off := cpus(res["frcd nt4 100"]), cpus(res["frcd 100"]); len(nt) > 0 && len(nt) == len(off) {
		// Each run with the server paired with the run without of the
		// same round.
		var ratio []float64
		for i := range nt {
			ratio = append(ratio, nt[i]/off[i])
		}
		fmt.Fprintf(w, "%-28s %8.2f %10s %7.2f%%\n", "NT4 on, no client / --nt off", proccpu.Median(ratio), "<= 1.05", proccpu.Median(nt)/60*100)
	}
	if !o.noROS {
		for _, rate := range o.rates {
			k := func(s string) []sample { return res[fmt.Sprintf("%s %g", s, rate)] }
			// The share per run pairs each run with ROS with the run without
			// of the same round.
			with, without := cpus(k("frcd+ros")), cpus(k("frcd"))
			var share []float64
			for i := range with {
				share = append(share, with[i]-without[i])
			}
			ref := proccpu.Median(cpus(k("rosref")))
			fmt.Fprintf(w, "%-28s %8.2f %10s %7.2f%%\n", fmt.Sprintf("ROS share %g Hz / roscpp", rate), proccpu.Median(share)/ref, "<= 1.5", proccpu.Median(share)/60*100)
		}
	}
	jitter := func(key string) time.Duration {
		var jit []float64
		for _, s := range res[key] {
			jit = append(jit, float64(s.jitter))
		}
		if len(jit) == 0 {
			return 0
		}
		return time.Duration(proccpu.Median(jit))
	}
	fmt.Fprintf(w, "jitter p99 at 1 kHz, loop alone: %v (target < 100µs; the status line's p99 over each whole run, bucketed upwards)\n", jitter("frcd 1000"))
	if fifo := res["frcd fifo 1000"]; len(fifo) > 0 {
		fmt.Fprintf(w, "  its loop thread at SCHED_FIFO 10 (frcd's own --rt-priority 10): %v at %.2f%% of a core\n", jitter("frcd fifo 1000"), proccpu.Median(cpus(fifo))/60*100)
	}
}

// instructions prints the instructions per cycle of the daemon's cycle
// benchmarks under callgrind, counted only inside the cycle's function
// (--toggle-collect: not the runtime's other threads, whose share grows
// with valgrind's slowdown), as the difference of two runs of different
// lengths so that the set-up cancels out.
func instructions(w io.Writer, work string) error {
	if _, err := exec.LookPath("valgrind"); err != nil {
		return errors.New("valgrind not found")
	}
	test := filepath.Join(work, "daemon.test")
	// Without cgo, and without async preemption below: valgrind trips on
	// Go's preemption signals.
	build := exec.Command("go", "test", "-c", "-o", test, "./daemon")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("go test -c ./daemon: %v\n%s", err, msg)
	}
	fmt.Fprintln(w, "\ninstructions per cycle (callgrind, independent of the machine's load; competition robot at 1 kHz)")
	for _, bench := range []struct{ name, fn, what string }{
		{"BenchmarkCycle", "*daemon.(?Daemon).Step", "the sim's step and the loop's cycle"},
		{"BenchmarkCycleLoopOnly", "*control.(?Loop).Cycle", "the loop's cycle alone"},
	} {
		var ir [2]float64
		ns := [2]int{200, 1200}
		for i, n := range ns {
			outFile := filepath.Join(work, fmt.Sprintf("callgrind.%s.%d", bench.name, n))
			cmd := exec.Command("valgrind", "--tool=callgrind", "--toggle-collect="+bench.fn, "--callgrind-out-file="+outFile, test,
				"-test.run", "^$", "-test.bench", "^"+bench.name+"$", "-test.benchtime", fmt.Sprintf("%dx", n))
			cmd.Dir = "daemon"
			cmd.Env = append(os.Environ(), "GOMAXPROCS=1", "GOGC=off", "GODEBUG=asyncpreemptoff=1")
			if msg, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("valgrind %s: %v\n%s", bench.name, err, lastLine(string(msg)))
			}
			v, err := callgrindTotal(outFile)
			if err != nil {
				return err
			}
			ir[i] = v
		}
		fmt.Fprintf(w, "%-28s %8.0f instructions  (%s)\n", bench.name, (ir[1]-ir[0])/float64(ns[1]-ns[0]), bench.what)
	}
	return nil
}

// callgrindTotal reads the total instruction count (the "totals:" or
// "summary:" line) of a callgrind output file.
func callgrindTotal(path string) (float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		for _, p := range []string{"totals:", "summary:"} {
			if v, ok := strings.CutPrefix(line, p); ok {
				return strconv.ParseFloat(strings.Fields(v)[0], 64)
			}
		}
	}
	return 0, fmt.Errorf("%s: no totals line", path)
}
