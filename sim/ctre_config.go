package sim

import (
	"fmt"
	"math"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
)

// What the emulated CTRE motor controllers do with their configuration
// when they cannot answer or reboot. A silent controller (SetCANSilent, a
// CANFault: cut off the bus, or unpowered) answers no config apply or
// read: each times out (errConfigTimeout), as Phoenix's own do (Phoenix
// 5's RxTimeout, Phoenix 6's EcuIsNotPresent) after their timeout. A
// rebooted one (RebootCAN: a brown-out or power cycle) is back at its
// factory configuration if it is a Phoenix 5 one (coast, no current
// limit, as the emulation starts: the values an apply not saved to flash
// set being RAM-only in this emulation), while a Talon FX keeps its
// configs and loses its rotor's whole turns (rebootNow); either says so
// once through HasResetOccurred (CTRE's ParentDevice /
// BaseMotorController HasResetOccurred: "true if device has reset since
// the previous call of this routine").

var errConfigTimeout = fmt.Errorf("sim: CTRE motor controller: config not answered: %w", hal.ErrTimeout)

var (
	_ interface{ HasResetOccurred() (bool, error) } = (*canMotor)(nil)
	_ interface{ HasResetOccurred() (bool, error) } = (*talonFX)(nil)
)

// rebootNow reboots the controller (node.reboot, under s.mu): output
// neutral, a reset to report. A Phoenix 5 controller is back at its
// factory configuration. A Talon FX keeps its configs (neutral mode,
// current limits, gains): Phoenix 6 configs are persistent ("Devices
// support persistent settings through the use of configs",
// Phoenix6-Documentation docs/api-reference/api-usage/configuration.rst);
// but its rotor position restarts at the rotor's absolute position,
// within one rotation ("The Talon FX and CANcoder sensors are always
// initialized to their absolute position in Phoenix 6", the migration
// guide's feature-replacements-guide.rst): the whole rotations counted
// are lost (fxZero).
func (m *canMotor) rebootNow() {
	m.reset = true
	m.duty, m.set = 0, false
	if m.model == frc.TalonFX {
		if m.fx != nil {
			m.fx.req, m.fx.integ = phoenix6.FXControl{}, 0
		}
		abs, _ := m.rotor()
		m.fxZero = math.Floor(abs + m.fxZero)
		return
	}
	m.cfg = hal.CANMotorConfig{}
	m.drive = driveLimits{}
}

// HasResetOccurred reports whether the controller has rebooted since the
// last call, and clears it.
func (m *canMotor) HasResetOccurred() (bool, error) {
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	r := m.reset
	m.reset = false
	return r, nil
}

// HasResetOccurred is the Talon FX's (canMotor's).
func (t *talonFX) HasResetOccurred() (bool, error) { return t.m.HasResetOccurred() }
