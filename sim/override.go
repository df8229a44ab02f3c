package sim

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/frcd/frcd/hal"
)

// Channel counts of the roboRIO, for readers of IO.
const (
	NumPWM       = numPWM
	NumDIO       = numDIO
	NumAI        = numAI
	NumRelay     = numRelay
	NumJoysticks = hal.MaxJoysticks // the Driver Station's joystick slots
)

// Joystick limits of the Driver Station: axes, buttons and POVs a
// joystick may report.
const (
	MaxAxes    = hal.MaxJoystickAxes
	MaxButtons = hal.MaxJoystickButtons
	MaxPOVs    = hal.MaxJoystickPOVs
)

// overrides are what a simulation client set in place of the sensors
// (Sim.Override*), and the joysticks.
type overrides struct {
	dio [numDIO]struct{ set, level bool }
	ai  [numAI]struct {
		set   bool
		volts float64
	}
	encs []*encoderIn // opened encoders, in opening order
	joy  [NumJoysticks]Joystick
}

// dioLevel is what a DIO input reads: the override, else the level its
// sensor drives through its faults (low when none is). For a robot read,
// last is the handle's previous reading: the read draws its dropout, and
// a dropped one repeats *last. A watcher (ReadIO) passes nil: it sees a
// fault's freeze but draws nothing, so that watching never changes a run.
// dioLevel, aiVolts and count are where the DIO, analog and encoder
// reads meet the overrides and the faults.
func (s *Sim) dioLevel(ch int, last *bool) bool {
	if o := s.ovr.dio[ch]; o.set {
		return o.level
	}
	in := s.dio[ch].in
	switch {
	case in == nil:
		return false
	case in.f == nil:
	case in.f.begun && in.f.p.Disconnected:
		return true // the roboRIO's pull-up
	case in.f.begun:
		return in.f.level
	case last != nil && in.f.dropped():
		return *last
	}
	return in.level()
}

// aiVolts is what an analog input reads, as dioLevel says: the override,
// else its sensor's voltage through its faults (0 when none is); a robot
// read also draws the noise.
func (s *Sim) aiVolts(ch int, last *float64) float64 {
	if o := s.ovr.ai[ch]; o.set {
		return o.volts
	}
	in := s.ai[ch].in
	switch {
	case in == nil:
		return 0
	case in.f == nil:
		return in.volts(in.q())
	case in.f.begun && in.f.p.Disconnected:
		return 0 // a floating input
	case in.f.begun:
		return in.volts(in.f.q)
	case last == nil:
		return in.volts(in.q() + in.f.drift)
	case in.f.dropped():
		return *last
	}
	return in.volts(in.q() + in.f.drift + in.f.noise())
}

// count is what the encoder reads, as dioLevel says: the override, else
// the edges since it was opened, through its faults; a robot read also
// draws the noise.
func (e *encoderIn) count(last *int64) int64 {
	if e.ovr != nil {
		return *e.ovr
	}
	if e.src == nil {
		return 0
	}
	switch f := e.src.f; {
	case f == nil:
		return e.raw(e.src.q()) - e.base
	case f.begun: // stuck, or no edges reach the counter
		return e.raw(f.q) - e.base
	case last == nil:
		return e.raw(e.src.q()+f.drift) - e.base
	case f.dropped():
		return *last
	default:
		return e.raw(e.src.q()+f.drift+f.noise()) - e.base
	}
}

// period is the time between counts at the joint's velocity, s; +Inf when
// the joint stands still or nothing is wired.
func (e *encoderIn) period() float64 {
	if e.ovr != nil || e.src == nil || e.src.j == nil {
		return math.Inf(1)
	}
	return math.Abs(e.src.dpp / e.enc / e.src.j.vel) // +Inf at velocity 0
}

// motion is the IMU's motion: the override, else what SetIMU set.
func (d *imuDev) motion() IMU {
	if d.hold != nil {
		return *d.hold
	}
	return d.m
}

// OverrideKind says which input an Override holds.
type OverrideKind uint8

// The inputs a client may override.
const (
	OverrideDIO     OverrideKind = iota + 1 // a DIO input's level, by channel
	OverrideAI                              // an analog input's voltage, by channel
	OverrideEncoder                         // an encoder's count, by opening order
	OverrideIMU                             // an IMU's motion, by YAML name
)

// Override names one overridden input, for Clear.
type Override struct {
	Kind    OverrideKind
	Channel int    // DIO, AI, Encoder
	Name    string // IMU
}

// OverrideDIO makes a DIO channel read level, whatever its sensor says,
// until Clear. A channel opened as an output (or duty-cycle output or
// encoder) cannot be overridden.
func (s *Sim) OverrideDIO(ch int, level bool) error {
	if ch < 0 || ch >= numDIO {
		return noChannel("DIO channel", ch, numDIO)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.dio[ch].use; u != dioFree && u != dioIn {
		return fmt.Errorf("sim: DIO channel %d is not an input: %w", ch, hal.ErrUnsupported)
	}
	s.ovr.dio[ch].set, s.ovr.dio[ch].level = true, level
	return nil
}

// OverrideAI makes an analog input read volts (clamped to 0-5 V), whatever
// its sensor says, until Clear.
func (s *Sim) OverrideAI(ch int, volts float64) error {
	if ch < 0 || ch >= numAI {
		return noChannel("analog input", ch, numAI)
	}
	if math.IsNaN(volts) || math.IsInf(volts, 0) {
		return errNotFinite
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ovr.ai[ch].set, s.ovr.ai[ch].volts = true, max(0, min(5, volts))
	return nil
}

// OverrideEncoder makes the i-th opened encoder (IO.Encoders' order) count
// exactly count until Clear; then it counts from its joint again.
func (s *Sim) OverrideEncoder(i int, count int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i < 0 || i >= len(s.ovr.encs) {
		return fmt.Errorf("sim: encoder %d: %d are open: %w", i, len(s.ovr.encs), hal.ErrNoDevice)
	}
	s.ovr.encs[i].ovr = &count
	return nil
}

// OverrideIMU makes the IMU of that YAML name report m until Clear,
// whatever SetIMU sets meanwhile.
func (s *Sim) OverrideIMU(name string, m IMU) error {
	for _, v := range m.Orientation {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errNotFinite
		}
	}
	for _, v := range append(m.AngularVelocity[:], m.LinearAcceleration[:]...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errNotFinite
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.sensors[name].imu
	if d == nil {
		return fmt.Errorf("sim: no navx or pigeon_imu named %q: %w", name, hal.ErrNoDevice)
	}
	d.hold = &m
	if d.nav != nil {
		d.nav.set(m, s.t)
	}
	return nil
}

// Clear ends an override: the input reads its sensor again. Clearing what
// is not overridden does nothing.
func (s *Sim) Clear(o Override) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch o.Kind {
	case OverrideDIO:
		if o.Channel >= 0 && o.Channel < numDIO {
			s.ovr.dio[o.Channel].set = false
		}
	case OverrideAI:
		if o.Channel >= 0 && o.Channel < numAI {
			s.ovr.ai[o.Channel].set = false
		}
	case OverrideEncoder:
		if o.Channel >= 0 && o.Channel < len(s.ovr.encs) {
			s.ovr.encs[o.Channel].ovr = nil
		}
	case OverrideIMU:
		if d := s.sensors[o.Name].imu; d != nil && d.hold != nil {
			d.hold = nil
			if d.nav != nil {
				d.nav.set(d.m, s.t)
			}
		}
	}
}

// UpdateDS changes the Driver Station's state atomically: f edits it.
func (s *Sim) UpdateDS(f func(*hal.DSState)) {
	s.mu.Lock()
	was := s.ds.EStop
	f(&s.ds)
	holdEStop(&s.ds, was)
	s.mu.Unlock()
}

// SetEnabled enables or disables the simulated robot, as the Driver
// Station would (hal.Enabler); disabling makes every output neutral at
// the next cycle.
func (s *Sim) SetEnabled(on bool) { s.UpdateDS(func(st *hal.DSState) { st.Enabled = on }) }

// Joystick is what one Driver Station joystick reports.
type Joystick struct {
	Axes    []float64 // -1 to 1
	Buttons []bool
	POVs    []int // degrees, -1 when not pressed
}

// SetJoystick sets joystick n (0-5). Axes are clamped to -1..1; more
// than MaxAxes axes, MaxButtons buttons or MaxPOVs POVs, a non-finite
// axis or a POV outside -1..359 is refused.
func (s *Sim) SetJoystick(n int, j Joystick) error {
	if n < 0 || n >= NumJoysticks {
		return noChannel("joystick", n, NumJoysticks)
	}
	if len(j.Axes) > MaxAxes || len(j.Buttons) > MaxButtons || len(j.POVs) > MaxPOVs {
		return fmt.Errorf("sim: joystick %d: %d axes, %d buttons, %d POVs (at most %d, %d, %d)", n,
			len(j.Axes), len(j.Buttons), len(j.POVs), MaxAxes, MaxButtons, MaxPOVs)
	}
	c := Joystick{Axes: make([]float64, len(j.Axes)), Buttons: append([]bool{}, j.Buttons...), POVs: append([]int{}, j.POVs...)}
	for i, a := range j.Axes {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return fmt.Errorf("sim: joystick %d axis %d: %w", n, i, errNotFinite)
		}
		c.Axes[i] = max(-1, min(1, a))
	}
	for i, p := range j.POVs {
		if p < -1 || p >= 360 {
			return fmt.Errorf("sim: joystick %d POV %d: %d is not -1 or 0-359", n, i, p)
		}
	}
	s.mu.Lock()
	s.ovr.joy[n] = c
	s.mu.Unlock()
	return nil
}

// Joystick returns a copy of joystick n (0-5); empty until SetJoystick.
func (s *Sim) Joystick(n int) Joystick {
	if n < 0 || n >= NumJoysticks {
		return Joystick{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.ovr.joy[n]
	return Joystick{Axes: append([]float64{}, j.Axes...), Buttons: append([]bool{}, j.Buttons...), POVs: append([]int{}, j.POVs...)}
}

// ReadJoystick fills dst with joystick n (0-5) as hal's JoystickState,
// without allocating (the telemetry reads it every sample); empty until
// SetJoystick or for an n out of range.
func (s *Sim) ReadJoystick(n int, dst *hal.JoystickState) {
	*dst = hal.JoystickState{}
	if n < 0 || n >= NumJoysticks {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	j := &s.ovr.joy[n]
	dst.NumAxes = copy(dst.Axes[:], j.Axes)
	dst.NumPOVs = copy(dst.POVs[:], j.POVs)
	dst.NumButtons = min(len(j.Buttons), hal.MaxJoystickButtons)
	for i := 0; i < dst.NumButtons; i++ {
		if j.Buttons[i] {
			dst.Buttons |= 1 << i
		}
	}
}

// DIOUse says how the robot program opened a DIO channel.
type DIOUse uint8

// DIO channel uses.
const (
	DIOFree      = DIOUse(dioFree)
	DIOInput     = DIOUse(dioIn)
	DIOOutput    = DIOUse(dioOut)
	DIODutyCycle = DIOUse(dioDuty)
	DIOEncoder   = DIOUse(dioEncoder)
)

// IO is the roboRIO's I/O at one instant, as the robot program sees it:
// what it opened, what it wrote, and what its inputs read (overrides
// included). ReadIO fills it.
type IO struct {
	DS  hal.DSState
	PWM [NumPWM]struct {
		Open  bool
		Width time.Duration // as written; 0: no pulses
	}
	DIO [NumDIO]struct {
		Use   DIOUse
		Level bool    // an input's level as read, an output's as written
		Duty  float64 // a duty-cycle output's duty, 0-1
	}
	AI [NumAI]struct {
		Open  bool
		Volts float64
	}
	Relay [NumRelay]struct{ Open, Fwd, Rev bool }
	// Encoders are the opened encoders in opening order (the index
	// OverrideEncoder takes).
	Encoders []EncoderIO
	// PCMs are the PCMs' last commanded solenoid bits, by id order.
	PCMs []PCMIO
	// CANMotors are the opened CAN motor controllers, by id.
	CANMotors []CANMotorIO
	// IMUs are the navX and Pigeon IMUs in YAML order.
	IMUs []IMUIO
}

// EncoderIO is an opened encoder.
type EncoderIO struct {
	A, B   int     // DIO channels, as opened
	Count  int64   // what Count reads
	Period float64 // seconds between counts; +Inf when still
}

// PCMIO is a PCM's last Control1 command.
type PCMIO struct {
	ID        int
	Solenoids byte // bit n: channel n on
}

// CANMotorIO is an opened CAN motor controller.
type CANMotorIO struct {
	Model string // frc.TalonSRX or frc.VictorSPX
	ID    int
	Duty  float64 // the last duty set
}

// IMUIO is an IMU's motion (the override when one is held).
type IMUIO struct {
	Name   string
	Motion IMU
}

// ReadIO fills dst with the I/O's present state, reusing its slices.
func (s *Sim) ReadIO(dst *IO) {
	s.mu.Lock()
	defer s.mu.Unlock()
	dst.DS = s.ds
	for i := range s.pwm {
		dst.PWM[i].Open, dst.PWM[i].Width = s.pwm[i].open, s.pwm[i].width
	}
	for i := range s.dio {
		p := &s.dio[i]
		d := &dst.DIO[i]
		d.Use, d.Level, d.Duty = DIOUse(p.use), p.level, p.duty
		if p.use == dioIn || p.use == dioFree {
			d.Level = s.dioLevel(i, nil)
		}
	}
	for i := range s.ai {
		dst.AI[i].Open, dst.AI[i].Volts = s.ai[i].open, s.aiVolts(i, nil)
	}
	for i := range s.relay {
		r := s.relay[i]
		dst.Relay[i].Open, dst.Relay[i].Fwd, dst.Relay[i].Rev = r.open, r.fwd, r.rev
	}
	dst.Encoders = dst.Encoders[:0]
	for _, e := range s.ovr.encs {
		dst.Encoders = append(dst.Encoders, EncoderIO{A: e.a, B: e.b, Count: e.count(nil), Period: e.period()})
	}
	dst.PCMs = dst.PCMs[:0]
	for _, p := range s.pcms {
		if !p.rev && p.bus == s.bus { // the roboRIO's CTRE PCMs, as WPILib's simulation numbers them
			dst.PCMs = append(dst.PCMs, PCMIO{ID: p.id, Solenoids: byte(p.ctrlBits)})
		}
	}
	sort.Slice(dst.PCMs, func(i, j int) bool { return dst.PCMs[i].ID < dst.PCMs[j].ID })
	dst.CANMotors = dst.CANMotors[:0]
	for _, m := range s.canMotors {
		if m.open {
			dst.CANMotors = append(dst.CANMotors, CANMotorIO{Model: m.model, ID: m.id, Duty: m.duty})
		}
	}
	sort.Slice(dst.CANMotors, func(i, j int) bool { return dst.CANMotors[i].ID < dst.CANMotors[j].ID })
	dst.IMUs = dst.IMUs[:0]
	for _, m := range s.imus {
		dst.IMUs = append(dst.IMUs, IMUIO{Name: m.name, Motion: m.motion()})
	}
}

// holdEStop keeps an e-stop (was) until frcd restarts, as on a real
// robot, whoever sets the Driver Station's state after it; an e-stopped
// robot is disabled.
func holdEStop(ds *hal.DSState, was bool) {
	ds.EStop = ds.EStop || was
	if ds.EStop {
		ds.Enabled = false
	}
}
