package main

import (
	"os"
	"strings"
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/internal/qemutest"
)

// TestSystemcoreIOOnKernel runs the frcd binary, `frcd run --hal
// systemcore`, on examples/systemcore_io on a real Linux kernel under qemu,
// with vcan interfaces named as Systemcore's buses and the emulated system
// server on Systemcore's port 127.0.0.1:6810, both inside the VM (driven
// by internal/scagent): the drive is commanded over frcd's NT4 server all
// along; nothing moves while the server's Driver Station says disabled;
// its enable makes the PWM valsets follow the commands and the CAN
// heartbeat on can_s0 say enabled; its disable sets them neutral and the
// heartbeat disabled; SIGTERM sets every valset neutral before frcd exits
// 0, and the time to it is measured.
func TestSystemcoreIOOnKernel(t *testing.T) {
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
	}, script.String())
	for _, e := range r.of("fail") {
		t.Errorf("agent: %s", e.Line)
	}
	enable, disable, neutral, sigterm := r.mark(t, "enable"), r.mark(t, "disable"), r.mark(t, "neutral"), r.mark(t, "sigterm")
	r.mark(t, "driving")
	r.mark(t, "exited")

	// The valsets, as the server took them.
	type set struct {
		t float64
		v int64
	}
	sets := map[int][]set{}
	for _, e := range r.of("valset") {
		if len(e.Vals) == 2 {
			sets[int(e.Vals[0])] = append(sets[int(e.Vals[0])], set{e.T, int64(e.Vals[1])})
		}
	}
	for ch := range 3 {
		s := sets[ch]
		if len(s) == 0 {
			t.Fatalf("no valset on channel %d", ch)
		}
		for _, x := range s {
			if x.t < enable && x.v != 0 {
				t.Errorf("channel %d: valset %d before the Driver Station enabled", ch, x.v)
			}
		}
		if last := s[len(s)-1]; last.v != 0 || last.t < sigterm {
			t.Errorf("channel %d: the last valset is %d at %+.3f s from SIGTERM, want 0 after it", ch, last.v, last.t-sigterm)
		}
	}
	// Shutdown to neutral: from SIGTERM to the first valset 0 of each channel.
	worst := 0.0
	for ch := range 3 {
		for _, x := range sets[ch] {
			if x.t >= sigterm && x.v == 0 {
				worst = max(worst, (x.t-sigterm)*1e3)
				break
			}
		}
	}
	t.Logf("SIGTERM to every SmartIO PWM valset 0 on %s: %.1f ms", accel, worst)

	// The heartbeat follows the server's Driver Station: disabled before
	// the enable, enabled while driving, disabled again once neutral.
	fs := r.frames(t)
	enabledAt := func(from, to float64) (on, off int) {
		for _, f := range within(fs, idHeartbeat, from, to) {
			var fr hal.Frame
			fr.ID, fr.Len = idHeartbeat, uint8(len(f.data))
			copy(fr.Data[:], f.data)
			if h, err := hal.ParseHeartbeat(fr); err == nil && h.Enabled {
				on++
			} else {
				off++
			}
		}
		return
	}
	start := r.mark(t, "start")
	if on, off := enabledAt(start, enable); on > 0 || off == 0 {
		t.Errorf("before the enable: %d heartbeats enabled, %d disabled", on, off)
	}
	// From the enable to the disable, not only while driving: a loaded
	// host can stall the VM for half a second, leaving no frame at all
	// in the shorter window.
	if on, _ := enabledAt(enable, disable); on == 0 {
		t.Errorf("while enabled: no heartbeat enabled")
	}
	if on, off := enabledAt(neutral+0.05, r.mark(t, "reenable")); on > 0 || off == 0 {
		t.Errorf("after the disable: %d heartbeats enabled, %d disabled", on, off)
	}
}
