package main

import (
	"bufio"
	"strconv"
	"strings"
	"testing"

	"github.com/frcd/frcd/internal/tooltest"
)

// TestHarness: the bench builds frcd, itself and the Cyclone C peers,
// runs each publisher at 1 kHz with the subscriber (frcd's daemon with
// /joint_states alone, Cyclone's pub, frcd run's full graph; and both
// frcd processes without ROS), twice interleaved, and reports sane
// figures: a row per run and rep, every run's CPU positive, the
// subscriber got samples of the example's 16 joints from each publisher,
// the latency percentiles ordered; and a
// summary of each ratio, positive (but the ROS 2 share's, a difference),
// its median within its range. It asserts no time: the figures are the
// machine's.
func TestHarness(t *testing.T) {
	if testing.Short() {
		t.Skip("builds frcd and runs it for a few seconds: skipped with -short")
	}
	tooltest.Require(t, tooltest.Tool{Name: "idlc", Package: "cyclonedds-tools"}, tooltest.Tool{Name: "gcc", Package: "gcc"}, tooltest.Tool{Name: "pkg-config", Package: "pkgconf"})
	tooltest.RequireFile(t, "/usr/include/dds/dds.h", "the Debian package cyclonedds-dev")
	var out strings.Builder
	if err := run([]string{"--root", "../..", "--warm", "1s", "--for", "1s", "--rates", "1000", "--reps", "2"}, &out); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", out.String())
	rows := map[string][]string{}
	ratios := map[string][3]float64{}
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 9 && (f[0] == "1" || f[0] == "2") && f[1] == "1000" {
			rows[f[0]+" "+strings.Join(f[2:len(f)-6], " ")] = f[len(f)-6:]
		}
		if len(f) >= 5 && f[0] == "1000" && strings.Contains(sc.Text(), " / ") && !strings.Contains(sc.Text(), "µs") {
			var v [3]float64
			for i := range v {
				v[i], _ = strconv.ParseFloat(f[len(f)-3+i], 64)
			}
			ratios[strings.Join(f[1:len(f)-3], " ")] = v
		}
	}
	var want []string
	for _, rep := range []string{"1 ", "2 "} {
		for _, run := range []string{runJS, runCyclone, runJSNone, runGraph, runNone} {
			want = append(want, rep+run)
		}
	}
	for _, row := range want {
		r, ok := rows[row]
		if !ok {
			t.Fatalf("no row %q in\n%s", row, out.String())
		}
		name := row[2:]
		if cpu, err := strconv.ParseFloat(r[0], 64); err != nil || cpu <= 0 {
			t.Errorf("%s: CPU %q, want positive", name, r[0])
		}
		if name == runNone || name == runJSNone {
			continue
		}
		n, _ := strconv.Atoi(r[1])
		joints, _ := strconv.Atoi(r[2])
		var p [3]float64
		for i := range p {
			p[i], _ = strconv.ParseFloat(r[3+i], 64)
		}
		if n <= 0 || joints != 16 || p[0] <= 0 || p[0] > p[1] || p[1] > p[2] {
			t.Errorf("%s: %d samples of %d joints, latency p50/p99/max %v µs; want samples of 16, 0 < p50 <= p99 <= max", name, n, joints, p)
		}
	}
	for _, what := range []string{"CPU frcd js only / Cyclone C", "ROS 2 share js only (- no ROS) / Cyclone C", "CPU frcd graph / Cyclone C",
		"ROS 2 share graph (- no ROS) / Cyclone C", "latency p50 frcd js only / Cyclone C", "latency p99 frcd js only / Cyclone C",
		"latency max frcd js only / Cyclone C"} {
		v, ok := ratios[what]
		if !ok {
			t.Errorf("no ratio %q", what)
			continue
		}
		if v[1] > v[0] || v[0] > v[2] || !strings.Contains(what, "share") && v[1] <= 0 {
			t.Errorf("%s: median %v, range [%v, %v]", what, v[0], v[1], v[2])
		}
	}
}

// TestBadFlags: a rate or duration out of range is refused before anything
// is built or run.
func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--rates", "0"}, {"--rates", "100,x"}, {"--reps", "0"}, {"--reps", "21"}, {"--rates", "20000"}, {"--warm", "0s"}, {"--for", "-1s"}, {"--for", "11m"}, {"--bogus"},
	} {
		var out strings.Builder
		if err := run(append([]string{"--root", "/nonexistent"}, args...), &out); err == nil || out.Len() != 0 {
			t.Errorf("%v: err %v, output %q; want an error and no output", args, err, out.String())
		}
	}
}
