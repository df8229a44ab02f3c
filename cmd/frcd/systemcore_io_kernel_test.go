package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/internal/fakehal"
	"github.com/frcd/frcd/internal/qemutest"
	"github.com/frcd/frcd/internal/tooltest"
)

// TestSystemcoreIOOnKernel runs the frcd binary as make systemcore builds
// it (cgo, the systemcore tag, here for the VM's amd64), `frcd run --hal
// systemcore`, on examples/systemcore_io on a real Linux kernel under qemu,
// with vcan interfaces named as Systemcore's buses and the fake 2027 WPILib
// HAL (internal/fakehal) as libwpiHal.so, driven by internal/scagent: the
// drive is commanded over frcd's NT4 server all along; nothing moves while
// the fake's Driver Station says disabled; its enable makes the PWM pulses
// follow the commands; its disable and a stale Driver Station set them
// neutral; SIGTERM sets every PWM to pulse 0 before frcd exits 0, and the
// time to it is measured.
func TestSystemcoreIOOnKernel(t *testing.T) {
	tooltest.Require(t, tooltest.CC)
	yaml, err := os.ReadFile("../../examples/systemcore_io/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The agent commands the drive over NT4, which the example leaves off.
	yaml = append(yaml, "nt4: {commands: true}\n"...)
	var script strings.Builder
	script.WriteString("ip link set lo up\n")
	for i := range 5 {
		n := "can_s" + string(rune('0'+i))
		script.WriteString("ip link add dev " + n + " type vcan\nip link set " + n + " mtu 16\nip link set " + n + " up\n")
	}
	script.WriteString("/bin/scagent")
	r, accel := runCANVM(t, func(a *qemutest.Initramfs) {
		if err := a.HostFile("/robot/robot.urdf", "../../examples/systemcore_io/robot.urdf"); err != nil {
			t.Fatal(err)
		}
		a.File("/robot/robot.yaml", yaml, 0o644)
		dir := t.TempDir()
		if err := a.GoBinary("/bin/scagent", "../../internal/scagent", dir, false); err != nil {
			t.Fatal(err)
		}
		// frcd with the HAL: cgo, dynamically linked; its libraries too.
		bin := filepath.Join(dir, "frcd-hal")
		build := exec.Command("go", "build", "-trimpath", "-tags", "systemcore,netgo,osusergo", "-o", bin, ".")
		build.Env = append(os.Environ(), "CGO_ENABLED=1")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build -tags systemcore: %v\n%s", err, out)
		}
		if err := a.Executable("/bin/frcd", bin); err != nil {
			t.Fatal(err)
		}
		lib, err := fakehal.Build(t.TempDir(), "cc", "2027")
		if err != nil {
			t.Fatal(err)
		}
		if err := a.HostFile("/robot/lib/"+fakehal.Library, lib); err != nil {
			t.Fatal(err)
		}
	}, script.String())
	for _, e := range r.of("fail") {
		t.Errorf("agent: %s", e.Line)
	}
	enable, sigterm := r.mark(t, "enable"), r.mark(t, "sigterm")
	r.mark(t, "exited")

	type pulse struct {
		t  float64
		us int
	}
	pulses := map[int][]pulse{}
	for _, e := range r.of("pulse") {
		if len(e.Vals) == 2 {
			pulses[int(e.Vals[0])] = append(pulses[int(e.Vals[0])], pulse{e.T, int(e.Vals[1])})
		}
	}
	for ch := range 3 {
		s := pulses[ch]
		if len(s) == 0 {
			t.Fatalf("no pulse set on SmartIO %d", ch)
		}
		for _, x := range s {
			if x.t < enable && x.us != 0 {
				t.Errorf("SmartIO %d: pulse %d µs before the Driver Station enabled", ch, x.us)
			}
		}
		if last := s[len(s)-1]; last.us != 0 || last.t < sigterm {
			t.Errorf("SmartIO %d: the last pulse is %d µs at %+.3f s from SIGTERM, want 0 after it", ch, last.us, last.t-sigterm)
		}
	}
	// Shutdown to neutral: from SIGTERM to the first pulse 0 of each channel.
	worst := 0.0
	for ch := range 3 {
		for _, x := range pulses[ch] {
			if x.t >= sigterm && x.us == 0 {
				worst = max(worst, (x.t-sigterm)*1e3)
				break
			}
		}
	}
	t.Logf("SIGTERM to every SmartIO PWM at pulse 0 on %s: %.1f ms", accel, worst)
	for _, step := range []string{"disable", "stale"} {
		at := r.mark(t, step)
		last := 0.0
		for ch := range 3 {
			for _, x := range pulses[ch] {
				if x.t >= at && x.us == 0 {
					last = max(last, (x.t-at)*1e3)
					break
				}
			}
		}
		t.Logf("%s to every SmartIO PWM at pulse 0: %.1f ms", step, last)
	}
}
