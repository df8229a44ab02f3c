package main

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/frcd/frcd/internal/qemutest"
)

// TestSystemcoreCANOnKernel runs `frcd run --hal systemcore` on
// examples/systemcore's files, on a real Linux kernel under qemu whose
// vcan interfaces are named as Systemcore's CAN buses (can_s0-can_s4;
// can_s1 and can_s3 with the CAN FD MTU, the others classic), driven from inside the VM by
// internal/canagent on can_s0: the checks of TestLinuxCANOnKernel
// (heartbeat, outputs, PDP, the interface down and up, SIGTERM neutral),
// plus the buses it opened for CAN FD, and the time from SIGTERM to the
// first neutral frame of every output.
func TestSystemcoreCANOnKernel(t *testing.T) {
	var script strings.Builder
	script.WriteString("ip link set lo up\n")
	for i := range 5 {
		n := "can_s" + string(rune('0'+i))
		script.WriteString("ip link add dev " + n + " type vcan\n")
		mtu := "16" // classic CAN (vcan's default is CAN FD's 72)
		if i == 1 || i == 3 {
			mtu = "72"
		}
		script.WriteString("ip link set " + n + " mtu " + mtu + "\n")
		script.WriteString("ip link set " + n + " up\n")
	}
	script.WriteString("/bin/canagent -hal systemcore -iface can_s0")
	r, accel := runCANVM(t, func(a *qemutest.Initramfs) {
		for _, f := range []string{"robot.urdf", "robot.yaml"} {
			if err := a.HostFile("/robot/"+f, "../../examples/systemcore/"+f); err != nil {
				t.Fatal(err)
			}
		}
	}, script.String())
	checkKernelCAN(t, r, heartbeatTolerance[accel], "can_s0")

	// The buses: can_s1 and can_s3 opened for CAN FD, as their MTU says.
	if !slices.ContainsFunc(r.of("log"), func(e agentEvent) bool {
		return e.Line == "frcd: Systemcore CAN: CAN FD frames on [can_s1 can_s3], classic only on [can_s0 can_s2 can_s4]"
	}) {
		t.Errorf("frcd did not say it opened can_s1 and can_s3 for CAN FD")
	}
	// The heartbeat goes out on every bus: its state logged for each.
	for i := range 5 {
		n := "can_s" + string(rune('0'+i))
		if !slices.ContainsFunc(r.of("log"), func(e agentEvent) bool { return strings.HasPrefix(e.Line, "frcd: CAN "+n+": ") }) {
			t.Errorf("no heartbeat state logged for %s", n)
		}
	}
	// Shutdown to neutral: from SIGTERM to the first frame after it of
	// each output with everything off (on the guest's clock, candump's).
	sigterm := r.mark(t, "sigterm")
	fs := r.frames(t)
	first := func(id uint32, neutral func(canFrame) bool) float64 {
		for _, f := range within(fs, id, sigterm, math.Inf(1)) {
			if neutral(f) {
				return (f.t - sigterm) * 1e3
			}
		}
		return math.NaN()
	}
	hb := first(idHeartbeat, func(f canFrame) bool { return len(f.data) == 8 && f.data[3]&0x12 == 0 })
	pcm := first(idPCMControl, func(f canFrame) bool { return len(f.data) == 8 && f.data[2] == 0 })
	ph := first(idPHSetAll, func(f canFrame) bool { return len(f.data) >= 4 && slices.Equal(f.data[:4], []byte{0, 0, 0, 0}) })
	worst := max(hb, pcm, ph)
	t.Logf("shutdown to neutral on %s: heartbeat disabled %.1f ms, PCM off %.1f ms, PH off %.1f ms after SIGTERM (the agent's clock; Systemcore kills the robot service 1 s after SIGTERM)", accel, hb, pcm, ph)
	if math.IsNaN(worst) {
		t.Errorf("an output had no neutral frame after SIGTERM")
	}
}
