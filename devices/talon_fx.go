package devices

import (
	"fmt"
	"sync"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(talonFxDriver) }

// talonFxDriver declares the type: its keys and facts, driver, CAN traffic
// and HAL needs.
var talonFxDriver = Driver{Type: talonFXType, New: newTalonFX, CAN: &CANTraffic{Kind: canTalonFX, NumberKey: "id"}, Needs: phoenix6.Cap}

var talonFXType = withKeys(&config.Type{
	Name: "talon_fx", Class: "TalonFX", Group: "speed controller",
	Summary: "A CTRE Talon FX (Falcon 500, Kraken X60/X44) on the CAN bus, through CTRE's Phoenix 6.",
	Doc: "State: name/voltage (V applied), name/effort (stator current × k_eff: the joint's effort), and its integrated rotor sensor as name/rate (RateState: position and velocity " +
		"through sensor_to_mechanism_ratio and distance_per_rotation) and name/analog (position), which give its joint " +
		"position and velocity when no sensor on the joint does. Command: name/voltage (V, VoltageOut); position, velocity and " +
		"effort commands run through the controllers' PID on the roboRIO. With closed_loop: device, name/position (rad or m) " +
		"and name/velocity (rad/s or m/s) command handles run the Talon's own PositionVoltage and VelocityVoltage with slot 0's " +
		"gains kp, ki, kd, kv, ks (Phoenix 6 units: V per rotor rotation, per rotation/s...), applied at start.",
	Place: config.DrivesJoint, Provides: config.Position | config.Velocity,
	Keys: []config.Key{
		canID, p6InvertedKey, config.SensorRatioKey, config.DistancePerRotationKey,
		{Name: "k_eff", Kind: config.Float, Default: 1.0, Unit: "N·m/A or N/A", Doc: "The stator current to effort scaling (motor torque per amp times the gear reduction): the stator current × k_eff is name/effort, its joint's effort, signed like the applied voltage."},
		config.ClosedLoopKey,
		{Name: "kp", Kind: config.Float, Default: 0.0, Doc: "Slot 0 proportional gain, V per rotor rotation of error (closed_loop: device)."},
		{Name: "ki", Kind: config.Float, Default: 0.0, Doc: "Slot 0 integral gain, V per rotor rotation·s (closed_loop: device)."},
		{Name: "kd", Kind: config.Float, Default: 0.0, Doc: "Slot 0 derivative gain, V per rotor rotation/s (closed_loop: device)."},
		{Name: "kv", Kind: config.Float, Default: 0.0, Doc: "Slot 0 velocity feed forward, V per rotor rotation/s (closed_loop: device)."},
		{Name: "ks", Kind: config.Float, Default: 0.0, Doc: "Slot 0 static feed forward, V (closed_loop: device)."},
		config.CANBusKey, config.RequiredKey,
	},
	Check: func(d *config.Device, c *config.Checker) { config.CheckDeviceGains(d, c, "kp", "ki", "kd", "kv", "ks") },
	Facts: config.Facts{Speed: true, CAN: true, Joint: config.RateSource, EffortState: true},
}, "Its neutral mode and current limits (Phoenix 6's NeutralMode, StatorCurrentLimit, SupplyCurrentLimit and their enables, "+
	"SupplyCurrentLowerLimit and Time; CTRE's defaults when left out) are applied at start and read back; a value the Talon does not "+
	"hold, or a backend that cannot apply them, is a warning on /diagnostics. Its signal rates and slot 0 gains are applied with them."+ctreSetupDoc+
	" After a reboot its rotor position restarts within one rotation (CTRE: at the rotor's absolute position): frcd holds it neutral, "+
	"with no position, until it has asked whether it rebooted (its sticky BootDuringEnable fault), then carries the whole rotations "+
	"lost so the joint's position stays continuous (logged, a warning on /diagnostics; device position set points shifted); a CAN "+
	"dropout carries nothing.", append([]config.Key{p6NeutralKey}, p6LimitKeys...)...)

// talonFX drives a CTRE Talon FX through phoenix6.TalonFX (CTRE's Phoenix 6 C
// interface on a robot, the sim's emulation behind the same interface).
// A voltage command is a VoltageOut of that many volts (negated when
// inverted; unset or not finite: NeutralOut). With closed_loop: device a
// set position or velocity command wins over voltage and goes out as a
// PositionVoltage or VelocityVoltage in rotor rotations (joint / the
// joint distance of a rotor rotation), slot 0. Halt is NeutralOut.
// Read takes the rotor's position and velocity into name/rate and the
// supply voltage; a stale status is hal.ErrTimeout from the HAL.
type talonFX struct {
	name    string
	fx      phoenix6.TalonFX
	perRot  float64 // joint distance per rotor rotation, signed by inverted
	inv     float64 // -1 when inverted
	devLoop bool
	devRan  bool // the last Write sent a position or velocity request

	cmd, posCmd, velCmd interfaces.JointCommand
	volts               interfaces.AnalogState
	effort              interfaces.AnalogState // stator current × kEff
	kEff                float64
	rate                interfaces.RateState
	pos                 interfaces.AnalogState
	status              phoenix6.FXStatus

	rErr, wErr, hErr opError

	// setup applies the signal rates, neutral mode, current limits and
	// gains off the loop (ctreSetup).
	setup *ctreSetup
	// carry keeps the position continuous across a reboot (the loop's).
	carry fxCarry

	// diag is the last status read, for Report (another goroutine).
	mu       sync.Mutex
	diag     phoenix6.FXStatus
	id       int
	seen     bool
	carries  int     // positions carried over a reboot (fxCarry)
	carryOff float64 // the offset now, rotor rotations
	events   []string
}

var (
	_ Device       = (*talonFX)(nil)
	_ hal.Reporter = (*talonFX)(nil)
	_ Configurer   = (*talonFX)(nil)
)

func newTalonFX(d *config.Device, env *Env) (Device, error) {
	p6, err := phoenix6.Open(env.HAL)
	if err != nil {
		return nil, err
	}
	fx, err := p6.OpenTalonFX(d.CANBus(), d.Int("id"))
	if err != nil {
		return nil, fmt.Errorf("Talon FX %d: %w", d.Int("id"), err)
	}
	t := &talonFX{name: d.Name, fx: fx, id: d.Int("id"), perRot: d.JointPerRotation(), inv: 1, devLoop: d.ClosesLoop(),
		rErr: newOpError(d, "read status"), wErr: newOpError(d, "write"), hErr: newOpError(d, "halt"), carry: newFXCarry(d)}
	if d.Bool("inverted") {
		t.inv = -1
	}
	want, devLoop := fxConfigOf(d), t.devLoop
	g := phoenix6.FXGains{P: d.Float("kp"), I: d.Float("ki"), D: d.Float("kd"), V: d.Float("kv"), S: d.Float("ks")}
	what := "signal rates, neutral mode and current limits"
	if devLoop {
		what = "signal rates, neutral mode, current limits and slot 0 gains"
	}
	t.setup = newCTRESetup(d, what, fx, func() (string, error) {
		if err := phoenix6.SetSignalRates(fx); err != nil {
			return "", fmt.Errorf("setting its signals' update frequencies: %w", err)
		}
		note, err := applyFXConfig(fx, want)
		if err != nil {
			return "", fmt.Errorf("applying its neutral mode and current limits: %w", err)
		}
		if devLoop {
			if err := fx.SetGains(0, g); err != nil {
				return "", fmt.Errorf("applying slot 0 gains: %w", err)
			}
		}
		return note, nil
	})
	if err := registerVoltage(env, d.Name, &t.volts, &t.cmd); err != nil {
		return nil, err
	}
	if err := registerRate(env, d.Name, &t.rate, &t.pos); err != nil {
		return nil, err
	}
	t.kEff = d.Float("k_eff")
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.Effort, &t.effort); err != nil {
		return nil, err
	}
	if t.devLoop {
		if err := interfaces.RegisterCommand(env.Handles, d.Name, d.Name, interfaces.Position, &t.posCmd); err != nil {
			return nil, err
		}
		if err := interfaces.RegisterCommand(env.Handles, d.Name, d.Name, interfaces.Velocity, &t.velCmd); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (t *talonFX) Name() string { return t.name }

// Read takes the rotor sensor and supply voltage from the Talon's status;
// while its configuration is not in, it fails with the setup's error
// instead (ctreSetup); while a sign of a reboot is decided, with the
// carry's (fxCarry).
func (t *talonFX) Read(now, dt time.Duration) error {
	if err := t.setup.pending(now); err != nil {
		t.carry.gap = true
		return err
	}
	st, err := t.fx.Status()
	if err != nil {
		t.carry.gap = true
		return t.rErr.wrap(err)
	}
	if !interfaces.Finite(st.Position) || !interfaces.Finite(st.Velocity) {
		t.carry.gap = true
		return t.rErr.wrap(errNotFinite)
	}
	pos, err := t.position(st.Position, st.Velocity, now)
	if err != nil {
		return err
	}
	t.status = st
	t.mu.Lock()
	t.diag, t.seen = st, true
	t.mu.Unlock()
	if t.devRan { // the Talon decides the voltage: take what it applies
		t.volts.Value = st.MotorVoltage * t.inv
	}
	t.rate.State, t.rate.Rate = pos*t.perRot, st.Velocity*t.perRot
	t.pos.Value = t.rate.State
	t.effort.Value = signedEffort(st.StatorCurrent, t.kEff, t.volts.Value)
	return nil
}

func (t *talonFX) Write(now, dt time.Duration) error {
	if !t.setup.Configured() || t.carry.pending {
		return t.Halt() // neutral until its configuration is in and its position known
	}
	c := phoenix6.FXControl{}
	t.devRan = false
	switch {
	case t.devLoop && t.posCmd.Set && interfaces.Finite(t.posCmd.Value):
		// In the Talon's own count: less the offset carried over reboots.
		c = phoenix6.FXControl{Mode: phoenix6.FXPosition, Value: t.posCmd.Value/t.perRot - t.carry.off}
		t.devRan = true
	case t.devLoop && t.velCmd.Set && interfaces.Finite(t.velCmd.Value):
		c = phoenix6.FXControl{Mode: phoenix6.FXVelocity, Value: t.velCmd.Value / t.perRot}
		t.devRan = true
	case t.cmd.Set && interfaces.Finite(t.cmd.Value):
		v := t.cmd.Value
		if usableSupply(t.status.SupplyVoltage) { // the Talon cannot apply more than its supply
			v = max(-t.status.SupplyVoltage, min(t.status.SupplyVoltage, v))
		}
		c = phoenix6.FXControl{Mode: phoenix6.FXVoltage, Value: v * t.inv}
		t.volts.Value = v
	default:
		t.volts.Value = 0
	}
	return t.wErr.wrap(t.fx.Control(c))
}

// Report gives the Talon's health for /diagnostics (p6Report: its
// temperature, supply and faults, read now), with the currents the loop
// last read.
func (t *talonFX) Report(dst []hal.Report) []hal.Report {
	h, err := t.fx.Health()
	t.mu.Lock()
	st, seen := t.diag, t.seen
	t.mu.Unlock()
	var extra [][2]string
	if seen {
		extra = [][2]string{{"supply current (A)", fmt.Sprintf("%.1f", st.SupplyCurrent)}, {"stator current (A)", fmt.Sprintf("%.1f", st.StatorCurrent)},
			{"motor voltage (V)", fmt.Sprintf("%.2f", st.MotorVoltage)}}
	}
	return append(dst, t.carryReport(t.setup.report(p6Report(fmt.Sprintf("%s (Talon FX %d)", t.name, t.id), h, err, extra...))))
}

// Configure applies the Talon's configuration off the loop (ctreSetup).
func (t *talonFX) Configure(now time.Duration) { t.setup.Configure(now) }

// Configured reports whether the Talon's configuration is in.
func (t *talonFX) Configured() bool { return t.setup.Configured() }

// Asked reports whether the loop is asking the Talon whether it has reset
// (AskedConfigurer).
func (t *talonFX) Asked() bool { return t.setup.Asked() }

// applyFXConfig applies a Talon FX's neutral mode and current limits and
// reads them back: the note names what it holds otherwise, or that the
// backend cannot apply them.
func applyFXConfig(fx phoenix6.TalonFX, want phoenix6.FXConfig) (note string, err error) {
	c, ok := fx.(phoenix6.FXConfigurer)
	if !ok {
		return notApplied("Phoenix Tuner X"), nil
	}
	if err := c.ApplyConfig(want); err != nil {
		return "", err
	}
	got, err := c.Config()
	if err != nil {
		return "", fmt.Errorf("reading them back: %w", err)
	}
	if d := fxConfigDiff(want, got); d != "" {
		return "the Talon holds " + d, nil
	}
	return "", nil
}

func (t *talonFX) Halt() error {
	t.volts.Value, t.devRan = 0, false
	return t.hErr.wrap(t.fx.Control(phoenix6.FXControl{}))
}
