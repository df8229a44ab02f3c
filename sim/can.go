package sim

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
)

// CAN identifiers of the emulated CTRE PDP and PCM (PROTOCOLS.md); add the
// device number.
const (
	pdpStatus1  = 0x08041400 // channels 1-6
	pdpStatus2  = 0x08041440 // channels 7-12
	pdpStatus3  = 0x08041480 // channels 13-16, resistance, voltage, temperature
	pdpEnergy   = 0x08041740 // total current, power, energy
	pdpControl1 = 0x08041C00 // 0x40 reset energy, 0x80 clear sticky faults
	pcmStatus1  = 0x09041400 // outputs, compressor, pressure switch, current
	pcmControl1 = 0x09041C00 // solenoid bits, closed-loop enable

	// REV PDH and PH (PROTOCOLS.md; layouts as allwpilib's PDHFrames and
	// PHFrames).
	pdhSetSwitch    = 0x08050840 // 1 byte: bit 0 the switchable channel
	pdhStatus0      = 0x08051800 // Status0-4 at 0x40 apart: channels 0-5, 6-11, 12-17, 18-23, voltage and total
	phCompressorCfg = 0x09050840 // 5 bytes: b4 bit 0 force disable, bit 1 use digital
	phSetAll        = 0x09050C00 // 4 bytes: 2 bits per channel, 1 on
	phStatus0       = 0x09051800 // outputs, pressure switch, compressor on and configuration
	phStatus1       = 0x09051840 // bus voltage, solenoid voltage, compressor current

	// CTRE Talon SRX and Victor SPX: the legacy STATUS_1-9 ids 0x02041400
	// + 0x40 k (PROTOCOLS.md). The Pigeon's frames (device type 0x15, its
	// base id 0x15000000, manufacturer CTRE) have no public layout: the
	// sim sends two with the ids of PigeonIMU_StatusFrame's
	// CondStatus_9_SixDeg_YPR (API 0x88, every 10 ms) and
	// CondStatus_11_GyroAccum (API 0x8A, every 20 ms), the ids
	// devices/cantraffic.go expects, with stand-in payloads.
	motorStatus1 = 0x02041400
	pigeonYPR    = 0x15042200 // API 0x88
	pigeonGyro   = 0x15042280 // API 0x8A
)

// Timing of the emulated devices.
const (
	statusPeriod = 20 * time.Millisecond  // PDP, PCM, PDH and PH status frames
	fastPeriod   = 10 * time.Millisecond  // the motor controllers' and Pigeons' fastest frames
	pcmTimeout   = 100 * time.Millisecond // a PCM drops its outputs without Control1
	motorTimeout = 100 * time.Millisecond // a CAN motor controller goes neutral without SetDuty
	pdpTmeasMS   = 20                     // the PDP's energy sample period, ms
)

// Pneumatics.
const (
	fullPSI       = 120.0 // the pressure switch opens (full) at or above this
	refillPSI     = 100.0 // and closes again below this
	reliefPSI     = 125.0 // the relief valve vents above this
	compressorA   = 10.0  // compressor current, A
	compressorPSI = 2.0   // psi per second the compressor adds
	strokePSI     = 2.0   // psi one piston stroke uses
	minStrokePSI  = 20.0  // below this, air moves no piston
	controllerA   = 1.5   // the roboRIO, radio and the rest, A
	pdpTempC      = 25.0  // the PDP's and controllers' temperature, °C
	vinDrop       = 0.05  // the roboRIO's input wiring drop, V
)

var (
	errFrameLen     = errors.New("sim: CAN frame longer than 8 bytes")
	errFrameID      = errors.New("sim: CAN identifier wider than 29 bits")
	errDuty         = errors.New("sim: duty is not a finite number")
	errMotorTimeout = fmt.Errorf("sim: CAN motor controller: no status frame: %w", hal.ErrTimeout)
)

// node is what every emulated CAN device has: whether it is silent (cut
// off the bus: it sends nothing and hears nothing), by SetCANSilent
// (manual) or a scheduled CANFault (sched); and, for a device whose
// emulation has one, what RebootCAN does to it.
type node struct {
	manual, sched bool
	reboot        func()
}

func (n *node) silent() bool { return n.manual || n.sched }

// pdp is an emulated CTRE Power Distribution Panel.
type pdp struct {
	node
	bus    *canBus
	id     int
	energy float64 // J since start or the last reset
	slots  [4]int  // Status1, Status2, Status3, Energy
}

// pcm is an emulated pneumatics module with its tank: a CTRE Pneumatics
// Control Module, or a REV Pneumatic Hub (rev).
type pcm struct {
	node
	bus *canBus
	rev bool
	id  int
	// The newest Control1 (PCM) or SetAll (PH) frame.
	ctrlBits   uint16
	ctrlClosed bool // PCM: closed-loop enable
	ctrlAt     time.Duration
	ctrlOK     bool
	cfgDigital bool // PH: the newest CompressorConfig asks for digital closed loop
	// What the module does.
	out        uint16 // solenoid outputs
	closedLoop bool
	compOn     bool
	full       bool    // the pressure switch
	pressure   float64 // psi
	slots      [2]int  // PCM: Status1; PH: Status0, Status1
}

// receive takes a control frame addressed to the module.
func (p *pcm) receive(f hal.Frame, now time.Duration) {
	switch {
	case !p.rev && f.Len >= 4:
		p.ctrlBits, p.ctrlClosed = uint16(f.Data[2]), f.Data[3]&0x40 != 0
	case p.rev && f.ID == uint32(phSetAll+p.id) && f.Len >= 4:
		p.ctrlBits = 0
		for ch := 0; ch < 16; ch++ {
			if f.Data[ch/4]>>(2*(ch%4))&3 == 1 {
				p.ctrlBits |= 1 << ch
			}
		}
	case p.rev && f.ID == uint32(phCompressorCfg+p.id) && f.Len >= 5:
		p.cfgDigital = f.Data[4]&0x01 == 0 && f.Data[4]&0x02 != 0
		return
	default:
		return
	}
	p.ctrlAt, p.ctrlOK = now, true
	// A module drops an output the moment the frame says so (energizing
	// waits for the next step, enabled and fresh): a halt's all-off frame
	// de-energizes the solenoids in the cycle that sent it.
	p.out &= p.ctrlBits
	if !p.rev && !p.ctrlClosed {
		p.closedLoop, p.compOn = false, false
	}
}

// update applies the newest control frame when it may (enabled and
// fresh) and runs the compressor's closed loop for h seconds: a PCM's
// while its Control1 enables it, a PH's while its CompressorConfig asks
// for digital control and the robot is enabled.
func (p *pcm) update(enabled bool, now time.Duration, h float64) {
	if enabled && p.ctrlOK && now-p.ctrlAt <= pcmTimeout {
		p.out, p.closedLoop = p.ctrlBits, p.ctrlClosed
	} else {
		p.out, p.closedLoop = 0, false
	}
	if p.rev {
		p.closedLoop = p.cfgDigital
	}
	p.switchState()
	p.compOn = p.closedLoop && !p.full && enabled
	if p.compOn {
		p.pressure = min(p.pressure+compressorPSI*h, reliefPSI)
	}
}

// switchState updates the pressure switch, with its hysteresis.
func (p *pcm) switchState() {
	switch {
	case p.pressure >= fullPSI:
		p.full = true
	case p.pressure < refillPSI:
		p.full = false
	}
}

func (p *pcm) current() float64 {
	if p.compOn {
		return compressorA
	}
	return 0
}

// stroke takes one piston stroke's air from the tank.
func (p *pcm) stroke() { p.pressure = max(0, p.pressure-strokePSI) }

// canMotor is an emulated CTRE Talon SRX or Victor SPX.
type canMotor struct {
	node
	s     *Sim
	bus   *canBus
	slots [4]int // STATUS_1, 2, 3, 4
	model string // frc.TalonSRX or frc.VictorSPX
	id    int
	j     *joint // nil when no YAML device drives a joint with it
	open  bool
	duty  float64
	at    time.Duration
	set   bool
	fx    *fxLoop // a Talon FX's request and loop (phoenix6.go), nil for others
	drive driveLimits
	// cfg is what a Phoenix 5 controller holds (its factory state: coast,
	// no current limit), fxCfg a Talon FX's (fxFactory).
	cfg   hal.CANMotorConfig
	fxCfg phoenix6.FXConfig
	reset bool // rebooted since HasResetOccurred last asked (ctre_config.go)
}

var (
	_ hal.CANMotor           = (*canMotor)(nil)
	_ hal.CANMotorConfigurer = (*canMotor)(nil)
)

func (m *canMotor) limits() *driveLimits { return &m.drive }

// ApplyConfig takes a Phoenix 5 controller's neutral mode (NeutralDevice
// leaves it) and, on a Talon SRX, its current limit, which it applies to
// its supply current.
func (m *canMotor) ApplyConfig(c hal.CANMotorConfig) error {
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	if m.silent() {
		return errConfigTimeout
	}
	if c.Neutral == hal.NeutralDevice {
		c.Neutral = m.cfg.Neutral
	}
	if m.model != frc.TalonSRX {
		c.HasCurrentLimit, c.CurrentLimit, c.PeakA, c.PeakMs, c.ContinuousA = false, false, 0, 0, 0
	}
	m.cfg = c
	m.drive.brake = c.Neutral == hal.NeutralBrake
	m.drive.p5 = c.CurrentLimit
	// "If peak limit is less than continuous limit, peak is set equal to
	// continuous" (CTRE's Phoenix 5 docs, ch13_MC.rst "Current Limit"):
	// a peak of 0 limits at the continuous current alone.
	m.drive.peak, m.drive.peakS, m.drive.continuous = float64(max(c.PeakA, c.ContinuousA)), float64(c.PeakMs)/1000, float64(c.ContinuousA)
	return nil
}

// Config reads back what the controller holds (the emulation knows its
// neutral mode, which Phoenix 5 cannot read).
func (m *canMotor) Config() (hal.CANMotorConfig, bool, error) {
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	if m.silent() {
		return hal.CANMotorConfig{}, false, errConfigTimeout
	}
	c := m.cfg
	if c.Neutral == hal.NeutralDevice {
		c.Neutral = hal.NeutralCoast
	}
	return c, true, nil
}

// SetDuty sets the output, -1 to 1 of the bus voltage (clamped).
func (m *canMotor) SetDuty(duty float64) error {
	if math.IsNaN(duty) || math.IsInf(duty, 0) {
		return errDuty
	}
	m.s.mu.Lock()
	if !m.silent() { // a silent controller never hears it
		m.duty = max(-1, min(1, duty))
		m.at = m.s.t
		m.set = true
	}
	m.s.mu.Unlock()
	return nil
}

func (m *canMotor) canID() int { return m.id }

// effective is the duty the controller applies: neutral while the robot
// is disabled or when SetDuty has not come for motorTimeout.
func (m *canMotor) effective(enabled bool, now time.Duration) float64 {
	if !enabled || !m.set || now-m.at > motorTimeout {
		return 0
	}
	if m.fx != nil {
		return m.fxDuty(now)
	}
	return m.duty
}

// Status reads the controller's measurements: bus voltage, the output
// current to its motor and its temperature.
func (m *canMotor) Status() (hal.MotorStatus, error) {
	s := m.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.silent() {
		return hal.MotorStatus{}, errMotorTimeout
	}
	st := hal.MotorStatus{BusVoltage: s.vTerm, Temperature: pdpTempC}
	if m.j != nil {
		st.OutputCurrent = math.Abs(m.j.current)
	}
	return st, nil
}

// pigeon is an emulated CTRE Pigeon IMU.
type pigeon struct {
	s     *Sim
	imu   *imuDev   // nil when no YAML pigeon_imu is there
	talon *canMotor // the Talon SRX it is cabled to, if it is
}

var _ hal.Pigeon = (*pigeon)(nil)

// Read returns the IMU's motion as set with Sim.SetIMU, through the
// Pigeon's faults: a dropped, disconnected or silent Pigeon sends no frame
// (hal.ErrTimeout).
func (p *pigeon) Read() (q [4]float64, gyro, accel [3]float64, err error) {
	p.s.mu.Lock()
	defer p.s.mu.Unlock()
	var m IMU
	if p.imu != nil && p.imu.can != nil && p.imu.can.silent() {
		return q, gyro, accel, errPigeonTimeout
	}
	if p.talon != nil && p.talon.silent() { // it talks through its Talon
		return q, gyro, accel, errPigeonTimeout
	}
	if p.imu != nil {
		m = p.imu.motion()
		switch f := p.imu.f; {
		case f == nil:
		case f.begun && f.p.Disconnected:
			return q, gyro, accel, errPigeonTimeout
		case f.begun:
			m = f.imu
		case f.dropped():
			return q, gyro, accel, errPigeonTimeout
		default:
			m = f.imuReading(m, true)
		}
	}
	q = m.Orientation
	if q == [4]float64{} {
		q[0] = 1
	}
	return q, m.AngularVelocity, m.LinearAcceleration, nil
}

// Frame encoding.

// amps10 is a PDP channel current as its 10-bit raw value, 0.125 A per
// unit, rounded and saturated.
func amps10(a float64) uint32 { return sat(math.Abs(a)/0.125, 1023) }

// sat rounds x and saturates it to 0..max (NaN reads 0).
func sat(x float64, maxRaw uint32) uint32 {
	switch {
	case !(x > 0):
		return 0
	case x >= float64(maxRaw):
		return maxRaw
	}
	return uint32(math.Round(x))
}

// pack6 packs up to six 10-bit channel values, high bits first, as the
// PDP's status frames carry them.
func pack6(d *[8]byte, c [6]uint32) {
	d[0] = byte(c[0] >> 2)
	d[1] = byte(c[0]&3)<<6 | byte(c[1]>>4)
	d[2] = byte(c[1]&0xF)<<4 | byte(c[2]>>6)
	d[3] = byte(c[2]&0x3F)<<2 | byte(c[3]>>8)
	d[4] = byte(c[3])
	d[5] = byte(c[4] >> 2)
	d[6] = byte(c[4]&3)<<6 | byte(c[5]>>4)
	d[7] = byte(c[5]&0xF) << 4
}

// publish sends the PDP's four status frames.
func (p *pdp) publish(s *Sim, at time.Duration) {
	if p.silent() {
		return
	}
	var ch [16]float64
	for _, j := range s.motorJoints {
		if j.pdp == p && j.pdpCh >= 0 && j.pdpCh < 16 {
			ch[j.pdpCh] += math.Abs(j.current)
		}
	}
	var raw [18]uint32 // 16 channels, two spare to fill the last frame
	for i, a := range ch {
		raw[i] = amps10(a)
	}
	for k := 0; k < 3; k++ {
		f := hal.Frame{ID: uint32(pdpStatus1 + 0x40*k + p.id), Len: 8}
		var six [6]uint32
		copy(six[:], raw[6*k:])
		pack6(&f.Data, six)
		if k == 2 {
			f.Data[5] = byte(sat(s.batt.Resistance*1000, 255))
			f.Data[6] = byte(sat((s.vTerm-4.0)/0.05, 255))
			f.Data[7] = byte(sat((pdpTempC+67.8564500484966)/1.03250836957542, 255))
		}
		p.bus.put(p.slots[k], f, at)
	}
	cur := sat(s.iTotal/0.125, 0xFFF)
	pow := sat(s.vTerm*s.iTotal/0.125, 0xFFFF)
	en := sat(p.energy/(0.125*0.001*pdpTmeasMS), 0xFFFFFFF)
	f := hal.Frame{ID: uint32(pdpEnergy + p.id), Len: 8}
	f.Data = [8]byte{
		pdpTmeasMS,
		byte(cur >> 4),
		byte(cur&0xF)<<4 | byte(pow>>12),
		byte(pow >> 4),
		byte(pow&0xF)<<4 | byte(en>>24),
		byte(en >> 16),
		byte(en >> 8),
		byte(en),
	}
	p.bus.put(p.slots[3], f, at)
}

// publish sends the module's status frames: a PCM's Status1, a PH's
// Status0 and Status1.
func (p *pcm) publish(s *Sim, at time.Duration) {
	if p.silent() {
		return
	}
	if p.rev {
		p.publishPH(s, at)
		return
	}
	f := hal.Frame{ID: uint32(pcmStatus1 + p.id), Len: 8}
	f.Data[0] = byte(p.out)
	if p.compOn {
		f.Data[1] |= 0x01
	}
	if p.closedLoop {
		f.Data[1] |= 0x40
	}
	if p.full {
		f.Data[1] |= 0x80
	}
	raw := sat(p.current()/0.03125, 1023)
	f.Data[4] = byte(raw>>4) & 0x3F
	f.Data[5] = byte(raw&0xF) << 4
	p.bus.put(p.slots[0], f, at)
}
