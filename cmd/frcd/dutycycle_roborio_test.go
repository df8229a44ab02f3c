//go:build roborio && cgo

package main

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/fakehal"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
)

const (
	dutyCycleURDF = `<robot name="dc">
  <link name="base_link"/><link name="arm"/>
  <joint name="arm_joint" type="revolute"><parent link="base_link"/><child link="arm"/>
    <axis xyz="0 1 0"/><limit lower="-3.2" upper="3.2" effort="10" velocity="2"/>
    <sensor name="arm_absolute" type="encoder"/></joint>
</robot>
`
	// A REV Through Bore on the MXP's DIO 20, zeroed half a turn in.
	dutyCycleYAML = `joints:
  - {name: arm_joint, type: spark, id: 0}
  - {name: arm_absolute, type: duty_cycle_encoder, dio_channel: 20, expected_zero: 0.5}
`
)

// duty_cycle_encoder on the roboRIO: `frcd validate --hal roborio` runs
// it, and the roborio backend (opened through the registry, as `frcd run
// --hal roborio` opens it) on the fake 2026 HAL reads it through the
// HAL's duty-cycle API (a DIO input routed to an FPGA duty-cycle
// counter): the joint's position is the duty cycle × 2π − 0.5, wrapped
// into 0..2π; a signal below 100 Hz is a counted read error. make rio-test runs it as an ARM
// binary under qemu-arm (the fake built by $FAKEHAL_CC).
func TestDutyCycleEncoderOnRoboRIO(t *testing.T) {
	tooltest.Require(t, tooltest.CC)
	dir := t.TempDir()
	u, y := filepath.Join(dir, "robot.urdf"), filepath.Join(dir, "robot.yaml")
	for p, s := range map[string]string{u: dutyCycleURDF, y: dutyCycleYAML} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runFrcd("validate", "--hal", "roborio", u, y)
	if code != 0 || strings.Contains(out, "cannot run") || !strings.Contains(out, "0 warnings") {
		t.Fatalf("validate --hal roborio: exit %d\n%s%s", code, out, errOut)
	}

	if _, err := fakehal.Build(dir, "", "2026"); err != nil {
		t.Fatal(err)
	}
	f, err := fakehal.NewFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range f.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	t.Setenv("LD_LIBRARY_PATH", dir)
	// 1025 µs is the Through Bore's period (975.6 Hz).
	if err := f.Set("cw 0 0 0 0 0 1", "pwmin 20 256 1025"); err != nil {
		t.Fatal(err)
	}
	r, list, err := robot.Load(u, y)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	b, err := openRoboRIO()
	if err != nil {
		t.Fatal(err)
	}
	closer, _ := b.(io.Closer)
	if closer != nil {
		defer closer.Close()
	}
	d, err := daemon.New(r, b, daemon.Options{Rate: 100, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	calls, _ := f.Calls()
	for _, want := range []string{"HAL_InitializeDIOPort port=0x10014 input=1 -> 0x30014 status=0", "HAL_InitializeDutyCycle source=0x30014 trigger=0 -> 0x90000 status=0"} {
		if !strings.Contains(strings.Join(calls, "\n"), want) {
			t.Errorf("no %q among the HAL calls", want)
		}
	}
	position := func() float64 {
		d.Step()
		js, ok := d.Loop.JointState("arm_joint")
		if !ok {
			t.Fatal("no arm_joint state")
		}
		return js.Position
	}
	for _, c := range []struct {
		high int
		want float64
	}{
		{256, 256.0/1025*2*math.Pi - 0.5},
		{820, 820.0/1025*2*math.Pi - 0.5},
		{50, 50.0/1025*2*math.Pi - 0.5 + 2*math.Pi}, // wrapped into 0..2π
	} {
		if err := f.Set("pwmin 20 " + itoa(c.high) + " 1025"); err != nil {
			t.Fatal(err)
		}
		got := position()
		t.Logf("high %d µs of 1025: arm_joint at %.4f rad", c.high, got)
		if math.Abs(got-c.want) > 1e-9 {
			t.Errorf("high %d µs of 1025: position %v, want %v", c.high, got, c.want)
		}
	}
	// Unplugged (a 20 ms period: 50 Hz, below min_frequency): a read
	// error, counted, and the signal is not taken as a position.
	errs := d.Loop.Stats().DeviceErrors
	if err := f.Set("pwmin 20 5000 20000"); err != nil {
		t.Fatal(err)
	}
	if got := position(); d.Loop.Stats().DeviceErrors <= errs || math.Abs(got-(0.25*2*math.Pi-0.5)) < 1e-6 {
		t.Errorf("below min_frequency: position %v, device errors %d (were %d)", got, d.Loop.Stats().DeviceErrors, errs)
	}
}
