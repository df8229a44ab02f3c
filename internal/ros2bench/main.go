// Command ros2bench is `make bench`'s measure of frcd's ROS 2 publishing
// against Cyclone DDS, side by side, for the same wall-clock time, at
// 100 Hz and at 1 kHz (the loop at that rate, and the example's
// joint_state_controller publish_rate set to it):
//
//   - like for like: frcd's daemon on the competition example's sim
//     publishing /joint_states alone (ros2bench -serve, serve.go: a ROS 2
//     node whose bridge has JointStatesOnly), against pub, a Cyclone DDS
//     0.10.2 C publisher of the same sensor_msgs/JointState (as many
//     joints as frcd publishes) at the same rate; and the same daemon
//     without ROS, whose difference is the publishing's share;
//   - the full graph: `frcd run --sim --ros 2` (every state topic, /tf,
//     /dynamic_joint_states, the sim's) and `frcd run --sim --ros none`.
//
// Each publisher of /joint_states publishes to sub, a Cyclone C subscriber
// that records each sample's latency (its receive time less the header's
// stamp, one host clock). It prints each run's CPU seconds per minute
// (user + sys, the kernel's process CPU clock, read after a warm-up and at
// the end of the measure), the ratios to Cyclone's pub, and the latency
// p50/p99/max to the subscriber.
//
// As internal/cpubench does, it runs --reps repeats interleaved, each
// rep's figures a row, and summarises each rate by ratios taken within a
// rep (against the reference measured next to it, under the same load):
// their median and range over the reps.
//
// All on loopback, on a domain id of this process, peers found by unicast
// (ddstest.CycloneURI). It asserts nothing: the figures are the machine's.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/proccpu"
)

const (
	exampleURDF = "examples/competition/robot.urdf"
	exampleYAML = "examples/competition/robot.yaml"
	idlFile     = "cmd/frcd/testdata/ros2/JointState.idl"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == serveFlag {
		if err := serve(os.Args[2:], os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "ros2bench %s: %v\n", serveFlag, err)
			os.Exit(1)
		}
		return
	}
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "ros2bench: %v\n", err)
		os.Exit(1)
	}
}

type options struct {
	warm, measure time.Duration
	reps          int
	rates         []float64
	root, work    string
	domain        int
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("ros2bench", flag.ContinueOnError)
	var o options
	fs.DurationVar(&o.warm, "warm", 2*time.Second, "how long each publisher runs before it is measured (discovery, start-up)")
	fs.DurationVar(&o.measure, "for", 5*time.Second, "how long each publisher is measured")
	rates := fs.String("rates", "100,1000", "publish rates in Hz, comma separated")
	fs.IntVar(&o.reps, "reps", 3, "repeats of each rate, interleaved; the median and range of the ratios are printed")
	fs.StringVar(&o.root, "root", ".", "the repository's root (the example robot, the IDL)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.warm <= 0 || o.measure <= 0 || o.warm+o.measure > 10*time.Minute {
		return errors.New("--warm and --for: positive, at most 10 minutes in all")
	}
	if o.reps < 1 || o.reps > 20 {
		return errors.New("--reps: 1 to 20")
	}
	for _, f := range strings.Split(*rates, ",") {
		r, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || r <= 0 || r > 10000 {
			return fmt.Errorf("--rates: %q: want a rate in (0, 10000] Hz", f)
		}
		o.rates = append(o.rates, r)
	}
	o.domain = 10 + os.Getpid()%90
	work, err := os.MkdirTemp("", "ros2bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	o.work = work
	if err := build(o); err != nil {
		return err
	}
	fmt.Fprintf(out, "ROS 2 /joint_states, frcd against a Cyclone DDS C publisher (domain %d, loopback; %d interleaved reps, each run %s measured after %s):\n",
		o.domain, o.reps, o.measure, o.warm)
	fmt.Fprintf(out, "%4s %8s %-12s %12s %12s %9s %9s %9s %9s\n", "rep", "rate", "publisher", "CPU s/min", "samples", "joints", "p50 µs", "p99 µs", "max µs")
	all := map[float64][]rateResult{}
	for rep := 1; rep <= o.reps; rep++ {
		for _, rate := range o.rates {
			res, err := measureRate(o, rate)
			if err != nil {
				return fmt.Errorf("%g Hz: %w", rate, err)
			}
			all[rate] = append(all[rate], res)
			for _, r := range res.runs {
				if r.lat.Samples == 0 { // no subscriber: CPU only
					fmt.Fprintf(out, "%4d %8g %-12s %12.3f %12s %9s %9s %9s %9s\n", rep, rate, r.name, r.cpuPerMin, "-", "-", "-", "-", "-")
					continue
				}
				fmt.Fprintf(out, "%4d %8g %-12s %12.3f %12d %9d %9.1f %9.1f %9.1f\n", rep, rate, r.name, r.cpuPerMin, r.lat.Samples, r.lat.Joints, r.lat.P50, r.lat.P99, r.lat.Max)
			}
		}
	}
	summary(out, o, all)
	return nil
}

// summary prints, per rate, each ratio's median and range over the reps,
// and the latencies' medians.
func summary(out io.Writer, o options, all map[float64][]rateResult) {
	fmt.Fprintf(out, "\nratios within each rep, the median [min, max] of %d:\n", o.reps)
	fmt.Fprintf(out, "%8s %-40s %9s %9s %9s\n", "rate", "ratio", "median", "min", "max")
	for _, rate := range o.rates {
		rs := all[rate]
		row := func(what string, f func(r rateResult) float64) {
			xs := make([]float64, len(rs))
			for i, r := range rs {
				xs[i] = f(r)
			}
			fmt.Fprintf(out, "%8g %-40s %9.2f %9.2f %9.2f\n", rate, what, proccpu.Median(xs), slices.Min(xs), slices.Max(xs))
		}
		row("CPU frcd js only / Cyclone C", func(r rateResult) float64 { return r.over(0) })
		row("ROS 2 share js only (- no ROS) / Cyclone C", func(r rateResult) float64 { return r.share(0, 2) })
		row("CPU frcd graph / Cyclone C", func(r rateResult) float64 { return r.over(3) })
		row("ROS 2 share graph (- no ROS) / Cyclone C", func(r rateResult) float64 { return r.share(3, 4) })
		row("latency p50 frcd js only / Cyclone C", func(r rateResult) float64 { return r.runs[0].lat.P50 / r.runs[1].lat.P50 })
		row("latency p99 frcd js only / Cyclone C", func(r rateResult) float64 { return r.runs[0].lat.P99 / r.runs[1].lat.P99 })
		row("latency max frcd js only / Cyclone C", func(r rateResult) float64 { return r.runs[0].lat.Max / r.runs[1].lat.Max })
		for i, name := range []string{runJS, runCyclone} {
			lat := func(f func(latency) float64) float64 {
				xs := make([]float64, len(rs))
				for k, r := range rs {
					xs[k] = f(r.runs[i].lat)
				}
				return proccpu.Median(xs)
			}
			fmt.Fprintf(out, "%8g latency to the subscriber, %-10s median p50 / p99 / max: %.1f / %.1f / %.1f µs\n", rate, name,
				lat(func(l latency) float64 { return l.P50 }), lat(func(l latency) float64 { return l.P99 }), lat(func(l latency) float64 { return l.Max }))
		}
	}
}

// median is the middle of xs (the mean of the two middle ones when even).
// build puts frcd, pub and sub in o.work.
func build(o options) error {
	for _, c := range [][2]string{{"frcd", "./cmd/frcd"}, {"ros2bench", "./internal/ros2bench"}} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(o.work, c[0]), c[1])
		cmd.Dir = o.root
		if msg, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", c[1], err, msg)
		}
	}
	idl, err := filepath.Abs(filepath.Join(o.root, idlFile))
	if err != nil {
		return err
	}
	cmds := [][]string{{"idlc", idl}}
	for _, p := range []string{"pub", "sub"} {
		src, err := filepath.Abs(filepath.Join(o.root, "internal/ros2bench/cyclone", p+".c"))
		if err != nil {
			return err
		}
		cmds = append(cmds, []string{"sh", "-c", "gcc -O2 -Wall -o " + p + " " + src + " JointState.c -I. $(pkg-config --cflags --libs CycloneDDS)"})
	}
	for _, c := range cmds {
		cmd := exec.Command(c[0], c[1:]...)
		cmd.Dir = o.work
		if msg, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v\n%s (make deps-bench installs cyclonedds-dev and cyclonedds-tools)", strings.Join(c, " "), err, msg)
		}
	}
	return nil
}

// latency is sub's report.
type latency struct {
	Samples int     `json:"samples"`
	Joints  int     `json:"joints"`
	P50     float64 `json:"p50_us"`
	P99     float64 `json:"p99_us"`
	Max     float64 `json:"max_us"`
}

type measured struct {
	name      string
	cpuPerMin float64
	lat       latency
}

// The runs at each rate, in rateResult.runs' order: frcd's daemon
// publishing /joint_states alone (ros2bench -serve), Cyclone's pub, the
// same daemon without ROS, then frcd run --sim --ros 2 (the full graph)
// and frcd run --sim --ros none.
const (
	runJS      = "frcd js only"
	runCyclone = "Cyclone C"
	runJSNone  = "js no ROS"
	runGraph   = "frcd graph"
	runNone    = "frcd no ROS"
)

// rateResult is the runs at one rate.
type rateResult struct{ runs []measured }

// over is run i's CPU over Cyclone's pub's.
func (r rateResult) over(i int) float64 { return r.runs[i].cpuPerMin / r.runs[1].cpuPerMin }

// share is run i's CPU less that of the same process without ROS (j),
// over Cyclone's pub's: the ROS 2 share.
func (r rateResult) share(i, j int) float64 {
	return (r.runs[i].cpuPerMin - r.runs[j].cpuPerMin) / r.runs[1].cpuPerMin
}

var everyRE = regexp.MustCompile(`publishing /joint_states (?:alone )?every (\S+)`)

func measureRate(o options, rate float64) (rateResult, error) {
	yaml, err := robotYAML(o, rate)
	if err != nil {
		return rateResult{}, err
	}
	urdf, err := filepath.Abs(filepath.Join(o.root, exampleURDF))
	if err != nil {
		return rateResult{}, err
	}
	hz := strconv.FormatFloat(rate, 'f', -1, 64)
	frcd := func(ros string) []string {
		return []string{filepath.Join(o.work, "frcd"), "run", "--sim", "--ros", ros, "--rate", hz, "--status", "1h",
			"--rt-priority", "0", "--wpilibws", "off", "--nt", "off", urdf, yaml}
	}
	serve := func(ros string) []string {
		return []string{filepath.Join(o.work, "ros2bench"), serveFlag, "--rate", hz, "--ros", ros, urdf, yaml}
	}
	var res rateResult
	js, err := measureOne(o, runJS, serve("js"), true)
	if err != nil {
		return res, err
	}
	if js.lat.Samples == 0 || js.lat.Joints == 0 {
		return res, fmt.Errorf("the Cyclone subscriber got no joint state from frcd: %+v", js.lat)
	}
	c, err := measureOne(o, runCyclone, []string{filepath.Join(o.work, "pub"), hz, strconv.FormatFloat((o.warm + o.measure + 5*time.Second).Seconds(), 'f', -1, 64), strconv.Itoa(js.lat.Joints)}, true)
	if err != nil {
		return res, err
	}
	jsNone, err := measureOne(o, runJSNone, serve("none"), false)
	if err != nil {
		return res, err
	}
	graph, err := measureOne(o, runGraph, frcd("2"), true)
	if err != nil {
		return res, err
	}
	none, err := measureOne(o, runNone, frcd("none"), false)
	if err != nil {
		return res, err
	}
	res.runs = []measured{js, c, jsNone, graph, none}
	return res, nil
}

// robotYAML writes the example's YAML with its joint_state_controller's
// publish_rate set to rate, and returns its path.
func robotYAML(o options, rate float64) (string, error) {
	b, err := os.ReadFile(filepath.Join(o.root, exampleYAML))
	if err != nil {
		return "", err
	}
	const key = "publish_rate: 50"
	if bytes.Count(b, []byte(key)) != 1 {
		return "", fmt.Errorf("%s: want one %q (the joint_state_controller's) to replace", exampleYAML, key)
	}
	b = bytes.Replace(b, []byte(key), []byte("publish_rate: "+strconv.FormatFloat(rate, 'f', -1, 64)), 1)
	p := filepath.Join(o.work, fmt.Sprintf("robot-%g.yaml", rate))
	return p, os.WriteFile(p, b, 0o644)
}

// measureOne runs the publisher cmd, with sub listening when listen, for
// o.warm + o.measure, and returns its CPU per minute over the measure and
// what sub saw.
func measureOne(o options, name string, cmd []string, listen bool) (measured, error) {
	m := measured{name: name}
	env := append(ddstest.Env(o.domain).Vars, "ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST", "ROS_LOG_DIR="+o.work)
	var sub *exec.Cmd
	var subOut bytes.Buffer
	var subErr strings.Builder
	var subDone chan error
	if listen {
		sub = exec.Command(filepath.Join(o.work, "sub"), strconv.FormatFloat(o.warm.Seconds(), 'f', -1, 64), strconv.FormatFloat(o.measure.Seconds(), 'f', -1, 64))
		sub.Env, sub.Stdout, sub.Stderr = env, &subOut, &subErr
		if err := sub.Start(); err != nil {
			return m, err
		}
		subDone = make(chan error, 1)
		go func() { subDone <- sub.Wait() }()
		defer func() {
			_ = sub.Process.Kill() // an error once it has exited
			<-subDone
		}()
	}
	c := exec.Command(cmd[0], cmd[1:]...)
	c.Env = env
	stdout, err := c.StdoutPipe()
	if err != nil {
		return m, err
	}
	var stderr strings.Builder
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		return m, err
	}
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			_ = c.Process.Signal(syscall.SIGTERM)
			_ = c.Wait()
		}
	}
	defer stop()
	lines := make(chan string, 256)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
		close(lines)
	}()
	perMin, err := proccpu.PerMinute(c.Process.Pid, o.warm, o.measure) // the publisher runs meanwhile
	if err != nil {
		stop()
		return m, fmt.Errorf("%s: %v: %s", name, err, stderr.String())
	}
	m.cpuPerMin = perMin
	if listen {
		select {
		case err = <-subDone:
			subDone <- err // for the deferred receive
		case <-time.After(o.warm + 10*time.Second):
			err = errors.New("sub did not finish")
		}
		if err != nil {
			return m, fmt.Errorf("%s: the subscriber: %v: %s", name, err, subErr.String())
		}
		if err := json.Unmarshal(bytes.TrimSpace(subOut.Bytes()), &m.lat); err != nil {
			return m, fmt.Errorf("%s: the subscriber's report %q: %v", name, subOut.String(), err)
		}
	}
	stop()
	if strings.HasPrefix(name, "frcd") && listen {
		every := ""
		for l := range lines {
			if s := everyRE.FindStringSubmatch(l); s != nil {
				every = s[1]
			}
		}
		if want := time.Duration(float64(time.Second) / rateOf(cmd)); every != want.String() {
			return m, fmt.Errorf("%s published /joint_states every %q, want %s", name, every, want)
		}
	}
	return m, nil
}

// rateOf is the --rate of frcd's arguments.
func rateOf(cmd []string) float64 {
	for i, a := range cmd {
		if a == "--rate" && i+1 < len(cmd) {
			r, _ := strconv.ParseFloat(cmd[i+1], 64)
			return r
		}
	}
	return 0
}
