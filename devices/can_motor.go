package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

// canMotor drives a CTRE motor controller on the CAN bus through
// hal.CANMotor. Their wire protocol is closed (PROTOCOLS.md: the frame
// layouts live only in CTRE's Phoenix libraries), so this driver speaks no
// frames itself: on a robot a backend must put CTRE Phoenix behind
// hal.CANMotor; the sim emulates the controllers behind the same
// interface.
//
// A voltage command becomes a duty cycle of the controller's own bus
// voltage (read from Status in Read; the roboRIO's Vin when Status fails
// or reports less than 4.5 V), clamped to [-1, 1] and negated when
// inverted. Neutral (no command, or one not finite) and Halt are duty 0.
type canMotor struct {
	name     string
	m        hal.CANMotor
	power    hal.Power
	inverted bool

	bus   float64 // V, from the last Status
	busOK bool

	cmd   interfaces.JointCommand
	volts interfaces.AnalogState

	rErr, wErr, hErr opError

	cfgNote, diagName string // the neutral mode and current limit not as configured, for Report

	// setup applies the neutral mode and current limit off the loop
	// (ctreSetup); nil when there is nothing to apply.
	setup *ctreSetup
}

var (
	_ Device       = (*canMotor)(nil)
	_ hal.Reporter = (*canMotor)(nil)
	_ Configurer   = (*canMotor)(nil)
)

// newCANMotor binds a controller of that hal model (frc.TalonSRX or
// frc.VictorSPX) at CAN id `id`, and applies its neutral mode and, with
// limits (a Talon SRX), its current limit (p5ConfigOf), reading back
// what Phoenix 5 can read: off the loop, by Configure (ctreSetup), the
// controller kept neutral until they are in. Nothing is applied when the
// entry asks for Phoenix 5's defaults (the saved neutral mode, no current
// limit).
func newCANMotor(model string, limits bool, d *config.Device, env *Env) (Device, error) {
	m, err := hal.OpenCANMotor(env.HAL, d.CANBus(), model, d.Int("id"))
	if err != nil {
		return nil, fmt.Errorf("CAN motor controller %d: %w", d.Int("id"), err)
	}
	c := &canMotor{
		name: d.Name, m: m, power: env.HAL, inverted: d.Bool("inverted"),
		rErr: newOpError(d, "read status"), wErr: newOpError(d, "write"), hErr: newOpError(d, "halt"),
		diagName: fmt.Sprintf("%s (%s %d)", d.Name, d.Type.Class, d.Int("id")),
	}
	if want := p5ConfigOf(d, limits); want.Neutral != hal.NeutralDevice || want.CurrentLimit {
		if _, ok := m.(hal.CANMotorConfigurer); ok {
			c.setup = newCTRESetup(d, "neutral mode and current limit", m, func() (string, error) { return applyP5Config(m, want) })
		} else {
			c.cfgNote = notApplied("Phoenix Tuner X, or the B/C CAL button")
		}
	}
	if err := registerVoltage(env, d.Name, &c.volts, &c.cmd); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *canMotor) Name() string { return c.name }

// Read takes the controller's bus voltage from its status; while its
// configuration is not in, it fails with the setup's error instead.
func (c *canMotor) Read(now, dt time.Duration) error {
	if c.setup != nil {
		if err := c.setup.pending(now); err != nil {
			c.busOK = false
			return err
		}
	}
	st, err := c.m.Status()
	if err != nil {
		c.busOK = false
		return c.rErr.wrap(err)
	}
	c.bus, c.busOK = st.BusVoltage, usableSupply(st.BusVoltage)
	return nil
}

func (c *canMotor) Write(now, dt time.Duration) error {
	if c.setup != nil && !c.setup.Configured() {
		return c.Halt() // neutral until its neutral mode and limit are in
	}
	supply := c.bus
	if !c.busOK {
		supply = supplyVolts(c.power)
	}
	duty := commandDuty(&c.cmd, supply)
	c.volts.Value = duty * supply
	if c.inverted {
		duty = -duty
	}
	return c.wErr.wrap(c.m.SetDuty(duty))
}

// Report says, only when there is something to say, that the
// controller's neutral mode or current limit is not as configured.
func (c *canMotor) Report(dst []hal.Report) []hal.Report {
	if c.setup != nil {
		return append(dst, c.setup.report(hal.Report{Name: c.diagName}))
	}
	if c.cfgNote == "" {
		return dst
	}
	return append(dst, configNote(hal.Report{Name: c.diagName}, c.cfgNote))
}

// applyP5Config applies a Phoenix 5 controller's configuration and reads
// back what it can: the note names what it holds otherwise, or that the
// backend cannot apply it.
func applyP5Config(m hal.CANMotor, want hal.CANMotorConfig) (note string, err error) {
	c, ok := m.(hal.CANMotorConfigurer)
	if !ok {
		return notApplied("Phoenix Tuner X, or the B/C CAL button"), nil
	}
	if err := c.ApplyConfig(want); err != nil {
		return "", err
	}
	got, known, err := c.Config()
	if err != nil {
		return "", fmt.Errorf("reading it back: %w", err)
	}
	if d := p5ConfigDiff(want, got, known); d != "" {
		return "the controller holds " + d, nil
	}
	return "", nil
}

// Configure applies the neutral mode and current limit off the loop
// (ctreSetup).
func (c *canMotor) Configure(now time.Duration) {
	if c.setup != nil {
		c.setup.Configure(now)
	}
}

// Configured reports whether the neutral mode and current limit are in
// (true when there are none to apply).
func (c *canMotor) Configured() bool { return c.setup == nil || c.setup.Configured() }

func (c *canMotor) Halt() error {
	c.volts.Value = 0
	return c.hErr.wrap(c.m.SetDuty(0))
}
