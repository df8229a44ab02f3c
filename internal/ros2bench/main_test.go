package main

import (
	"bufio"
	"strconv"
	"strings"
	"testing"

	"github.com/frcd/frcd/internal/tooltest"
)

// TestHarness: the bench builds frcd and the Cyclone C peers, runs each
// publisher at 1 kHz with the subscriber, and reports sane figures: every
// publisher's CPU positive, the subscriber got samples of the example's
// 16 joints from both frcd and Cyclone's pub, the latency percentiles
// ordered. It asserts no time: the figures are the machine's.
func TestHarness(t *testing.T) {
	if testing.Short() {
		t.Skip("builds frcd and runs it for a few seconds")
	}
	tooltest.Require(t, tooltest.Tool{Name: "idlc", Package: "cyclonedds-tools"}, tooltest.Tool{Name: "gcc", Package: "gcc"}, tooltest.Tool{Name: "pkg-config", Package: "pkgconf"})
	tooltest.RequireFile(t, "/usr/include/dds/dds.h", "the Debian package cyclonedds-dev")
	var out strings.Builder
	if err := run([]string{"--root", "../..", "--warm", "1s", "--for", "1s", "--rates", "1000"}, &out); err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 8 || f[0] != "1000" {
			continue
		}
		name := strings.Join(f[1:len(f)-6], " ")
		rows[name] = f[len(f)-6:]
	}
	for _, name := range []string{"frcd", "Cyclone C", "frcd no ROS"} {
		r, ok := rows[name]
		if !ok {
			t.Fatalf("no row %q in\n%s", name, out.String())
		}
		if cpu, err := strconv.ParseFloat(r[0], 64); err != nil || cpu <= 0 {
			t.Errorf("%s: CPU %q, want positive", name, r[0])
		}
		if name == "frcd no ROS" {
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
	if !strings.Contains(out.String(), "frcd/Cyclone CPU") {
		t.Errorf("no ratio in\n%s", out.String())
	}
}

// TestBadFlags: a rate or duration out of range is refused before anything
// is built or run.
func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--rates", "0"}, {"--rates", "100,x"}, {"--rates", "20000"}, {"--warm", "0s"}, {"--for", "-1s"}, {"--for", "11m"}, {"--bogus"},
	} {
		var out strings.Builder
		if err := run(append([]string{"--root", "/nonexistent"}, args...), &out); err == nil || out.Len() != 0 {
			t.Errorf("%v: err %v, output %q; want an error and no output", args, err, out.String())
		}
	}
}
