//go:build ctre && cgo

package devices

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/ctre"
	"github.com/frcd/frcd/hal/linux"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/internal/tooltest"
)

// On the CTRE library backend (the fake library of hal/ctre's tests, on
// the Linux backend), a Talon FX's and a Talon SRX's neutral mode and
// current limits from the YAML are applied at start and read back: no
// "not applied" note; a value the device keeps otherwise (the fake's
// hold line) is a warning naming it.
func TestCTREAppliesNeutralAndLimits(t *testing.T) {
	tooltest.Require(t, tooltest.CC)
	dir := t.TempDir()
	lib := filepath.Join(dir, "libfakectre.so")
	if b, err := exec.Command("cc", "-shared", "-fPIC", "-o", lib, filepath.Join("..", "hal", "ctre", "testdata", "fakectre.c")).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, b)
	}
	const yaml = "joints:\n" +
		"  - {name: drive, type: talon_fx, id: 2, neutral_mode: brake, stator_current_limit: 80, supply_current_limit: 60}\n" +
		"  - {name: wheel, type: talon_srx, id: 1, neutral_mode: brake, current_limit_enable: true, peak_current_limit: 60,\n" +
		"     peak_current_duration: 100, continuous_current_limit: 40}\n"
	build := func(hold string) (map[string]hal.Report, string) {
		log, in := filepath.Join(dir, hold+"log"), filepath.Join(dir, hold+"in")
		t.Setenv("FAKECTRE_LOG", log)
		t.Setenv("FAKECTRE_IN", in)
		if err := os.WriteFile(in, []byte(hold+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		l, err := ctre.Open(ctre.Options{Paths: []string{lib}})
		if err != nil {
			t.Fatal(err)
		}
		b := linux.New(linux.Options{CAN: []string{"can0"}}, linux.Parts{CTRE: l})
		f, list := config.Parse("test.yaml", []byte(yaml))
		if list.Errors() > 0 {
			t.Fatalf("config: %v", list)
		}
		devs, err := Build(f, NewEnv(b, interfaces.NewRegistry()))
		if err != nil {
			t.Fatalf("Build: %v", err)
		}
		reps := map[string]hal.Report{}
		for _, d := range devs {
			if r, ok := d.(hal.Reporter); ok {
				for _, rep := range r.Report(nil) {
					reps[d.Name()] = rep
				}
			}
		}
		calls, _ := os.ReadFile(log)
		return reps, string(calls)
	}

	reps, calls := build("")
	for _, want := range []string{
		`c_ctre_phoenix6_set_configs 0 "" 0x10002 0.1 "1904=1;1906=80;1907=1;1908=60;1909=1;1992=40;1993=1;" 52 000`,
		"c_ctre_phoenix6_get_configs", "c_MotController_SetNeutralMode 0x2040001 2",
		"c_MotController_ConfigPeakCurrentLimit 0x2040001 60 30", "c_MotController_ConfigPeakCurrentDuration 0x2040001 100 30",
		"c_MotController_ConfigContinuousCurrentLimit 0x2040001 40 30", "c_MotController_EnableCurrentLimit 0x2040001 1",
		"c_MotController_ConfigGetParameter 0x2040001 362 0 30",
	} {
		if !strings.Contains(calls, want) {
			t.Errorf("no %q among the CTRE calls:\n%s", want, calls)
		}
	}
	for name, rep := range reps {
		if strings.Contains(strings.Join(flat(rep.Values), " "), "configuration") {
			t.Errorf("%s: %+v: applied and read back as configured, want no configuration note", name, rep)
		}
	}

	reps, _ = build("hold 0x10002 1904 0") // the Talon FX stays in coast
	if rep := reps["drive"]; !rep.Warn || !strings.Contains(rep.Message, "the Talon holds neutral mode coast (configured brake)") {
		t.Errorf("a Talon FX that kept coast: %+v", rep)
	}
}

func flat(vs [][2]string) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v[0], v[1])
	}
	return out
}
