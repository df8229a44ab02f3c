package main

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestROSSpec: the reference node's spec carries what the bridge
// publishes for the competition robot: its joints, one command topic per
// controller, the truth topics of the sim, and the state topics' period
// (the YAML's publish_rate at either loop rate).
func TestROSSpec(t *testing.T) {
	specs, err := rosSpec("../../"+exampleURDF, "../../"+exampleYAML, []float64{100, 1000})
	if err != nil {
		t.Fatal(err)
	}
	for rate, spec := range specs {
		lines := strings.Split(strings.TrimSpace(spec), "\n")
		if lines[0] != "every 0.02" { // the example's joint_state_controller: publish_rate: 50
			t.Errorf("%g Hz: first line %q; want every 0.02", rate, lines[0])
		}
		count := map[string]int{}
		for _, l := range lines[1:] {
			f := strings.Fields(l)
			if len(f) != 3 {
				t.Errorf("%g Hz: line %q: want kind, topic, size or type", rate, l)
				continue
			}
			count[f[0]]++
			if f[0] == "joint_states" && f[1] == "/joint_states" && f[2] != "16" {
				t.Errorf("%g Hz: /joint_states with %s joints; the example has 16", rate, f[2])
			}
		}
		// 15 controllers' command topics and the drive base's cmd_vel; its
		// odometry beside the sim's ground truth
		if count["command"] != 16 || count["joint_states"] != 2 || count["diagnostics"] != 1 || count["odometry"] != 2 ||
			!strings.Contains(spec, "\ncommand /drive/cmd_vel twist\n") || !strings.Contains(spec, "\nodometry /drive/odom 0\n") {
			t.Errorf("%g Hz: %v; want 16 command topics (/drive/cmd_vel a twist), /joint_states and the truth's, /diagnostics, /drive/odom, /sim/ground_truth\n%s", rate, count, spec)
		}
	}
}

// TestMeasureBareLoop: the harness measures a real child's CPU through
// the kernel's process CPU clock: the bare loop at 1 kHz costs something,
// less than a core.
func TestMeasureBareLoop(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "bareloop")
	if msg, err := exec.Command("go", "build", "-o", bin, "./bareloop").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	s, err := measure(options{warm: 50 * time.Millisecond, measure: 300 * time.Millisecond}, []string{bin, "--rate", "1000"}, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if !(s.cpuPerMin > 0 && s.cpuPerMin < 60) || math.IsNaN(s.cpuPerMin) {
		t.Errorf("the bare loop at 1 kHz costs %v CPU seconds a minute; want some, under a core's 60", s.cpuPerMin)
	}
	if _, err := measure(options{warm: 50 * time.Millisecond, measure: 50 * time.Millisecond}, []string{"true"}, nil, ""); err == nil {
		t.Error("a process that exited before it was measured gave no error")
	}
}

// TestCallgrindTotal reads the totals of a callgrind file.
func TestCallgrindTotal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "callgrind.out")
	if err := os.WriteFile(path, []byte("version: 1\nevents: Ir\nfn=main\n0 12\ntotals: 43210\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v, err := callgrindTotal(path); err != nil || v != 43210 {
		t.Errorf("got %v, %v; want 43210", v, err)
	}
	os.WriteFile(path, []byte("events: Ir\n"), 0o644)
	if _, err := callgrindTotal(path); err == nil {
		t.Error("a file without totals gave no error")
	}
}
