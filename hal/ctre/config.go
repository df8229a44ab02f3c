//go:build (ctre || roborio) && cgo

package ctre

/*
#include "phoenix.h"
*/
import "C"

import (
	"fmt"
	"math"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
)

// The configs a Talon FX's neutral mode and current limits are, in the
// order fxConfigValues writes them, with their kinds (FRCD_CFG_*): one
// config apply sends them all, one read takes them all back. Both run at
// start only, never in the loop.
var fxConfigSPNs = [...]C.int{spnCfgNeutralMode, spnCfgStatorLimit, spnCfgStatorLimitEnable, spnCfgSupplyLimit,
	spnCfgSupplyLimitEnable, spnCfgSupplyLowerLimit, spnCfgSupplyLowerTime}

var fxConfigKinds = [len(fxConfigSPNs)]C.int{C.FRCD_CFG_INT, C.FRCD_CFG_DOUBLE, C.FRCD_CFG_BOOL, C.FRCD_CFG_DOUBLE,
	C.FRCD_CFG_BOOL, C.FRCD_CFG_DOUBLE, C.FRCD_CFG_DOUBLE}

// configTimeout is how long a config apply or read may take: 0.1 s, as
// the gains'.
const configTimeout = 0.1

var (
	_ phoenix6.FXConfigurer  = (*talonFX)(nil)
	_ hal.CANMotorConfigurer = (*p5Motor)(nil)
)

func fxConfigValues(c phoenix6.FXConfig) [len(fxConfigSPNs)]C.double {
	b := func(v bool) C.double {
		if v {
			return 1
		}
		return 0
	}
	return [...]C.double{b(c.Brake), C.double(c.StatorLimit), b(c.StatorLimitEnable), C.double(c.SupplyLimit),
		b(c.SupplyLimitEnable), C.double(c.SupplyLowerLimit), C.double(c.SupplyLowerTime)}
}

// ApplyConfig applies the Talon FX's neutral mode and current limits in
// one config apply, as a config group alone (the device keeps its other
// configs: frcd_p6_config).
func (t *talonFX) ApplyConfig(c phoenix6.FXConfig) error {
	for _, v := range []float64{c.StatorLimit, c.SupplyLimit, c.SupplyLowerLimit, c.SupplyLowerTime} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("ctre: Talon FX config %+v: limits must be finite and positive: %w", c, hal.ErrNoDevice)
		}
	}
	vals := fxConfigValues(c)
	return statusErr("c_ctre_phoenix6_set_configs",
		C.frcd_p6_config(t.d.bus, t.d.hash, C.int(len(vals)), &fxConfigSPNs[0], &fxConfigKinds[0], &vals[0], configTimeout))
}

// Config reads the Talon FX's neutral mode and current limits back from
// the device (c_ctre_phoenix6_get_configs).
func (t *talonFX) Config() (phoenix6.FXConfig, error) {
	var v [len(fxConfigSPNs)]C.double
	if err := statusErr("c_ctre_phoenix6_get_configs",
		C.frcd_p6_read_configs(t.d.bus, t.d.hash, C.int(len(v)), &fxConfigSPNs[0], &fxConfigKinds[0], &v[0], configTimeout)); err != nil {
		return phoenix6.FXConfig{}, err
	}
	return phoenix6.FXConfig{Brake: v[0] == 1, StatorLimit: float64(v[1]), StatorLimitEnable: v[2] != 0,
		SupplyLimit: float64(v[3]), SupplyLimitEnable: v[4] != 0, SupplyLowerLimit: float64(v[5]), SupplyLowerTime: float64(v[6])}, nil
}

// p5ConfigMs is how long each Phoenix 5 config may take to be answered:
// CTRE's examples' kTimeoutMs, 30 ms.
const p5ConfigMs = 30

// ApplyConfig applies a Phoenix 5 controller's neutral mode (Coast or
// Brake; NeutralDevice leaves the saved setting) and, on a Talon SRX, its
// current limit.
func (m *p5Motor) ApplyConfig(c hal.CANMotorConfig) error {
	neutral := 0 // Phoenix 5's NeutralMode: EEPROMSetting 0, Coast 1, Brake 2
	switch c.Neutral {
	case hal.NeutralCoast:
		neutral = 1
	case hal.NeutralBrake:
		neutral = 2
	}
	limits := m.limits && c.HasCurrentLimit
	l := 0
	if limits {
		l = 1
	}
	if err := statusErr("c_MotController_Config*CurrentLimit", C.frcd_p5_config(m.h, C.int(neutral), C.int(l), C.bool(c.CurrentLimit),
		C.int(c.PeakA), C.int(c.PeakMs), C.int(c.ContinuousA), p5ConfigMs)); err != nil {
		return err
	}
	if limits {
		m.enabled = c.CurrentLimit
	}
	return nil
}

// Config reads a Talon SRX's current limit back (ConfigGetParameter);
// Phoenix 5 has no getter for the neutral mode (neutralKnown false) nor
// for EnableCurrentLimit, which is a setting of the API's control frame:
// it is the one last applied. A Victor SPX has no limit to read.
func (m *p5Motor) Config() (hal.CANMotorConfig, bool, error) {
	if !m.limits {
		return hal.CANMotorConfig{}, false, nil
	}
	var peak, ms, cont C.double
	if err := statusErr("c_MotController_ConfigGetParameter", C.frcd_p5_read_limits(m.h, &peak, &ms, &cont, p5ConfigMs)); err != nil {
		return hal.CANMotorConfig{}, false, err
	}
	return hal.CANMotorConfig{HasCurrentLimit: true, CurrentLimit: m.enabled,
		PeakA: int(math.Round(float64(peak))), PeakMs: int(math.Round(float64(ms))), ContinuousA: int(math.Round(float64(cont)))}, false, nil
}

// HasResetOccurred is Phoenix 5's BaseMotorController::HasResetOccurred
// (c_MotController_HasResetOccurred, MotController_CCI.h): whether the
// controller has reset (a brown-out, a power cycle) since the last call,
// when what it keeps in RAM (EnableCurrentLimit, SetNeutralMode) is lost.
// Not on the loop: the devices' configuration goroutine asks.
func (m *p5Motor) HasResetOccurred() (bool, error) {
	var r C.bool
	if err := statusErr("c_MotController_HasResetOccurred", C.frcd_p5_has_reset(m.h, &r)); err != nil {
		return false, err
	}
	return bool(r), nil
}
