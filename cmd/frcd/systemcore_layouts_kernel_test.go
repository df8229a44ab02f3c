package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/internal/fakehal"
	"github.com/frcd/frcd/internal/qemutest"
	"github.com/frcd/frcd/internal/tooltest"
)

// TestSystemcoreHALLayoutsOnKernel runs the frcd binary as make systemcore
// builds it (cgo, the systemcore tag, for the VM's amd64), `frcd run --hal
// systemcore` on examples/systemcore_io, on a real Linux kernel under qemu
// with vcan interfaces named as Systemcore's buses, three times: on the
// fake 2027 HAL built as allwpilib main at caf0fb2dcc declares it, as the
// release tag v2027.0.0-alpha-6 does, and as main between #8858 and #9238
// (a layout frcd does not call). internal/scagent (-layouts) gives each
// the same Driver Station: elimination match 7, replay 1, of a 63-character
// event (the longest both layouts hold, so a match read at the other
// layout's offsets comes out wrong). On main's and alpha-6's HAL frcd
// publishes that match on NT4 (WPILib 2027's /DriverStation table) and
// exits 0 on SIGTERM; on the other it exits non-zero at start with one
// line refusing the HAL, naming what it found and what frcd calls.
func TestSystemcoreHALLayoutsOnKernel(t *testing.T) {
	tooltest.Require(t, tooltest.CC)
	layouts := []string{"main", "alpha-6", "between"}
	var script strings.Builder
	script.WriteString("ip link set lo up\n")
	for i := range 5 {
		n := "can_s" + string(rune('0'+i))
		script.WriteString("ip link add dev " + n + " type vcan\nip link set " + n + " mtu 16\nip link set " + n + " up\n")
	}
	script.WriteString("/bin/scagent -layouts " + strings.Join(layouts, ","))
	r, accel := runCANVM(t, func(a *qemutest.Initramfs) {
		if err := a.HostFile("/robot/robot.urdf", "../../examples/systemcore_io/robot.urdf"); err != nil {
			t.Fatal(err)
		}
		if err := a.HostFile("/robot/robot.yaml", "../../examples/systemcore_io/robot.yaml"); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := a.GoBinary("/bin/scagent", "../../internal/scagent", dir, false); err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(dir, "frcd-hal")
		build := exec.Command("go", "build", "-trimpath", "-tags", "systemcore,netgo,osusergo", "-o", bin, ".")
		build.Env = append(os.Environ(), "CGO_ENABLED=1")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build -tags systemcore: %v\n%s", err, out)
		}
		if err := a.Executable("/bin/frcd", bin); err != nil {
			t.Fatal(err)
		}
		for _, l := range layouts {
			lib, err := fakehal.BuildLayout(t.TempDir(), "cc", "2027", l)
			if err != nil {
				t.Fatal(err)
			}
			if err := a.HostFile("/robot/lib-"+l+"/"+fakehal.Library, lib); err != nil {
				t.Fatal(err)
			}
		}
	}, script.String())
	for _, e := range r.of("fail") {
		t.Errorf("agent: %s", e.Line)
	}
	r.mark(t, "done")
	event := strings.Repeat("e", 59) + "2027" // internal/scagent's MatchEvent
	exits := map[string]int{}
	for _, e := range r.of("exit") {
		exits[e.Name] = e.Code
	}
	matches := map[string]agentEvent{}
	for _, e := range r.of("match") {
		matches[e.Name] = e
	}
	for _, l := range layouts[:2] {
		m, ok := matches[l]
		if !ok {
			t.Errorf("%s: frcd published no match", l)
			continue
		}
		t.Logf("%s HAL on %s: /DriverStation/EventName %d characters, MatchType %v, MatchNumber %v, ReplayNumber %v; exit %d",
			l, accel, len(m.Line), m.Vals[0], m.Vals[1], m.Vals[2], exits[l])
		if m.Line != event || len(m.Vals) != 3 || m.Vals[0] != float64(hal.MatchElimination) || m.Vals[1] != 7 || m.Vals[2] != 1 {
			t.Errorf("%s: match %q %v, want %q, type %d, number 7, replay 1", l, m.Line, m.Vals, event, hal.MatchElimination)
		}
		if code, ok := exits[l]; !ok || code != 0 {
			t.Errorf("%s: frcd exited %d (reported: %v) after SIGTERM, want 0", l, code, ok)
		}
	}
	// The refused HAL: its run's log lines, between its mark and the end.
	if _, ok := matches["between"]; ok {
		t.Error("between: frcd ran on a HAL of a layout it does not call")
	}
	if code, ok := exits["between"]; !ok || code == 0 {
		t.Errorf("between: frcd exited %d (reported: %v), want non-zero", code, ok)
	}
	start := r.mark(t, "run-between")
	var refusal []string
	for _, e := range r.of("log") {
		if e.T >= start && strings.Contains(e.Line, "layout frcd does not call") {
			refusal = append(refusal, e.Line)
		}
	}
	if len(refusal) != 1 {
		t.Fatalf("between: want one line refusing the HAL, got %q", refusal)
	}
	for _, w := range []string{"it has HAL_GetMonotonicTime", "it lacks HAL_GetFPGATime", "v2027.0.0-alpha-6", "main at caf0fb2dcc"} {
		if !strings.Contains(refusal[0], w) {
			t.Errorf("between: the refusal lacks %q: %s", w, refusal[0])
		}
	}
	t.Logf("between: exit %d, %s", exits["between"], refusal[0])
}
