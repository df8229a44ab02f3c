package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestReplace: flags are set, replaced, removed and appended.
func TestReplace(t *testing.T) {
	args := []string{"run", "--no-ros", "--nt", "off", "--status", "1h"}
	got := replace(args, []string{"--nt", "127.0.0.1:0", "--no-ros", "", "--ros", "2"})
	want := []string{"run", "--nt", "127.0.0.1:0", "--status", "1h", "--ros", "2"}
	if !slices.Equal(got, want) {
		t.Errorf("replace = %q; want %q", got, want)
	}
	if args[2] != "--nt" || args[3] != "off" {
		t.Errorf("replace changed its argument: %q", args)
	}
}

// TestConfigs: every configuration runs the example at the priority and
// rate asked, on the roboRIO backend with the fakes on its library path
// or on the sim; only the components asked for run, the loop always.
func TestConfigs(t *testing.T) {
	o := options{rate: 100, work: t.TempDir()}
	b := binaries{halDir: "/x/hal"}
	cs := configs(o, b, priority{"SCHED_FIFO 10", 10})
	keys := map[string][]string{}
	for _, c := range cs {
		keys[c.key] = c.args
		a := strings.Join(c.args, " ")
		if !strings.Contains(a, "--rt-priority 10") || !strings.Contains(a, "--rate 100") || !strings.HasSuffix(a, exampleURDF+" "+exampleYAML) {
			t.Errorf("%s: %s", c.key, a)
		}
		if !slices.Contains(c.env, "LD_LIBRARY_PATH=/x/hal") {
			t.Errorf("%s: env %q without the fakes' directory", c.key, c.env)
		}
	}
	for _, k := range []string{"loop", "status", "nt4", "wpilog", "ros1", "ros2", "sim", "ws"} {
		if keys[k] == nil {
			t.Errorf("no %s configuration", k)
		}
	}
	if a := strings.Join(keys["loop"], " "); !strings.Contains(a, "--hal roborio") || !strings.Contains(a, "--no-ros --nt off --status 1h") {
		t.Errorf("loop: %s", a)
	}
	if a := strings.Join(keys["ros2"], " "); strings.Contains(a, "--no-ros") || !strings.Contains(a, "--ros 2") {
		t.Errorf("ros2: %s", a)
	}
	if a := strings.Join(keys["ws"], " "); !strings.Contains(a, "--sim") || !strings.Contains(a, "--wpilibws 127.0.0.1:0") {
		t.Errorf("ws: %s", a)
	}
	o.keep = map[string]bool{"loop": true, "nt4": true}
	if cs := configs(o, b, priority{"normal", 0}); len(cs) != 2 || cs[0].key != "loop" || cs[1].key != "nt4" {
		t.Errorf("only loop,nt4: %v", cs)
	}
}

// TestReport: a component's figures are the medians of the rounds'
// differences and ratios, each round paired with its own run without it,
// and the loop's ratio is to the bare loop of the same round.
func TestReport(t *testing.T) {
	s := func(cpu, wakes float64) sample { return sample{cpu: cpu, wakes: wakes} }
	res := results{"normal": {
		"bare":   {s(0.010, 400), s(0.020, 400), s(0.010, 400)},
		"loop":   {s(0.012, 300), s(0.030, 310), s(0.013, 290)},
		"nt4":    {s(0.012, 300), s(0.033, 330), s(0.0143, 300)},
		"status": {{cpu: 0.012, wakes: 305, jitter: 200 * time.Microsecond, hasJit: true, overruns: 2}},
	}}
	var out bytes.Buffer
	report(&out, options{rate: 100, reps: 3, measure: time.Second, warm: time.Second}, []priority{{"normal", 0}}, res)
	text := out.String()
	for _, want := range []string{
		// ratios 1.2, 1.5, 1.3: median 1.3; wakes median 300
		"loop: roboRIO backend, fake HAL          300         -    13.000      1.30    <= 1.5  (x bare loop; rounds 1.20-1.50)",
		// differences 0, +20, +10 wakes; 0, 3, 1.3 ms; ratios 1, 1.1, 1.1
		"NT4, no client                           +10              +1.300      1.10   <= 1.05",
		"normal              12.000      1.20       305        200µs         2",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}

// TestReportWithoutStatus: with -only leaving the status line out, the
// priority's cost says it was not measured rather than printing NaN and
// a garbage jitter.
func TestReportWithoutStatus(t *testing.T) {
	s := func(cpu, wakes float64) sample { return sample{cpu: cpu, wakes: wakes} }
	res := results{"normal": {
		"bare": {s(0.010, 400)},
		"loop": {s(0.012, 300)},
	}}
	var out bytes.Buffer
	report(&out, options{rate: 100, reps: 1, measure: time.Second, warm: time.Second}, []priority{{"normal", 0}}, res)
	text := out.String()
	if !strings.Contains(text, "normal           not measured (-only without status)") {
		t.Errorf("report does not say the priority's cost was not measured:\n%s", text)
	}
	if strings.Contains(text, "NaN") {
		t.Errorf("report prints NaN:\n%s", text)
	}
}
