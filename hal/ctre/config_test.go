//go:build (ctre || roborio) && cgo

package ctre

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
)

// A Talon FX's neutral mode and current limits go out in one config
// apply, each config by its phoenix6 26.1.0 SPN and of its config group's
// kind (MotorOutputConfigs.NeutralMode an int, NeutralModeValue BRAKE 1;
// CurrentLimitsConfigs' limits and lower time doubles, the enables
// bools), as a group alone (futureProofConfigs false); they are read
// back from the device's configs, and a value the device holds otherwise
// is read as it holds it.
func TestTalonFXConfig(t *testing.T) {
	f := open(t, Options{}, "cfg 0x10007 2000 1") // another config, kept
	fx, err := f.l.OpenTalonFX("", 7)
	if err != nil {
		t.Fatal(err)
	}
	f.expect(opened(7, "talon fx", "", "0x10007")...)
	want := phoenix6.FXConfig{Brake: true, StatorLimit: 80, StatorLimitEnable: true, SupplyLimit: 60, SupplyLimitEnable: true,
		SupplyLowerLimit: 40, SupplyLowerTime: 1}
	if err := fx.(phoenix6.FXConfigurer).ApplyConfig(want); err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, c := range []string{"int 1904 1", "double 1906 80", "bool 1907 1", "double 1908 60", "bool 1909 1", "double 1992 40", "double 1993 1"} {
		calls = append(calls, "c_ctre_phoenix6_serialize_"+c, "c_ctre_phoenix6_free_memory")
	}
	f.expect(append(calls, `c_ctre_phoenix6_set_configs 0 "" 0x10007 0.1 "1904=1;1906=80;1907=1;1908=60;1909=1;1992=40;1993=1;" 52 000`)...)

	got, err := fx.(phoenix6.FXConfigurer).Config()
	if err != nil || got != want {
		t.Fatalf("Config() = %+v, %v; want %+v", got, err, want)
	}
	calls = []string{`c_ctre_phoenix6_get_configs 0 "" 0x10007 0.1 0`}
	for _, c := range []string{"int 1904", "double 1906", "bool 1907", "double 1908", "bool 1909", "double 1992", "double 1993"} {
		calls = append(calls, "c_ctre_phoenix6_deserialize_"+c)
	}
	f.expect(append(calls, "c_ctre_phoenix6_free_memory")...)

	// Coast and the limits off; then the device holding a lower stator
	// limit than applied (Tuner X, another program), read as it holds it.
	coast := phoenix6.FXConfig{StatorLimit: 120, SupplyLimit: 70, SupplyLowerLimit: 40, SupplyLowerTime: 1}
	if err := fx.(phoenix6.FXConfigurer).ApplyConfig(coast); err != nil {
		t.Fatal(err)
	}
	f.set("cfg 0x10007 1906 50")
	got, err = fx.(phoenix6.FXConfigurer).Config()
	if coast.StatorLimit = 50; err != nil || got != coast {
		t.Errorf("Config() = %+v, %v; want %+v", got, err, coast)
	}

	f.set("fail c_ctre_phoenix6_get_configs 3")
	if _, err := fx.(phoenix6.FXConfigurer).Config(); err == nil || !strings.Contains(err.Error(), "c_ctre_phoenix6_get_configs: status 3") {
		t.Errorf("a failed read: %v", err)
	}
	f.set("fail c_ctre_phoenix6_set_configs 5")
	if err := fx.(phoenix6.FXConfigurer).ApplyConfig(want); err == nil || !strings.Contains(err.Error(), "status 5") {
		t.Errorf("a failed apply: %v", err)
	}
	if err := fx.(phoenix6.FXConfigurer).ApplyConfig(phoenix6.FXConfig{StatorLimit: math.NaN()}); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("a NaN limit: %v", err)
	}
}

// A config the device does not send back is an error, not a zero.
func TestTalonFXConfigMissing(t *testing.T) {
	f := open(t, Options{})
	fx, err := f.l.OpenTalonFX("", 8)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fx.(phoenix6.FXConfigurer).Config(); err == nil || !strings.Contains(err.Error(), "c_ctre_phoenix6_get_configs: status 1") {
		t.Errorf("no configs held: %v", err)
	}
}

// A Talon SRX's neutral mode (Phoenix 5's NeutralMode: Coast 1, Brake 2)
// and current limit (peak, duration, continuous, then EnableCurrentLimit)
// are applied; the limit is read back through ConfigGetParameter
// (ParamEnum 362, 361, 360), the neutral mode is not (Phoenix 5 cannot).
// A Victor SPX takes its neutral mode only; NeutralDevice sends none.
func TestPhoenix5Config(t *testing.T) {
	f := open(t, Options{})
	srx, err := f.l.OpenCANMotor(frc.TalonSRX, 3)
	if err != nil {
		t.Fatal(err)
	}
	spx, err := f.l.OpenCANMotor(frc.VictorSPX, 4)
	if err != nil {
		t.Fatal(err)
	}
	f.expect("c_MotController_Create1 0x2040003", "c_MotController_Create1 0x1040004")
	want := hal.CANMotorConfig{Neutral: hal.NeutralBrake, HasCurrentLimit: true, CurrentLimit: true, PeakA: 60, PeakMs: 100, ContinuousA: 40}
	if err := srx.(hal.CANMotorConfigurer).ApplyConfig(want); err != nil {
		t.Fatal(err)
	}
	f.expect("c_MotController_SetNeutralMode 0x2040003 2", "c_MotController_ConfigPeakCurrentLimit 0x2040003 60 30",
		"c_MotController_ConfigPeakCurrentDuration 0x2040003 100 30", "c_MotController_ConfigContinuousCurrentLimit 0x2040003 40 30",
		"c_MotController_EnableCurrentLimit 0x2040003 1")
	got, known, err := srx.(hal.CANMotorConfigurer).Config()
	if err != nil || known || got.CurrentLimit != true || got.PeakA != 60 || got.PeakMs != 100 || got.ContinuousA != 40 {
		t.Errorf("Config() = %+v, %v, %v", got, known, err)
	}
	f.expect("c_MotController_ConfigGetParameter 0x2040003 362 0 30", "c_MotController_ConfigGetParameter 0x2040003 361 0 30",
		"c_MotController_ConfigGetParameter 0x2040003 360 0 30")

	if err := spx.(hal.CANMotorConfigurer).ApplyConfig(hal.CANMotorConfig{Neutral: hal.NeutralCoast, HasCurrentLimit: true, CurrentLimit: true, PeakA: 1}); err != nil {
		t.Fatal(err)
	}
	f.expect("c_MotController_SetNeutralMode 0x1040004 1")
	if got, known, err := spx.(hal.CANMotorConfigurer).Config(); err != nil || known || got.HasCurrentLimit {
		t.Errorf("Victor SPX Config() = %+v, %v, %v", got, known, err)
	}
	if err := spx.(hal.CANMotorConfigurer).ApplyConfig(hal.CANMotorConfig{}); err != nil {
		t.Fatal(err)
	}
	f.expect() // NeutralDevice: the saved setting stays

	f.set("fail c_MotController_ConfigPeakCurrentDuration 7")
	if err := srx.(hal.CANMotorConfigurer).ApplyConfig(want); err == nil || !strings.Contains(err.Error(), "status 7") {
		t.Errorf("a failed config: %v", err)
	}
}
