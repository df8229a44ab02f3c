// Command wakebench is `make bench`'s account of what frcd costs a robot
// while it idles: CPU and wake-ups (voluntary context switches) per second
// of frcd run as a team runs it, by component, each against a bare Go loop
// at the same priority measured in the same round, at the normal priority
// and, where the machine grants it, at SCHED_FIFO 10 (frcd's default).
//
// What runs: the competition example at 100 Hz on the roboRIO backend,
// built natively (-tags roborio, cgo with the host's C compiler) on the
// fake 2026 WPILib HAL and the fake CTRE libraries (internal/fakehal,
// hal/ctre/testdata), neither with input nor log files, so the robot is
// disabled, as in the pits; and the same robot on the sim. Not under
// qemu-arm: its translation would be most of what is measured. frcd runs
// with the GODEBUG setting it gives itself (cmd/frcd/sysmon.go); -env
// GODEBUG=schedtrace=0 measures it without.
//
// Attribution is by differencing: each component is the run with it on
// less the run without, in the same round (the runs are interleaved, the
// medians of the rounds' differences printed). Wake-ups are counts the
// kernel keeps per thread (/proc/PID/task/*/status), so their differences
// are exact up to the runtime's own; CPU (the process's CPU clock) is
// noisier on a shared machine, hence the same-round ratios. Components:
//
//	loop         the roboRIO backend, --no-ros --nt off (and --status 1h:
//	             no status line in the measure): what a robot runs
//	status line  --status 1s
//	NT4          --nt 127.0.0.1:0, no client
//	WPILOG       --log DIR: the telemetry's sampling and the log's writes
//	ROS 1        --ros 1, its master embedded, no subscriber
//	ROS 2        --ros 2 on a domain of its own, no subscriber
//	sim          --sim less the roboRIO backend: the plant and emulated
//	             devices, which cost the sim, not a robot
//	WebSocket    on the sim, --wpilibws 127.0.0.1:0, no client
//
// It asserts nothing: the figures are the machine's.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

const (
	exampleURDF = "examples/competition/robot.urdf"
	exampleYAML = "examples/competition/robot.yaml"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "wakebench: %v\n", err)
		os.Exit(1)
	}
}

type options struct {
	warm, measure time.Duration
	reps          int
	rate          float64
	noROS         bool
	only          string
	keep          map[string]bool // the configs to run; nil: all
	env           []string        // added to frcd's environment
	work          string
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("wakebench", flag.ContinueOnError)
	var o options
	fs.DurationVar(&o.warm, "warm", 2*time.Second, "how long each process runs before it is measured")
	fs.DurationVar(&o.measure, "for", 4*time.Second, "how long each process is measured")
	fs.IntVar(&o.reps, "reps", 3, "rounds; the median is printed")
	fs.Float64Var(&o.rate, "rate", 100, "the loop's rate, Hz")
	fs.BoolVar(&o.noROS, "no-ros", false, "leave out ROS 1 and ROS 2")
	fs.StringVar(&o.only, "priority", "both", "normal, fifo or both")
	frcdBin := fs.String("frcd", "", "measure this frcd (built with -tags roborio) instead of building one")
	env := fs.String("env", "", "KEY=VALUE,... added to frcd's environment (GODEBUG, GOMAXPROCS)")
	keep := fs.String("only", "", "run only these configurations, comma-separated (loop,status,nt4,wpilog,ros1,ros2,sim,ws); the loop always")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *env != "" {
		o.env = strings.Split(*env, ",")
	}
	if *keep != "" {
		o.keep = map[string]bool{"loop": true}
		for _, k := range strings.Split(*keep, ",") {
			o.keep[k] = true
		}
	}
	work, err := os.MkdirTemp("", "wakebench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	o.work = work
	b, err := build(work, *frcdBin)
	if err != nil {
		return err
	}
	var prios []priority
	if o.only != "fifo" {
		prios = append(prios, priority{"normal", 0})
	}
	if o.only != "normal" {
		if exec.Command("chrt", "-f", "10", "true").Run() == nil {
			prios = append(prios, priority{"SCHED_FIFO 10", 10})
		} else {
			fmt.Fprintln(out, "SCHED_FIFO: not granted here (no CAP_SYS_NICE, RLIMIT_RTPRIO 0): normal priority only")
		}
	}
	res, err := measureAll(o, b, prios)
	if err != nil {
		return err
	}
	report(out, o, prios, res)
	return nil
}

type priority struct {
	name string
	prio int
}

// binaries are what is run, and the environment the roboRIO build needs.
type binaries struct {
	frcd, bare string
	halDir     string // the fake libwpiHal.so and CTRE libraries
}

func build(work, frcd string) (binaries, error) {
	b := binaries{frcd: frcd, bare: filepath.Join(work, "bareloop"), halDir: filepath.Join(work, "hal")}
	if err := os.Mkdir(b.halDir, 0o755); err != nil {
		return b, err
	}
	steps := [][]string{
		{"build", "-o", b.bare, "./internal/cpubench/bareloop"},
		{"run", "./internal/wakebench/fakes", b.halDir},
	}
	if frcd == "" {
		b.frcd = filepath.Join(work, "frcd")
		steps = append(steps, []string{"build", "-tags", "roborio", "-o", b.frcd, "./cmd/frcd"})
	}
	for _, c := range steps {
		cmd := exec.Command("go", c...)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
		if msg, err := cmd.CombinedOutput(); err != nil {
			return b, fmt.Errorf("go %v: %v\n%s(the roboRIO build needs the host's C compiler: make deps)", c, err, msg)
		}
	}
	return b, nil
}

// config is one way of running frcd.
type config struct {
	key  string // what results are kept under
	args []string
	env  []string
}

// configs are the runs of one round at priority p.
func configs(o options, b binaries, p priority) []config {
	rate := strconv.FormatFloat(o.rate, 'f', -1, 64)
	prio := strconv.Itoa(p.prio)
	rio := func(extra ...string) []string {
		a := []string{"run", "--hal", "roborio", "--rate", rate, "--rt-priority", prio, "--no-ros", "--nt", "off", "--status", "1h"}
		return append(replace(a, extra), exampleURDF, exampleYAML)
	}
	sim := func(extra ...string) []string {
		a := []string{"run", "--sim", "--rate", rate, "--rt-priority", prio, "--no-ros", "--nt", "off", "--wpilibws", "off", "--status", "1h"}
		return append(replace(a, extra), exampleURDF, exampleYAML)
	}
	cs := []config{
		{key: "loop", args: rio()},
		{key: "status", args: rio("--status", "1s")},
		{key: "nt4", args: rio("--nt", "127.0.0.1:0")},
		{key: "wpilog", args: rio("--log", filepath.Join(o.work, "log"))},
		{key: "sim", args: sim()},
		{key: "ws", args: sim("--wpilibws", "127.0.0.1:0")},
	}
	if !o.noROS {
		port, _ := freePort()
		cs = append(cs,
			config{key: "ros1", args: rio("--no-ros", "", "--ros", "1"),
				env: []string{fmt.Sprintf("ROS_MASTER_URI=http://127.0.0.1:%d/", port), "ROS_IP=127.0.0.1", "ROS_HOSTNAME=127.0.0.1", "ROS_LOG_DIR=" + o.work}},
			config{key: "ros2", args: rio("--no-ros", "", "--ros", "2"),
				env: []string{"ROS_DOMAIN_ID=" + strconv.Itoa(100+os.Getpid()%100), "ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST"}})
	}
	var out []config
	for _, c := range cs {
		if o.keep == nil || o.keep[c.key] {
			c.env = append(append(c.env, "LD_LIBRARY_PATH="+b.halDir), o.env...)
			out = append(out, c)
		}
	}
	return out
}

// replace sets flags in args: extra holds flag, value pairs; a flag
// already in args gets the value (an empty value removes a flag that
// takes none), a new one is appended.
func replace(args, extra []string) []string {
	out := append([]string(nil), args...)
	for i := 0; i+1 < len(extra); i += 2 {
		f, v := extra[i], extra[i+1]
		j := slices.Index(out, f)
		switch {
		case j < 0 && v != "":
			out = append(out, f, v)
		case j >= 0 && v == "": // a boolean flag removed
			out = slices.Delete(out, j, j+1)
		case j >= 0 && j+1 < len(out):
			out[j+1] = v
		}
	}
	return out
}
