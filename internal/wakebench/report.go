package main

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/frcd/frcd/internal/proccpu"
)

// component is a report row: the runs with it (key) less those without
// (base), same round.
type component struct {
	name, key, base, target string
	limit                   float64 // the ratio's target; 0: none
}

var components = []component{
	{name: "status line (--status 1s)", key: "status", base: "loop"},
	{name: "NT4, no client", key: "nt4", base: "loop", target: "<= 1.05", limit: 1.05},
	{name: "WPILOG (--log; telemetry)", key: "wpilog", base: "loop"},
	{name: "ROS 1, embedded master", key: "ros1", base: "loop"},
	{name: "ROS 2, no subscriber", key: "ros2", base: "loop"},
	{name: "sim: plant, emulated devices", key: "sim", base: "loop"},
	{name: "WebSocket, no client (sim)", key: "ws", base: "sim"},
}

// med is the median of f over the samples.
func med(ss []sample, f func(sample) float64) float64 {
	xs := make([]float64, len(ss))
	for i, s := range ss {
		xs[i] = f(s)
	}
	return proccpu.Median(xs)
}

// paired is the median over rounds of f(with, without).
func paired(with, without []sample, f func(a, b sample) float64) float64 {
	var xs []float64
	for i := range with {
		if i < len(without) {
			xs = append(xs, f(with[i], without[i]))
		}
	}
	return proccpu.Median(xs)
}

// spread is the least and the greatest of the rounds' CPU ratios of
// with to without: at SCHED_FIFO they fall in two modes (docs/architecture.md).
func spread(with, without []sample) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := range with {
		if i < len(without) {
			r := with[i].cpu / without[i].cpu
			lo, hi = min(lo, r), max(hi, r)
		}
	}
	return lo, hi
}

func cpuOf(s sample) float64   { return s.cpu }
func wakesOf(s sample) float64 { return s.wakes }
func fifoOf(s sample) float64  { return s.fifo }

func report(w io.Writer, o options, prios []priority, res results) {
	fmt.Fprintf(w, "\nwake-ups and CPU per second at %g Hz, by component: the median of %d rounds of %v (after %v), runs interleaved;\n", o.rate, o.reps, o.measure, o.warm)
	fmt.Fprintln(w, "wake-ups are voluntary context switches of all the process's threads; ratios are to a run of the same round")
	for _, p := range prios {
		r := res[p.name]
		fmt.Fprintf(w, "\n%s\n", p.name)
		fmt.Fprintf(w, "  %-34s %9s %9s %9s %9s %9s\n", "", "wakes/s", "FIFO thr", "CPU ms/s", "ratio", "target")
		fifoCol := func(ss []sample) string {
			if p.prio == 0 {
				return "-"
			}
			return fmt.Sprintf("%.0f", med(ss, fifoOf))
		}
		bare, loop := r["bare"], r["loop"]
		fmt.Fprintf(w, "  %-34s %9.0f %9s %9.3f %9s\n", "bare Go loop (reference)", med(bare, wakesOf), fifoCol(bare), 1000*med(bare, cpuOf), "1")
		lo, hi := spread(loop, bare)
		fmt.Fprintf(w, "  %-34s %9.0f %9s %9.3f %9.2f %9s  (x bare loop; rounds %.2f-%.2f)\n", "loop: roboRIO backend, fake HAL", med(loop, wakesOf), fifoCol(loop), 1000*med(loop, cpuOf),
			paired(loop, bare, func(a, b sample) float64 { return a.cpu / b.cpu }), "<= 1.5", lo, hi)
		fmt.Fprintf(w, "  each component: with it less without, same round; ratio: with / without\n")
		for _, c := range components {
			with, without := r[c.key], r[c.base]
			if len(with) == 0 {
				continue
			}
			fmt.Fprintf(w, "  %-34s %+9.0f %9s %+9.3f %9.2f %9s\n", c.name,
				paired(with, without, func(a, b sample) float64 { return a.wakes - b.wakes }), "",
				1000*paired(with, without, func(a, b sample) float64 { return a.cpu - b.cpu }),
				paired(with, without, func(a, b sample) float64 { return a.cpu / b.cpu }), c.target)
		}
	}
	// The priority's cost: the loop with its status line (whose p99 is the
	// jitter's measure), at each priority, side by side.
	fmt.Fprintf(w, "\nthe priority's cost: the loop (with its status line, whose p99 over the run is the jitter) at each priority\n")
	fmt.Fprintf(w, "  %-16s %9s %9s %9s %12s %9s\n", "priority", "CPU ms/s", "x bare", "wakes/s", "jitter p99", "overruns")
	for _, p := range prios {
		r := res[p.name]
		st := r["status"]
		if len(st) == 0 {
			fmt.Fprintf(w, "  %-16s not measured (-only without status)\n", p.name)
			continue
		}
		var jit []float64
		over := 0
		for _, s := range st {
			if s.hasJit {
				jit = append(jit, float64(s.jitter))
			}
			over = max(over, s.overruns)
		}
		fmt.Fprintf(w, "  %-16s %9.3f %9.2f %9.0f %12v %9d\n", p.name, 1000*med(st, cpuOf),
			paired(st, r["bare"], func(a, b sample) float64 { return a.cpu / b.cpu }), med(st, wakesOf),
			time.Duration(proccpu.Median(jit)).Round(time.Microsecond), over)
	}
}
