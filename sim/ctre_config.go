package sim

import (
	"fmt"

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
// factory configuration (Phoenix 5: coast, no current limit, as the
// emulation starts; a Talon FX: fxFactory and zero gains), the values an
// apply not saved to flash set being RAM-only in this emulation, and
// says so once through HasResetOccurred (CTRE's ParentDevice /
// BaseMotorController HasResetOccurred: "true if device has reset since
// the previous call of this routine").

var errConfigTimeout = fmt.Errorf("sim: CTRE motor controller: config not answered: %w", hal.ErrTimeout)

var (
	_ interface{ HasResetOccurred() (bool, error) } = (*canMotor)(nil)
	_ interface{ HasResetOccurred() (bool, error) } = (*talonFX)(nil)
)

// rebootNow reboots the controller (node.reboot, under s.mu): factory
// configuration, output neutral, a reset to report.
func (m *canMotor) rebootNow() {
	m.reset = true
	m.duty, m.set = 0, false
	if m.model == frc.TalonFX {
		m.fxCfg, m.drive = fxFactory, fxLimits(fxFactory)
		if m.fx != nil {
			m.fx.gains = [3]phoenix6.FXGains{}
			m.fx.req = phoenix6.FXControl{}
		}
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
