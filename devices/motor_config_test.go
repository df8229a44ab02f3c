package devices

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/hal/phoenix6"
)

// reportOf is a device's /diagnostics report (none: the zero Report).
func reportOf(t *testing.T, r *rig, name string) hal.Report {
	t.Helper()
	got := r.device(name).(hal.Reporter).Report(nil)
	if len(got) == 0 {
		return hal.Report{}
	}
	return got[0]
}

// A Talon FX gets its neutral mode and current limits at start: CTRE's
// defaults (Coast; stator 120 A, supply 70 A, lower 40 A after 1 s, all
// enabled) when the entry leaves them out, the entry's otherwise; a
// value it does not hold back, or a backend that cannot apply them, is a
// warning on /diagnostics.
func TestTalonFXNeutralAndLimits(t *testing.T) {
	b := haltest.New()
	r := buildOn(t, b, "joints:\n  - {name: arm, type: talon_fx, id: 3}\n")
	want := phoenix6.FXConfig{StatorLimit: 120, StatorLimitEnable: true, SupplyLimit: 70, SupplyLimitEnable: true, SupplyLowerLimit: 40, SupplyLowerTime: 1}
	if fx := b.TalonFXs[3]; fx.Applies != 1 || fx.Applied != want {
		t.Errorf("defaults: applied %+v (%d times), want %+v", fx.Applied, fx.Applies, want)
	}
	r.cycle()
	if rep := reportOf(t, r, "arm"); rep.Warn || rep.Error {
		t.Errorf("as applied: %+v", rep)
	}

	b = haltest.New()
	b.TalonFXs[3] = &haltest.TalonFX{Holds: &phoenix6.FXConfig{StatorLimit: 60, StatorLimitEnable: true}}
	r = buildOn(t, b, "joints:\n  - {name: arm, type: talon_fx, id: 3, neutral_mode: brake, stator_current_limit: 60, supply_current_limit: 40,\n"+
		"     supply_current_limit_enable: false, supply_current_lower_limit: 30, supply_current_lower_time: 0.5}\n")
	want = phoenix6.FXConfig{Brake: true, StatorLimit: 60, StatorLimitEnable: true, SupplyLimit: 40, SupplyLowerLimit: 30, SupplyLowerTime: 0.5}
	if fx := b.TalonFXs[3]; fx.Applied != want {
		t.Errorf("applied %+v, want %+v", fx.Applied, want)
	}
	r.cycle()
	rep := reportOf(t, r, "arm")
	if !rep.Warn || !strings.Contains(rep.Message, "the Talon holds neutral mode coast (configured brake)") || !strings.Contains(rep.Message, "supply_current_limit 0 (configured 40)") {
		t.Errorf("read back otherwise: %+v", rep)
	}
}

// A backend without the ability keeps the Talon as it is and says so.
func TestTalonFXConfigNotApplied(t *testing.T) {
	if note, err := applyFXConfig(struct{ phoenix6.TalonFX }{}, phoenix6.FXConfig{Brake: true}); err != nil || !strings.Contains(note, "not applied: this backend cannot set them") {
		t.Errorf("%q %v", note, err)
	}
}

// A Talon SRX or Victor SPX gets a neutral mode of coast or brake and
// (a Talon SRX) its current limit at start; Phoenix 5's defaults (the
// saved neutral mode, no limit) apply nothing.
func TestPhoenix5NeutralAndLimits(t *testing.T) {
	b := haltest.New()
	r := buildOn(t, b, "joints:\n  - {name: a, type: talon_srx, id: 1}\n  - {name: b, type: can_victor_spx, id: 2}\n")
	if b.Motors[1].Applies != 0 || b.Motors[2].Applies != 0 {
		t.Errorf("defaults applied: %+v %+v", b.Motors[1].Applied, b.Motors[2].Applied)
	}
	r.cycle()
	if got := r.device("a").(hal.Reporter).Report(nil); len(got) != 0 {
		t.Errorf("report with nothing to say: %+v", got)
	}

	b = haltest.New()
	b.Motors[2] = &haltest.Motor{Holds: &hal.CANMotorConfig{Neutral: hal.NeutralCoast}}
	r = buildOn(t, b, "joints:\n  - {name: a, type: talon_srx, id: 1, neutral_mode: brake, current_limit_enable: true, peak_current_limit: 60,\n"+
		"     peak_current_duration: 200, continuous_current_limit: 40}\n  - {name: b, type: can_victor_spx, id: 2, neutral_mode: brake}\n")
	if got, want := b.Motors[1].Applied, (hal.CANMotorConfig{Neutral: hal.NeutralBrake, CurrentLimit: true, PeakA: 60, PeakMs: 200, ContinuousA: 40, HasCurrentLimit: true}); got != want {
		t.Errorf("Talon SRX: applied %+v, want %+v", got, want)
	}
	if got := b.Motors[2].Applied; got != (hal.CANMotorConfig{Neutral: hal.NeutralBrake}) {
		t.Errorf("Victor SPX: applied %+v", got)
	}
	r.cycle()
	if rep := reportOf(t, r, "b"); !rep.Warn || rep.Message != "the controller holds neutral mode coast (configured brake)" {
		t.Errorf("Victor SPX read back otherwise: %+v", rep)
	}
}

// Values out of each vendor's range are errors at their file:line:col.
func TestMotorConfigRanges(t *testing.T) {
	_, list := config.Parse("robot.yaml", []byte("joints:\n"+
		"  - {name: a, type: talon_fx, id: 1, stator_current_limit: 900, neutral_mode: hold}\n"+
		"  - {name: b, type: spark_max, id: 2, smart_current_limit: 0, secondary_current_limit: -1}\n"+
		"  - {name: c, type: can_victor_spx, id: 3, current_limit_enable: true}\n"+
		"  - {name: d, type: spark_flex, id: 4, secondary_current_limit: 126, smart_current_rpm: 20001}\n"+
		"  - {name: e, type: spark_max, id: 5, secondary_current_limit: 125, smart_current_limit: 200}\n"))
	got := fmt.Sprint(list)
	for _, want := range []string{
		`robot.yaml:2:60: error: talon_fx "a": stator_current_limit: 900 is out of range 0-800`,
		`robot.yaml:2:79: error: talon_fx "a": neutral_mode "hold" is not one of coast, brake`,
		`robot.yaml:3:60: error: spark_max "b": smart_current_limit: 0 is out of range 1-200`,
		`robot.yaml:3:88: error: spark_max "b": secondary_current_limit: -1 is out of range 0-125`,
		`robot.yaml:4:44: error: can_victor_spx "c": unknown key "current_limit_enable"`,
		`spark_flex "d": secondary_current_limit: 126 is out of range 0-125`,
		`spark_flex "d": smart_current_rpm: 20001 is out of range 0-20000`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("findings lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"e"`) {
		t.Errorf("REV's maximum secondary limit (125 A) refused:\n%s", got)
	}
}

// A SPARK entry's idle mode and limits go out as REV's parameters, in
// order after the status periods: brake (6 = 1), 40 A at a stall (59),
// 25 A free (60), from 3000 RPM (61), a 60 A secondary limit (11, float32
// 0x42700000) over 2 cycles (12); each acknowledged as written.
func TestSparkIdleModeAndLimitsWritten(t *testing.T) {
	r := bind(t, "joints:\n  - {name: arm_joint, type: spark_max, id: 3, neutral_mode: brake, smart_current_limit: 40, smart_current_free_limit: 25,\n"+
		"     smart_current_rpm: 3000, secondary_current_limit: 60, secondary_current_limit_cycles: 2}\n")
	r.step(10 * time.Millisecond)
	answerVersion(r, 26)
	var writes [][8]byte
	for range sparkBaseSteps {
		r.hal.Bus.Sent = r.hal.Bus.Sent[:0]
		r.step(10 * time.Millisecond)
		for _, f := range sentTo(r, sparkParam3) {
			writes = append(writes, f.Data)
		}
		if !sparkAckSent(r) {
			t.Fatalf("no configuration frame: %+v", r.hal.Bus.Sent)
		}
	}
	want := [][8]byte{{158, 10}, {159, 100}, {160, 20}, {6, 1}, {59, 40}, {60, 25}, {61, 0xB8, 0x0B}, {11, 0, 0, 0x70, 0x42}, {12, 2}}
	if fmt.Sprint(writes) != fmt.Sprint(want) {
		t.Errorf("parameter writes\n%v\nwant\n%v", writes, want)
	}
	r.step(10 * time.Millisecond)
	if rep := reportOf(t, r, "arm_joint"); strings.Contains(rep.Message, "refused") {
		t.Errorf("all acknowledged: %+v", rep)
	}
}
