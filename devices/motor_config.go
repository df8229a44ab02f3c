package devices

import (
	"fmt"
	"strings"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
)

// What motor controllers do at zero output and how much current they
// pass, in each vendor's own terms, applied at start and read back where
// the vendor allows (docs/devices.md; sources in deploy/ctre.md and
// docs/rev-spark.md). The keys default to each vendor's factory value, so
// an entry that leaves them out puts the device in that state.

// neutralModeKey is a controller's neutral mode key: coast or brake,
// defaulting to the vendor's factory value; a Phoenix 5 controller also
// takes "device", its own saved setting (the B/C CAL button's).
func neutralModeKey(def string, enum []string, doc string) config.Key {
	return config.Key{Name: "neutral_mode", Kind: config.String, Default: def, Enum: enum,
		Doc: "What the controller does with its motor at zero output, disabled or e-stopped: brake shorts the windings (the motor's back-EMF holds it back), coast leaves them open. " + doc}
}

var (
	// Phoenix 6: MotorOutputConfigs.NeutralMode, default Coast.
	p6NeutralKey = neutralModeKey("coast", []string{"coast", "brake"}, "Phoenix 6's MotorOutputConfigs.NeutralMode (factory default Coast), applied at start and read back.")
	// Phoenix 5: SetNeutralMode; its own default is EEPROMSetting.
	p5NeutralKey = neutralModeKey("device", []string{"device", "coast", "brake"},
		"Phoenix 5's SetNeutralMode: device (Phoenix 5's default, EEPROMSetting) leaves what the controller has saved, set with its B/C CAL button; coast or brake is applied at start (Phoenix 5 cannot read it back).")
	// REV: parameter kIdleMode (6), default IDLE_COAST.
	sparkIdleKey = neutralModeKey("coast", []string{"coast", "brake"}, "REV's idle mode (parameter kIdleMode, 6; factory default coast), written at start and acknowledged with the value the SPARK holds.")
)

// The Phoenix 6 current limits (CurrentLimitsConfigs): defaults and
// ranges as CTRE's API documentation and phoenix6 26.1.0's
// configs/config_groups.py give them (SupplyCurrentLowerTime 0-5 s).
var p6LimitKeys = []config.Key{
	{Name: "stator_current_limit", Kind: config.Float, Default: 120.0, HasRange: true, Min: 0, Max: 800, Unit: "A",
		Doc: "Phoenix 6's StatorCurrentLimit: the motor (stator) current allowed, motoring and regenerating; it bounds torque, and so wheel slip and the current at a stall."},
	{Name: "stator_current_limit_enable", Kind: config.Bool, Default: true, Doc: "Phoenix 6's StatorCurrentLimitEnable."},
	{Name: "supply_current_limit", Kind: config.Float, Default: 70.0, HasRange: true, Min: 0, Max: 800, Unit: "A",
		Doc: "Phoenix 6's SupplyCurrentLimit: the most current drawn from the battery (what trips breakers and browns the robot out)."},
	{Name: "supply_current_limit_enable", Kind: config.Bool, Default: true, Doc: "Phoenix 6's SupplyCurrentLimitEnable."},
	{Name: "supply_current_lower_limit", Kind: config.Float, Default: 40.0, HasRange: true, Min: 0, Max: 500, Unit: "A",
		Doc: "Phoenix 6's SupplyCurrentLowerLimit: the supply current allowed once supply_current_limit has held for supply_current_lower_time."},
	{Name: "supply_current_lower_time", Kind: config.Float, Default: 1.0, HasRange: true, Min: 0, Max: 5, Unit: "s",
		Doc: "Phoenix 6's SupplyCurrentLowerTime: how long supply_current_limit holds before the lower limit; 0 never lowers."},
}

// The Talon SRX's Phoenix 5 current limit: its supply current, once over
// peakCurrentLimit for peakCurrentDuration, is held to
// continuousCurrentLimit while EnableCurrentLimit is on. Defaults are
// TalonSRXConfiguration's, 1 A, 1 ms, 1 A (TalonSRX.h at
// CrossTheRoadElec/Phoenix5-Linux-Example 93e53c2; TalonSRX.java/.cpp at
// CrossTheRoadElec/Phoenix-api 499e427), which ConfigAllSettings takes as
// the values ConfigFactoryDefault leaves (it factory-defaults, then sends
// only values that differ); the enable is a control signal, off until
// EnableCurrentLimit(true) (Phoenix 5 docs ch13_MC.rst "Current Limit",
// CrossTheRoadElec/Phoenix-Documentation ead67d5). CTRE publishes no
// range (the API takes ints; a peak of 0 means "continuous only"), so
// frcd bounds them at 300 A and 60 s.
var p5LimitKeys = []config.Key{
	{Name: "current_limit_enable", Kind: config.Bool, Default: false, Doc: "Phoenix 5's EnableCurrentLimit (a control signal, off by default): the three limits below apply only while it is on."},
	{Name: "peak_current_limit", Kind: config.Int, Default: 1, HasRange: true, Min: 0, Max: 300, Unit: "A",
		Doc: "Phoenix 5's peakCurrentLimit (TalonSRXConfiguration's default 1 A): the supply current that, exceeded for peak_current_duration, starts the limit; 0 limits at continuous_current_limit alone, and a peak below the continuous limit is raised to it (CTRE)."},
	{Name: "peak_current_duration", Kind: config.Int, Default: 1, HasRange: true, Min: 0, Max: 60000, Unit: "ms", Doc: "Phoenix 5's peakCurrentDuration (default 1 ms)."},
	{Name: "continuous_current_limit", Kind: config.Int, Default: 1, HasRange: true, Min: 0, Max: 300, Unit: "A",
		Doc: "Phoenix 5's continuousCurrentLimit (default 1 A): the supply current held to once the limit starts, until the commanded output draws less."},
}

// The SPARK's current limits (REV's parameters, written at start and
// acknowledged): the smart current limit (kSmartCurrentStallLimit 59,
// kSmartCurrentFreeLimit 60, kSmartCurrentConfig 61, all uint32) and the
// secondary limit (kCurrentChop 11, float32; kCurrentChopCycles 12,
// uint32): ids and types from REVLib 2026's generated SparkParameters.h,
// defaults and kCurrentChop's range from REV's SPARK MAX parameter table
// (REVrobotics/SPARK-MAX-Documentation 4b02473,
// software-resources/configuration-parameters.md: 80 A, 20 A, 10000 RPM;
// 115 A, "set to 0 to disable, the max value is 125"; 0 cycles). REV gives
// the smart limits no range: frcd takes 1-200 A and 0-20000 RPM.
var sparkLimitKeys = []config.Key{
	{Name: "smart_current_limit", Kind: config.Int, Default: 80, HasRange: true, Min: 1, Max: 200, Unit: "A",
		Doc: "REV's smart current limit at a stall (kSmartCurrentStallLimit, factory 80 A): the output current allowed below smart_current_rpm."},
	{Name: "smart_current_free_limit", Kind: config.Int, Default: 20, HasRange: true, Min: 1, Max: 200, Unit: "A",
		Doc: "REV's kSmartCurrentFreeLimit (factory 20 A): the limit at the motor's free speed; from smart_current_rpm up it goes linearly from smart_current_limit to this."},
	{Name: "smart_current_rpm", Kind: config.Int, Default: 10000, HasRange: true, Min: 0, Max: 20000, Unit: "RPM",
		Doc: "REV's kSmartCurrentConfig (factory 10000 RPM): the motor speed below which the limit is smart_current_limit; above the motor's free speed it turns the reduction off."},
	{Name: "secondary_current_limit", Kind: config.Float, Default: 115.0, HasRange: true, Min: 0, Max: 125, Unit: "A",
		Doc: "REV's secondary current limit (kCurrentChop, factory 115 A, at most 125, 0 off): above it the SPARK turns its output off for the rest of the PWM cycle and secondary_current_limit_cycles more."},
	{Name: "secondary_current_limit_cycles", Kind: config.Int, Default: 0, HasRange: true, Min: 0, Max: 65535, Doc: "REV's kCurrentChopCycles (factory 0, which REVLib recommends): extra 50 µs PWM cycles the output stays off after the secondary limit trips."},
}

// neutralOf is a neutral_mode key's value as a hal.NeutralMode.
func neutralOf(d *config.Device) hal.NeutralMode {
	switch d.Str("neutral_mode") {
	case "coast":
		return hal.NeutralCoast
	case "brake":
		return hal.NeutralBrake
	}
	return hal.NeutralDevice
}

// fxConfigOf is a Talon FX entry's neutral mode and current limits.
func fxConfigOf(d *config.Device) phoenix6.FXConfig {
	return phoenix6.FXConfig{Brake: neutralOf(d) == hal.NeutralBrake,
		StatorLimit: d.Float("stator_current_limit"), StatorLimitEnable: d.Bool("stator_current_limit_enable"),
		SupplyLimit: d.Float("supply_current_limit"), SupplyLimitEnable: d.Bool("supply_current_limit_enable"),
		SupplyLowerLimit: d.Float("supply_current_lower_limit"), SupplyLowerTime: d.Float("supply_current_lower_time")}
}

// fxConfigDiff names what a Talon FX holds that differs from what was
// applied; "" when nothing does.
func fxConfigDiff(want, got phoenix6.FXConfig) string {
	var out []string
	if want.Brake != got.Brake {
		out = append(out, fmt.Sprintf("neutral mode %s (configured %s)", brakeName(got.Brake), brakeName(want.Brake)))
	}
	for _, f := range []struct {
		name      string
		want, got float64
	}{
		{"stator_current_limit", want.StatorLimit, got.StatorLimit}, {"supply_current_limit", want.SupplyLimit, got.SupplyLimit},
		{"supply_current_lower_limit", want.SupplyLowerLimit, got.SupplyLowerLimit}, {"supply_current_lower_time", want.SupplyLowerTime, got.SupplyLowerTime},
	} {
		if d := f.want - f.got; d > 1e-3 || d < -1e-3 {
			out = append(out, fmt.Sprintf("%s %g (configured %g)", f.name, f.got, f.want))
		}
	}
	if want.StatorLimitEnable != got.StatorLimitEnable {
		out = append(out, fmt.Sprintf("stator_current_limit_enable %v (configured %v)", got.StatorLimitEnable, want.StatorLimitEnable))
	}
	if want.SupplyLimitEnable != got.SupplyLimitEnable {
		out = append(out, fmt.Sprintf("supply_current_limit_enable %v (configured %v)", got.SupplyLimitEnable, want.SupplyLimitEnable))
	}
	return strings.Join(out, ", ")
}

func brakeName(b bool) string {
	if b {
		return "brake"
	}
	return "coast"
}

// p5ConfigOf is a Phoenix 5 entry's neutral mode and, on a Talon SRX
// (limits), its current limit.
func p5ConfigOf(d *config.Device, limits bool) hal.CANMotorConfig {
	c := hal.CANMotorConfig{Neutral: neutralOf(d), HasCurrentLimit: limits}
	if limits {
		c.CurrentLimit, c.PeakA, c.PeakMs, c.ContinuousA = d.Bool("current_limit_enable"), d.Int("peak_current_limit"), d.Int("peak_current_duration"), d.Int("continuous_current_limit")
	}
	return c
}

// p5ConfigDiff names what a Phoenix 5 controller holds that differs from
// what was applied (the neutral mode only when it can say); "" when
// nothing does.
func p5ConfigDiff(want, got hal.CANMotorConfig, neutralKnown bool) string {
	var out []string
	if neutralKnown && want.Neutral != hal.NeutralDevice && want.Neutral != got.Neutral {
		out = append(out, fmt.Sprintf("neutral mode %s (configured %s)", got.Neutral, want.Neutral))
	}
	if want.HasCurrentLimit && (want.CurrentLimit != got.CurrentLimit || want.PeakA != got.PeakA || want.PeakMs != got.PeakMs || want.ContinuousA != got.ContinuousA) {
		out = append(out, fmt.Sprintf("current limit %v, peak %d A for %d ms, continuous %d A (configured %v, %d A, %d ms, %d A)",
			got.CurrentLimit, got.PeakA, got.PeakMs, got.ContinuousA, want.CurrentLimit, want.PeakA, want.PeakMs, want.ContinuousA))
	}
	return strings.Join(out, ", ")
}

// notApplied is the note of a controller whose backend cannot apply its
// neutral mode and current limits: the device keeps what it has saved.
func notApplied(tool string) string {
	return "neutral mode and current limits not applied: this backend cannot set them; the controller keeps what it has saved (set it with " + tool + ")"
}

// configNote marks r with a configuration note: a warning, unless r is
// a warning or an error already (whose message stays).
func configNote(r hal.Report, note string) hal.Report {
	if note == "" {
		return r
	}
	r.Values = append(r.Values, [2]string{"configuration", note})
	if !r.Error && !r.Warn {
		r.Warn, r.Message = true, note
	}
	return r
}
