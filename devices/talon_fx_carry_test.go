//go:build ctre && cgo

package devices

import (
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/ctre"
	"github.com/frcd/frcd/hal/linux"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/internal/tooltest"
)

// On the CTRE library backend (hal/ctre's fake library), a Talon FX
// (20:1, closed_loop: device) at 12.3 rotor rotations reboots: its sticky
// BootDuringEnable fault set and its rotor back at 0.3. The first Read
// after holds (configuring, no position, neutral) until Configure has
// asked the fault (and cleared it); then the joint reads where it was,
// the 12 whole rotations carried, logged and a warning, and a position
// command of where it is goes to the Talon as 0.3 rotations, its own
// count. Then a CAN dropout (its status failing, back with the rotor 5
// rotations on, no fault): held while the fault is asked again for
// fxSignWait, then the position taken as it is, nothing more carried.
func TestTalonFXPositionCarried(t *testing.T) {
	tooltest.Require(t, tooltest.CC)
	dir := t.TempDir()
	lib := filepath.Join(dir, "libfakectre.so")
	if b, err := exec.Command("cc", "-shared", "-fPIC", "-o", lib, filepath.Join("..", "hal", "ctre", "testdata", "fakectre.c")).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, b)
	}
	log, in := filepath.Join(dir, "log"), filepath.Join(dir, "in")
	t.Setenv("FAKECTRE_LOG", log)
	t.Setenv("FAKECTRE_IN", in)
	set := func(lines ...string) {
		t.Helper()
		f, err := os.OpenFile(in, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for _, l := range lines {
			if _, err := f.WriteString(l + "\n"); err != nil {
				t.Fatal(err)
			}
		}
	}
	set("sig 0x10002 1786 12.3", "sig 0x10002 1785 0", "sig 0x10002 1781 12", "sig 0x10002 10014 0")
	l, err := ctre.Open(ctre.Options{Paths: []string{lib}})
	if err != nil {
		t.Fatal(err)
	}
	b := linux.New(linux.Options{CAN: []string{"can0"}}, linux.Parts{CTRE: l})
	f, list := config.Parse("test.yaml", []byte("joints:\n  - {name: turret, type: talon_fx, id: 2, sensor_to_mechanism_ratio: 20, closed_loop: device, kp: 3}\n"))
	if list.Errors() > 0 {
		t.Fatalf("config: %v", list)
	}
	devs, err := Build(f, NewEnv(b, interfaces.NewRegistry()))
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	fx := devs[0].(*talonFX)
	perRot := 2 * math.Pi / 20
	var now time.Duration
	step := func() error {
		now += 10 * time.Millisecond
		err := fx.Read(now, 10*time.Millisecond)
		if werr := fx.Write(now, 10*time.Millisecond); werr != nil {
			t.Fatal(werr)
		}
		return err
	}
	calls := func() string {
		b, _ := os.ReadFile(log)
		os.Remove(log)
		return string(b)
	}
	if err := step(); err != nil || math.Abs(fx.rate.State-12.3*perRot) > 1e-9 {
		t.Fatalf("before: %v, joint at %v", err, fx.rate.State)
	}
	fx.posCmd.Set, fx.posCmd.Value = true, 12.3*perRot
	calls()

	set("sig 0x10002 10014 1", "sig 0x10002 1786 0.3") // rebooted while enabled
	if err := step(); !errors.Is(err, hal.ErrConfiguring) || !strings.Contains(err.Error(), "asking whether the Talon FX rebooted") {
		t.Errorf("the first Read after the reboot: %v, want held (configuring)", err)
	}
	if c := calls(); !strings.Contains(c, "RequestControlNeutralOut") || strings.Contains(c, "PositionVoltage") {
		t.Errorf("held, the Talon is not neutral:\n%s", c)
	}
	fx.Configure(now)
	if c := calls(); !strings.Contains(c, `c_ctre_phoenix6_set_configs 0 "" 0x10002 0.1 "10015=0;" 8 010`) {
		t.Errorf("the sticky fault not cleared:\n%s", c)
	}
	if err := step(); err != nil || math.Abs(fx.rate.State-12.3*perRot) > 1e-9 {
		t.Errorf("after the reboot: %v, joint at %v rad, want %v", err, fx.rate.State, 12.3*perRot)
	}
	if c := calls(); !strings.Contains(c, `RequestControlPositionVoltage "" 0x10002 100 0.3 `) {
		t.Errorf("the device's set point not in its new count (0.3 rotations):\n%s", c)
	}
	if ev := fx.Events(nil); len(ev) != 1 || !strings.Contains(ev[0], "turret: rebooted, its rotor position restarted within one rotation: position carried over from before the reboot (+12 rotor rotations, offset 12)") {
		t.Errorf("events %q", ev)
	}
	if r := fx.Report(nil)[0]; !r.Warn || !strings.Contains(r.Message, "position carried over 1 reboot(s) (offset 12 rotor rotations)") {
		t.Errorf("/diagnostics: %+v", r)
	}

	set("sigerr 0x10002 1786 -3") // cut off the bus
	if err := step(); err == nil {
		t.Fatal("a failed status read")
	}
	set("sigerr 0x10002 1786 0", "sig 0x10002 1786 5.3") // back, the rotor 5 rotations on, no fault
	start := now
	if err := step(); !errors.Is(err, hal.ErrConfiguring) {
		t.Fatalf("the first Read after the dropout: %v, want held", err)
	}
	if a := testing.AllocsPerRun(20, func() { _ = fx.Read(now, 10*time.Millisecond) }); a != 0 {
		t.Errorf("a held Read allocates %v times", a)
	}
	for {
		err := step()
		fx.Configure(now)
		if err == nil {
			break
		}
		if !errors.Is(err, hal.ErrConfiguring) || now-start > time.Second {
			t.Fatalf("after the dropout: %v at %v", err, now-start)
		}
	}
	if now-start < fxSignWait {
		t.Errorf("settled %v after the dropout, want the fault asked for %v", now-start, fxSignWait)
	}
	if want := (5.3 + 12) * perRot; math.Abs(fx.rate.State-want) > 1e-9 {
		t.Errorf("after the dropout: joint at %v, want %v (nothing more carried)", fx.rate.State, want)
	}
	if ev := fx.Events(nil); len(ev) != 0 {
		t.Errorf("a dropout logged %q", ev)
	}
}
