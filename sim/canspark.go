package sim

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

// spark is an emulated REV SPARK MAX or SPARK Flex on its frames
// (frc/spark.go): it answers the version request (a remote frame, as
// REV's specification has it; a data frame on that id goes unanswered)
// with sparkFirmware, takes duty-cycle, position and velocity set points
// (the last two closed on its motor's rotor with slot 0's gains, which
// parameter writes set and it acknowledges), and drives only while a
// heartbeat with its bit set and a set point have come within
// motorTimeout, the robot is enabled, and it is not silenced
// (`can_faults:`). Its status frames follow REV's defaults until told
// otherwise (frc.SparkDefaultPeriodMs, frc.SparkEnabledByDefault): Status
// 0 every 10 ms, Status 1 every 250 ms, Status 2 not at all until Set
// Statuses Enabled turns it on (then every 20 ms); the status period
// parameters (frc.SparkParamStatusPeriod) change them, in multiples of
// fastPeriod. They carry its output, the terminal voltage, its motor's
// current, a steady 25 °C, no faults but a brown-out warning while the
// terminal voltage is below BrownoutVolts, and its motor's rotations and
// RPM (the joint's position and velocity × the gearing, in the motor's
// direction).
//
// Sim.RebootCAN reboots it as a brown-out would: the gains and status
// periods, which parameter writes set in RAM only, go back to its
// flash's (sparkFlash, REV's factory defaults), the status enables to
// REV's defaults, the set point and heartbeat are forgotten, and
// Status 1's "has reset" warning, active and sticky, is set (REV sets it
// at every power-up; the emulation starts as if it had been cleared).
type spark struct {
	node
	bus   *canBus
	id    int
	j     *joint
	fw    frc.SparkFirmware
	model uint8 // frc.SparkModel*, in Status 0
	// encZero is where its built-in encoder counts from, motor rotations
	// of the joint's position: 0 until a reboot restarts it (rebootNow).
	encZero float64

	idDuty, idVer, idHB        uint32
	idPos, idVel               uint32
	idParam, idStatuses        uint32
	slots                      [3]int // Status 0-2
	verSlot, ackSlot, statSlot int

	// Status 0-2: enabled, and every how many fastPeriod ticks.
	enabled [3]bool
	every   [3]int

	// The set point: its mode (the API of its frame) and value.
	mode    int
	duty    float64 // a duty-cycle set point, or the loop's last output
	sp      float64 // a position (rotations) or velocity (RPM) set point
	dutyAt  time.Duration
	dutySet bool
	hbOn    bool
	hbAt    time.Duration

	// Slot 0's gains (parameters kP_0, kI_0, kD_0, kF_0) and the loop's
	// state, closed every millisecond of its own as REV documents (the
	// integral sums the error each 1 ms, the derivative is the error's
	// change per 1 ms).
	gains              map[uint8]float32
	drv                map[uint8]uint32 // its idle mode and current limits, by parameter (a float's bits for kCurrentChop)
	drive              driveLimits      // what drv makes of them
	st1                frc.SparkStatus1 // its faults and warnings
	iAccum, lastErr    float64
	loopAt             time.Duration
	loopRun, loopReset bool
}

// sparkFlash is what the emulated SPARK's flash holds of slot 0's gains:
// REV's factory defaults, all 0.
var sparkFlash = map[uint8]float32{frc.SparkParamP0: 0, frc.SparkParamI0: 0, frc.SparkParamD0: 0, frc.SparkParamV0: 0}

// sparkDriveFlash is what the emulated SPARK's flash holds of its idle
// mode and current limits: REV's factory values (coast; smart current
// limit 80 A at a stall, 20 A free, from 10000 RPM; secondary limit 115
// A, 0 cycles), and each parameter's type in the acknowledgement.
var sparkDriveFlash = map[uint8]uint32{
	frc.SparkParamIdleMode: 0, frc.SparkParamSmartStallLimit: 80, frc.SparkParamSmartFreeLimit: 20, frc.SparkParamSmartLimitRPM: 10000,
	frc.SparkParamCurrentChop: math.Float32bits(115), frc.SparkParamCurrentChopCycles: 0,
}

// driveOf are the driveLimits of a SPARK's parameters.
func driveOf(drv map[uint8]uint32) driveLimits {
	return driveLimits{brake: drv[frc.SparkParamIdleMode] == 1,
		smart: float64(drv[frc.SparkParamSmartStallLimit]), free: float64(drv[frc.SparkParamSmartFreeLimit]), smartRPM: float64(drv[frc.SparkParamSmartLimitRPM]),
		stator: float64(math.Float32frombits(drv[frc.SparkParamCurrentChop]))}
}

func (p *spark) limits() *driveLimits { return &p.drive }

// sparkHasReset is Status 1's "has reset" warning bit
// (frc.SparkWarningNames).
const sparkHasReset = 1 << 6

// sparkTemp is the emulated SPARK's motor temperature, °C.
const sparkTemp = 25

// sparkJoint puts an emulated SPARK of that model (frc.SparkModel*) on
// the entry's bus and makes it drive the entry's joint. It reports
// Options.SparkFirmware: a major version alone (minor, fix and hardware
// revision 0) is that major's release for its model (SparkRelease), zero
// REV's current one.
func sparkJoint(model uint8) func(s *Sim, d *config.Device, j *joint) {
	return func(s *Sim, d *config.Device, j *joint) { s.newSpark(model, d, j) }
}

func (s *Sim) newSpark(model uint8, d *config.Device, j *joint) {
	fw := s.opts.SparkFirmware
	switch {
	case fw == (frc.SparkFirmware{}):
		fw = SparkRelease(frc.SparkFirmwareNewest, model)
	case fw == (frc.SparkFirmware{Major: fw.Major}):
		fw = SparkRelease(fw.Major, model)
	}
	b := s.busFor(d.CANBus())
	p := &spark{bus: b, id: d.Int("id"), j: j, fw: fw, model: model}
	p.idDuty = frc.SparkID(frc.SparkAPIDutyCycle, p.id)
	p.idVer = frc.SparkID(frc.SparkAPIVersion, p.id)
	p.idHB = frc.SparkID(frc.SparkAPIHeartbeat, 0)
	p.idPos, p.idVel = frc.SparkID(frc.SparkAPIPositionSetpoint, p.id), frc.SparkID(frc.SparkAPIVelocitySetpoint, p.id)
	p.idParam = frc.SparkID(frc.SparkAPIParameterWrite, p.id)
	p.idStatuses = frc.SparkID(frc.SparkAPISetStatusesEnabled, p.id)
	p.gains = map[uint8]float32{}
	p.drv = map[uint8]uint32{}
	for k, v := range sparkDriveFlash {
		p.drv[k] = v
	}
	p.drive = driveOf(p.drv)
	p.statusDefaults()
	p.reboot = p.rebootNow
	for k := range p.slots {
		p.slots[k] = b.addSlot(frc.SparkID(frc.SparkAPIStatus0+k, p.id))
	}
	p.verSlot = b.addSlot(p.idVer)
	p.ackSlot = b.addSlot(frc.SparkID(frc.SparkAPIParameterAck, p.id))
	p.statSlot = b.addSlot(frc.SparkID(frc.SparkAPISetStatusesResponse, p.id))
	for _, id := range []uint32{p.idDuty, p.idVer, p.idHB, p.idPos, p.idVel, p.idParam, p.idStatuses} {
		b.addReceiver(id, p)
	}
	j.kind, j.can = kindCANMotor, p
	s.canNodes[d.Name] = &p.node
	s.addSender(p)
}

func (p *spark) canID() int { return p.id }

// statusDefaults puts the status frames at REV's defaults.
func (p *spark) statusDefaults() {
	p.enabled = frc.SparkEnabledByDefault
	for k, ms := range frc.SparkDefaultPeriodMs {
		p.every[k] = ticksOf(ms)
	}
}

// ticksOf is a period in ms as a whole number of fastPeriod ticks, at
// least one.
func ticksOf(ms uint32) int {
	return max(1, int(time.Duration(ms)*time.Millisecond/fastPeriod))
}

// rebootNow is the emulated reboot (Sim.RebootCAN, under the Sim's lock).
func (p *spark) rebootNow() {
	for k := range p.gains {
		delete(p.gains, k)
	}
	for k, v := range sparkFlash {
		p.gains[k] = v
	}
	for k, v := range sparkDriveFlash {
		p.drv[k] = v
	}
	p.drive = driveOf(p.drv)
	p.statusDefaults()
	p.mode, p.duty, p.sp, p.dutySet, p.hbOn, p.loopReset = 0, 0, 0, false, false, true
	p.st1.Warnings |= sparkHasReset
	p.st1.StickyWarnings |= sparkHasReset
	// Its built-in encoder counts from 0 again (frcd's safe assumption,
	// devices/rev_spark_carry.go: REV documents no position kept over a
	// power cycle).
	p.encZero = p.j.pos * p.j.sign * p.j.gear / (2 * math.Pi)
}

// receive takes a set point, the bus's heartbeat or a version request.
func (p *spark) receive(f hal.Frame, at time.Duration) {
	if p.silent() {
		return
	}
	switch f.ID {
	case p.idDuty, p.idPos, p.idVel:
		if f.Len < 4 {
			return
		}
		v, _ := frc.DecodeSparkSetpoint(f.Data)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		mode := frc.SparkAPIDutyCycle
		switch f.ID {
		case p.idPos:
			mode = frc.SparkAPIPositionSetpoint
		case p.idVel:
			mode = frc.SparkAPIVelocitySetpoint
		}
		if mode != p.mode {
			p.loopReset = true
		}
		p.mode, p.dutyAt, p.dutySet = mode, at, true
		if mode == frc.SparkAPIDutyCycle {
			p.duty = max(-1, min(1, v))
		} else {
			p.sp = v
		}
	case p.idParam:
		param, bits, ok := frc.DecodeSparkParameterWrite(f.Data[:min(int(f.Len), 8)])
		if !ok {
			return
		}
		a := frc.SparkParameterAck{Param: param, Type: frc.SparkParamFloat32, Value: bits}
		switch param {
		case frc.SparkParamP0, frc.SparkParamI0, frc.SparkParamD0, frc.SparkParamV0:
			p.gains[param] = math.Float32frombits(bits)
		case frc.SparkParamStatusPeriod[0], frc.SparkParamStatusPeriod[1], frc.SparkParamStatusPeriod[2]:
			a.Type = frc.SparkParamUint32
			if bits == 0 || bits > 0xFFFF { // result 4, invalid: no period
				a.Result, a.Value = 4, frc.SparkDefaultPeriodMs[param-frc.SparkParamStatusPeriod[0]]
				break
			}
			p.every[param-frc.SparkParamStatusPeriod[0]] = ticksOf(bits)
		case frc.SparkParamCurrentChop:
			f := math.Float32frombits(bits)
			if math.IsNaN(float64(f)) || f < 0 { // result 4, invalid: the value held
				a.Result, a.Value = 4, p.drv[param]
				break
			}
			p.drv[param] = bits
			p.drive = driveOf(p.drv)
		case frc.SparkParamIdleMode, frc.SparkParamSmartStallLimit, frc.SparkParamSmartFreeLimit, frc.SparkParamSmartLimitRPM, frc.SparkParamCurrentChopCycles:
			a.Type = frc.SparkParamUint32
			if param == frc.SparkParamIdleMode && bits > 1 {
				a.Result, a.Value = 4, p.drv[param]
				break
			}
			p.drv[param] = bits
			p.drive = driveOf(p.drv)
		default: // a parameter the emulation does not have
			a.Result, a.Value = 1, 0
		}
		d, n := frc.EncodeSparkParameterAck(a)
		p.bus.put(p.ackSlot, hal.Frame{Len: n, Data: d}, at)
	case p.idHB:
		if f.Len < 8 {
			return
		}
		p.hbOn, p.hbAt = binary.LittleEndian.Uint64(f.Data[:])&(1<<uint(p.id&63)) != 0, at
	case p.idStatuses:
		mask, on, ok := frc.DecodeSparkSetStatusesEnabled(f.Data[:min(int(f.Len), 8)])
		if !ok {
			return
		}
		r := frc.SparkStatusesResponse{Mask: mask}
		for k := range 16 {
			switch {
			case mask&(1<<k) == 0:
			case k < len(p.enabled):
				p.enabled[k] = on&(1<<k) != 0
			default: // a status the emulation does not send
				r.Result = 1
			}
		}
		for k, e := range p.enabled {
			if e {
				r.Enabled |= 1 << k
			}
		}
		d, n := frc.EncodeSparkStatusesResponse(r)
		p.bus.put(p.statSlot, hal.Frame{Len: n, Data: d}, at)
	case p.idVer:
		if f.RTR {
			d, n := frc.EncodeSparkVersion(p.fw)
			p.bus.put(p.verSlot, hal.Frame{Len: n, Data: d}, at)
		}
	}
}

// effective is the duty the SPARK applies: neutral while the robot is
// disabled, without a set point or an enabling heartbeat for
// motorTimeout, or while silenced.
func (p *spark) effective(enabled bool, now time.Duration) float64 {
	if !enabled || p.silent() || !p.dutySet || now-p.dutyAt > motorTimeout || !p.hbOn || now-p.hbAt > motorTimeout {
		p.loopReset = true
		return 0
	}
	if p.mode != frc.SparkAPIDutyCycle {
		p.closeLoop(now)
	}
	return p.duty
}

// closeLoop runs the SPARK's own loop up to now, once per emulated
// millisecond: duty = kP·e + kI·Σe + kD·Δe + kF·set point, clamped to ±1,
// e in motor rotations (position) or RPM (velocity).
func (p *spark) closeLoop(now time.Duration) {
	if p.loopReset || !p.loopRun {
		p.iAccum, p.lastErr, p.loopAt, p.loopReset, p.loopRun = 0, math.NaN(), now-time.Millisecond, false, true
	}
	kp, ki, kd, kf := float64(p.gains[frc.SparkParamP0]), float64(p.gains[frc.SparkParamI0]), float64(p.gains[frc.SparkParamD0]), float64(p.gains[frc.SparkParamV0])
	for ; p.loopAt+time.Millisecond <= now; p.loopAt += time.Millisecond {
		rpm, rot := p.rotor()
		e, ff := p.sp-rot, 0.0
		if p.mode == frc.SparkAPIVelocitySetpoint {
			e, ff = p.sp-rpm, kf*p.sp
		}
		p.iAccum += e
		d := 0.0
		if !math.IsNaN(p.lastErr) {
			d = e - p.lastErr
		}
		p.lastErr = e
		p.duty = max(-1, min(1, kp*e+ki*p.iAccum+kd*d+ff))
	}
}

// rotor is the motor's velocity (RPM) and position (rotations), as Status
// 2 reports them.
func (p *spark) rotor() (rpm, rot float64) {
	j := p.j
	perRad := j.sign * j.gear / (2 * math.Pi) // motor rotations per joint unit
	return j.vel * perRad * 60, j.pos*perRad - p.encZero
}

// send puts the status frames due at tick on the bus: each enabled one
// every p.every[k] ticks.
func (p *spark) send(s *Sim, at time.Duration, tick int) {
	if p.silent() {
		return
	}
	applied := p.effective(s.enabled(), at) // the loop runs whatever is sent
	if s.vTerm < BrownoutVolts {            // its brown-out warning, and the sticky one
		p.st1.Warnings |= 1
		p.st1.StickyWarnings |= 1
	} else {
		p.st1.Warnings &^= 1
	}
	due := func(k int) bool { return p.enabled[k] && tick%p.every[k] == 0 }
	if due(0) {
		st := frc.SparkStatus0{Applied: applied, Volts: s.vTerm, Amps: math.Abs(p.j.current), TempC: sparkTemp, Model: p.model}
		p.bus.put(p.slots[0], hal.Frame{Len: 8, Data: frc.EncodeSparkStatus0(st)}, at)
	}
	if due(1) {
		p.bus.put(p.slots[1], hal.Frame{Len: 8, Data: frc.EncodeSparkStatus1(p.st1)}, at)
	}
	if due(2) {
		rpm, rot := p.rotor()
		p.bus.put(p.slots[2], hal.Frame{Len: 8, Data: frc.EncodeSparkStatus2(rpm, rot)}, at)
	}
}
