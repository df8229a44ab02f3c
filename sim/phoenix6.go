package sim

import (
	"fmt"
	"math"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
)

// The sim's CTRE Phoenix 6 devices, behind phoenix6.Provider as hal/ctre puts
// CTRE's C interface: a Talon FX is an emulated CAN motor controller
// (canMotor, model frc.TalonFX) whose output its control request decides
// on every substep, closing position and velocity loops on its rotor as
// the device does; a CANcoder reads its joint; a Pigeon 2 is an emulated
// IMU like a Pigeon's.

var (
	_ phoenix6.Provider     = (*Sim)(nil)
	_ phoenix6.TalonFX      = (*talonFX)(nil)
	_ phoenix6.FXConfigurer = (*talonFX)(nil)
	_ phoenix6.CANcoder     = (*cancoder)(nil)

	errCANcoderTimeout = fmt.Errorf("sim: CANcoder: no status: %w", hal.ErrTimeout)
	errP6Timeout       = fmt.Errorf("sim: Phoenix 6 device: no health signals: %w", hal.ErrTimeout)
)

// fxLoop is a Talon FX's control request and gains, applied by
// canMotor.effective.
type fxLoop struct {
	req   phoenix6.FXControl
	gains [3]phoenix6.FXGains
	integ float64       // the integral of the error, rotations·s or rotations
	last  time.Duration // when it was last integrated
}

// talonFX is the phoenix6.TalonFX of an emulated Talon FX.
type talonFX struct{ m *canMotor }

// OpenTalonFX opens the emulated Talon FX at CAN id id on bus.
func (s *Sim) OpenTalonFX(bus string, id int) (phoenix6.TalonFX, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id < 0 || id > maxCANID {
		return nil, noChannel("CAN id", id, maxCANID+1)
	}
	m := s.canMotorFor(bus, frc.TalonFX, id)
	if m.model != frc.TalonFX {
		return nil, fmt.Errorf("sim: CAN id %d is a %s, not a Talon FX: %w", id, m.model, hal.ErrNoDevice)
	}
	if m.open {
		return nil, inUse("Talon FX", id)
	}
	m.open = true
	if m.fx == nil {
		m.fx = &fxLoop{}
	}
	return &talonFX{m: m}, nil
}

// Control takes the request, as the device does on its control frame; a
// silent device never hears it.
func (t *talonFX) Control(c phoenix6.FXControl) error {
	if math.IsNaN(c.Value) || math.IsInf(c.Value, 0) || math.IsNaN(c.FeedForward) || math.IsInf(c.FeedForward, 0) {
		return errDuty
	}
	m := t.m
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	if m.silent() {
		return nil
	}
	if c.Mode != m.fx.req.Mode || c.Slot != m.fx.req.Slot {
		m.fx.integ = 0
	}
	c.Slot = max(0, min(2, c.Slot))
	m.fx.req, m.at, m.set = c, m.s.t, true
	return nil
}

// SetGains sets slot's gains (a config apply).
func (t *talonFX) SetGains(slot int, g phoenix6.FXGains) error {
	if slot < 0 || slot > 2 {
		return fmt.Errorf("sim: gain slot %d (0-2): %w", slot, hal.ErrNoDevice)
	}
	t.m.s.mu.Lock()
	if t.m.silent() {
		t.m.s.mu.Unlock()
		return errConfigTimeout
	}
	t.m.fx.gains[slot] = g
	t.m.s.mu.Unlock()
	return nil
}

// fxFactory is a Talon FX's neutral mode and current limits as it comes:
// Phoenix 6's defaults (Coast; stator 120 A, supply 70 A lowered to 40 A
// after 1 s, both enabled).
var fxFactory = phoenix6.FXConfig{StatorLimit: 120, StatorLimitEnable: true, SupplyLimit: 70, SupplyLimitEnable: true, SupplyLowerLimit: 40, SupplyLowerTime: 1}

// ApplyConfig takes the neutral mode and current limits (a config apply).
func (t *talonFX) ApplyConfig(c phoenix6.FXConfig) error {
	m := t.m
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	if m.silent() {
		return errConfigTimeout
	}
	m.fxCfg, m.drive = c, fxLimits(c)
	return nil
}

// Config reads back the neutral mode and current limits.
func (t *talonFX) Config() (phoenix6.FXConfig, error) {
	m := t.m
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	if m.silent() {
		return phoenix6.FXConfig{}, errConfigTimeout
	}
	return m.fxCfg, nil
}

// fxLimits are a Talon FX configuration's driveLimits.
func fxLimits(c phoenix6.FXConfig) driveLimits {
	l := driveLimits{brake: c.Brake}
	if c.StatorLimitEnable {
		l.stator = c.StatorLimit
	}
	if c.SupplyLimitEnable {
		l.supply, l.lower, l.lowerTime = c.SupplyLimit, c.SupplyLowerLimit, c.SupplyLowerTime
	}
	return l
}

// Status reports the rotor (rotations of the motor shaft, in the
// device's direction), the supply, the currents and the temperature.
func (t *talonFX) Status() (phoenix6.FXStatus, error) {
	m := t.m
	s := m.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.silent() {
		return phoenix6.FXStatus{}, errMotorTimeout
	}
	st := phoenix6.FXStatus{SupplyVoltage: s.vTerm, Temperature: pdpTempC}
	if j := m.j; j != nil {
		st.MotorVoltage = j.duty * s.vTerm * j.sign // in the device's direction
	}
	if j := m.j; j != nil {
		st.Position, st.Velocity = m.rotor()
		st.StatorCurrent = math.Abs(j.current) // the motor's phase current
		st.SupplyCurrent = math.Abs(j.current * j.duty)
	}
	return st, nil
}

// rotor is the rotor's position and velocity in rotations and
// rotations/s, in the device's direction.
func (m *canMotor) rotor() (pos, vel float64) {
	j := m.j
	if j == nil {
		return 0, 0
	}
	k := j.gear / (2 * math.Pi) * j.sign
	return j.pos * k, j.vel * k
}

// fxDuty is the duty a Talon FX's request gives at now (the caller holds
// s.mu): open-loop requests directly, PositionVoltage and VelocityVoltage
// through the slot's gains on the rotor, as volts of the supply.
func (m *canMotor) fxDuty(now time.Duration) float64 {
	f := m.fx
	v := m.s.vTerm
	if !(v > 0) {
		return 0
	}
	pos, vel := m.rotor()
	g := f.gains[f.req.Slot]
	dt := 0.0
	if now > f.last {
		dt = (now - f.last).Seconds()
		f.last = now
	}
	var volts float64
	switch f.req.Mode {
	case phoenix6.FXDuty:
		return max(-1, min(1, f.req.Value))
	case phoenix6.FXVoltage:
		volts = f.req.Value
	case phoenix6.FXPosition:
		e := f.req.Value - pos
		f.integ += e * dt
		volts = g.P*e + g.I*f.integ - g.D*vel + g.S*sgn(e) + f.req.FeedForward
	case phoenix6.FXVelocity:
		e := f.req.Value - vel
		f.integ += e * dt
		volts = g.V*f.req.Value + g.P*e + g.I*f.integ + g.S*sgn(f.req.Value) + f.req.FeedForward
	default:
		return 0
	}
	return max(-1, min(1, volts/v))
}

func sgn(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// cancoder is an emulated CANcoder on a joint: it turns
// sensor_to_mechanism_ratio times per distance_per_rotation of the joint.
type cancoder struct {
	node
	s      *Sim
	bus    string
	id     int
	j      *joint
	perRot float64 // joint distance per CANcoder rotation, signed by inverted
	open   bool
	cb     *canBus // its presence on the bus (part_cancoder.go), nil for one no YAML entry made
	slot   int
}

// OpenCANcoder opens the emulated CANcoder at CAN id id on bus: one a
// YAML cancoder puts there, else one on no joint (reading 0).
func (s *Sim) OpenCANcoder(bus string, id int) (phoenix6.CANcoder, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id < 0 || id > maxCANID {
		return nil, noChannel("CAN id", id, maxCANID+1)
	}
	for _, c := range s.cancoders {
		if c.bus == bus && c.id == id {
			if c.open {
				return nil, inUse("CANcoder", id)
			}
			c.open = true
			return c, nil
		}
	}
	c := &cancoder{s: s, bus: bus, id: id, perRot: 2 * math.Pi, open: true}
	s.cancoders = append(s.cancoders, c)
	return c, nil
}

// Read gives the position and velocity in rotations and the absolute
// position (0-1); a silent CANcoder sends nothing (hal.ErrTimeout).
func (c *cancoder) Read() (pos, vel, abs float64, faults uint32, err error) {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if c.silent() {
		return 0, 0, 0, 0, errCANcoderTimeout
	}
	if c.j != nil {
		pos, vel = c.j.pos/c.perRot, c.j.vel/c.perRot
	}
	abs = pos - math.Floor(pos)
	return pos, vel, abs, 0, nil
}

// OpenPigeon2 opens the emulated Pigeon 2 at CAN id id on bus: the IMU a
// YAML pigeon2 puts there, as a Pigeon's.
func (s *Sim) OpenPigeon2(bus string, id int) (phoenix6.Pigeon2, error) {
	p, err := s.OpenPigeonOn(bus, id, -1)
	if err != nil {
		return nil, err
	}
	return pigeon2{p.(*pigeon)}, nil
}

// pigeon2 is an emulated Pigeon 2: a Pigeon with Phoenix 6's health.
type pigeon2 struct{ *pigeon }

// Health: the Pigeon's temperature and the supply; no status while it is
// silent.
func (p pigeon2) Health() (phoenix6.Health, error) {
	p.s.mu.Lock()
	defer p.s.mu.Unlock()
	return p.s.p6Health(p.imu != nil && p.imu.can != nil && p.imu.can.silent(), pdpTempC)
}

// Health: the Talon's temperature and supply.
func (t *talonFX) Health() (phoenix6.Health, error) {
	t.m.s.mu.Lock()
	defer t.m.s.mu.Unlock()
	return t.m.s.p6Health(t.m.silent(), pdpTempC)
}

// Health: the CANcoder's supply (it has no temperature signal).
func (c *cancoder) Health() (phoenix6.Health, error) {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return c.s.p6Health(c.silent(), math.NaN())
}

// p6Health is an emulated Phoenix 6 device's health (the caller holds
// s.mu): the supply as the battery's terminal voltage, undervoltage below
// BrownoutVolts; hal.ErrTimeout while the device is silent.
func (s *Sim) p6Health(silent bool, tempC float64) (phoenix6.Health, error) {
	if silent {
		return phoenix6.Health{}, errP6Timeout
	}
	h := phoenix6.Health{TempC: tempC, SupplyV: s.vTerm}
	if s.vTerm < BrownoutVolts {
		h.Active |= phoenix6.Undervoltage
	}
	return h, nil
}
