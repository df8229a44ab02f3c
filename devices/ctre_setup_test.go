//go:build ctre && cgo

package devices

import (
	"errors"
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

// A Talon FX and a Talon SRX that do not answer their configuration
// apply at boot (the fake CTRE library answers Phoenix 6's EcuIsNotPresent,
// -102, and Phoenix 5's RxTimeout, -3, for their first 10 attempts) do
// not stop Build: each starts configuring (Read wraps hal.ErrConfiguring,
// a warning on /diagnostics), is kept neutral though commanded 6 V,
// becomes a counted error (hal.ErrTimeout, an error on /diagnostics)
// after ctreConfigTimeout, and drives once Configure's retries get the
// apply through.
func TestCTREConfigRetried(t *testing.T) {
	tooltest.Require(t, tooltest.CC)
	dir := t.TempDir()
	lib := filepath.Join(dir, "libfakectre.so")
	if b, err := exec.Command("cc", "-shared", "-fPIC", "-o", lib, filepath.Join("..", "hal", "ctre", "testdata", "fakectre.c")).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, b)
	}
	log, in := filepath.Join(dir, "log"), filepath.Join(dir, "in")
	t.Setenv("FAKECTRE_LOG", log)
	t.Setenv("FAKECTRE_IN", in)
	if err := os.WriteFile(in, []byte("fail c_ctre_phoenix6_set_configs -102 10\nfail c_MotController_ConfigPeakCurrentLimit -3 10\np5 0x2040001 12 0 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := ctre.Open(ctre.Options{Paths: []string{lib}})
	if err != nil {
		t.Fatal(err)
	}
	const yaml = "joints:\n" +
		"  - {name: drive, type: talon_fx, id: 2, neutral_mode: brake, stator_current_limit: 80}\n" +
		"  - {name: wheel, type: talon_srx, id: 1, neutral_mode: brake, current_limit_enable: true, peak_current_limit: 60,\n" +
		"     peak_current_duration: 100, continuous_current_limit: 40, required: true}\n"
	f, list := config.Parse("test.yaml", []byte(yaml))
	if list.Errors() > 0 {
		t.Fatalf("config: %v", list)
	}
	reg := interfaces.NewRegistry()
	devs, err := Build(f, NewEnv(linux.New(linux.Options{CAN: []string{"can0"}}, linux.Parts{CTRE: l}), reg))
	if err != nil {
		t.Fatalf("Build: %v (an unanswering controller must not stop frcd)", err)
	}
	for _, name := range []string{"drive", "wheel"} {
		c, err := interfaces.LookupCommand[float64](reg, name, interfaces.Voltage)
		if err != nil {
			t.Fatal(err)
		}
		c.Put(6, 0)
	}
	// The calls since the last look.
	calls := func() string {
		b, _ := os.ReadFile(log)
		os.Truncate(log, 0)
		return string(b)
	}
	driven := func(s string) (fx, srx bool) {
		return strings.Contains(s, "RequestControlVoltageOut \"\" 0x10002 100 6"), strings.Contains(s, "c_MotController_Set_4 0x2040001 0 0.5")
	}
	report := func(d Device) hal.Report {
		return d.(hal.Reporter).Report(nil)[0]
	}
	const dt = 20 * time.Millisecond
	var configuredAt time.Duration
	for now := time.Duration(0); now <= 3*time.Second; now += dt {
		for _, d := range devs {
			d.(Configurer).Configure(now)
		}
		calls() // the configuration's
		for _, d := range devs {
			rerr := d.Read(now, dt)
			if werr := d.Write(now, dt); werr != nil {
				t.Fatalf("%s at %v: Write: %v", d.Name(), now, werr)
			}
			configured := d.(Configurer).Configured()
			rep := report(d)
			switch {
			case configured:
				if configuredAt == 0 {
					configuredAt = now
				}
				if rerr != nil || rep.Error {
					t.Errorf("%s at %v, configured: Read %v, report %+v", d.Name(), now, rerr, rep)
				}
			case now < ctreConfigTimeout:
				if !errors.Is(rerr, hal.ErrConfiguring) || !rep.Warn || !strings.Contains(rep.Message, "configuring: ") {
					t.Errorf("%s at %v, configuring: Read %v, report %+v", d.Name(), now, rerr, rep)
				}
			default:
				if !errors.Is(rerr, hal.ErrTimeout) || !rep.Error || !strings.Contains(rep.Message, ": status -") {
					t.Errorf("%s at %v, still not configured after %v: Read %v, report %+v", d.Name(), now, ctreConfigTimeout, rerr, rep)
				}
			}
		}
		s := calls()
		fx, srx := driven(s)
		if c := devs[0].(Configurer).Configured(); fx != c {
			t.Errorf("at %v, Talon FX configured %v, driven %v:\n%s", now, c, fx, s)
		}
		if c := devs[1].(Configurer).Configured(); srx != c {
			t.Errorf("at %v, Talon SRX configured %v, driven %v:\n%s", now, c, srx, s)
		}
		if !devs[0].(Configurer).Configured() && !strings.Contains(s, "RequestControlNeutralOut \"\" 0x10002") {
			t.Errorf("at %v, the configuring Talon FX got no NeutralOut:\n%s", now, s)
		}
		if !devs[1].(Configurer).Configured() && !strings.Contains(s, "c_MotController_Set_4 0x2040001 0 0 ") {
			t.Errorf("at %v, the configuring Talon SRX got no duty 0:\n%s", now, s)
		}
	}
	// Build's attempt, then one from 0 every ctreConfigRetry rounded up to
	// the 20 ms step (260 ms): the 11th, at 2.34 s, goes through.
	if want := 9 * (ctreConfigRetry + 10*time.Millisecond); configuredAt != want {
		t.Errorf("configured at %v, want %v", configuredAt, want)
	}
	if !devs[0].(Configurer).Configured() || !devs[1].(Configurer).Configured() {
		t.Fatalf("never configured")
	}

	// The Talon SRX reports a reset (Phoenix 5's HasResetOccurred) and
	// does not answer its next 2 applies: configuring again, neutral,
	// then driven again once its configuration is back in.
	fh, err := os.OpenFile(in, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fh.WriteString("p5reset 0x2040001 1\nfail c_MotController_ConfigPeakCurrentLimit -3 2\n")
	fh.Close()
	srx := devs[1]
	var again, back time.Duration
	for now := 3 * time.Second; now <= 4*time.Second; now += dt {
		srx.(Configurer).Configure(now)
		calls()
		rerr := srx.Read(now, dt)
		srx.Write(now, dt)
		_, driven := driven(calls())
		switch c := srx.(Configurer).Configured(); {
		case !c && again == 0:
			again = now
		case c && again != 0 && back == 0:
			back = now
		}
		if c := srx.(Configurer).Configured(); c != driven || c != (rerr == nil) {
			t.Errorf("at %v after the reset: configured %v, driven %v, Read %v", now, c, driven, rerr)
		}
	}
	if again == 0 || back == 0 {
		t.Fatalf("the reset: configuring again at %v, configured again at %v", again, back)
	}
	if rep := report(srx); !strings.Contains(strings.Join(flat(rep.Values), " "), "resets seen 1") {
		t.Errorf("the reset not on /diagnostics: %+v", rep)
	}
}
