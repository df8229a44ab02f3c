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
// (frc/spark.go): it answers the version request with sparkFirmware,
// takes duty-cycle set points, and drives only while a heartbeat with
// its bit set and a set point have come within motorTimeout, the robot
// is enabled, and it is not silenced (`can_faults:`). It sends Status 0
// every 10 ms, Status 1 and 2 every 20 ms: its output, the terminal
// voltage, its motor's current, a steady 25 °C, no faults, and its
// motor's rotations and RPM (the joint's position and velocity × the
// gearing, in the motor's direction).
type spark struct {
	node
	bus *canBus
	id  int
	j   *joint
	fw  frc.SparkFirmware

	idDuty, idVer, idHB uint32
	slots               [3]int // Status 0-2
	verSlot             int

	duty    float64
	dutyAt  time.Duration
	dutySet bool
	hbOn    bool
	hbAt    time.Duration
}

// sparkFirmware is the firmware the emulated SPARKs report.
var sparkFirmware = frc.SparkFirmware{Major: frc.SparkFirmwareMajor, Minor: 2, Build: 0}

// sparkTemp is the emulated SPARK's motor temperature, °C.
const sparkTemp = 25

// sparkJoint puts an emulated SPARK on the entry's bus and makes it drive
// the entry's joint.
func sparkJoint(s *Sim, d *config.Device, j *joint) {
	b := s.busFor(d.CANBus())
	p := &spark{bus: b, id: d.Int("id"), j: j, fw: sparkFirmware}
	p.idDuty = frc.SparkID(frc.SparkAPIDutyCycle, p.id)
	p.idVer = frc.SparkID(frc.SparkAPIVersion, p.id)
	p.idHB = frc.SparkID(frc.SparkAPIHeartbeat, 0)
	for k := range p.slots {
		p.slots[k] = b.addSlot(frc.SparkID(frc.SparkAPIStatus0+k, p.id))
	}
	p.verSlot = b.addSlot(p.idVer)
	for _, id := range []uint32{p.idDuty, p.idVer, p.idHB} {
		b.addReceiver(id, p)
	}
	j.kind, j.can = kindCANMotor, p
	s.canNodes[d.Name] = &p.node
	s.addSender(p)
}

func (p *spark) canID() int { return p.id }

// receive takes a set point, the bus's heartbeat or a version request.
func (p *spark) receive(f hal.Frame, at time.Duration) {
	if p.silent() {
		return
	}
	switch f.ID {
	case p.idDuty:
		if f.Len < 4 {
			return
		}
		v, _ := frc.DecodeSparkSetpoint(f.Data)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		p.duty, p.dutyAt, p.dutySet = max(-1, min(1, v)), at, true
	case p.idHB:
		if f.Len < 8 {
			return
		}
		p.hbOn, p.hbAt = binary.LittleEndian.Uint64(f.Data[:])&(1<<uint(p.id&63)) != 0, at
	case p.idVer:
		if f.Len == 0 {
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
		return 0
	}
	return p.duty
}

// send puts the status frames due at tick on the bus.
func (p *spark) send(s *Sim, at time.Duration, tick int) {
	if p.silent() {
		return
	}
	j := p.j
	st := frc.SparkStatus0{Applied: p.effective(s.enabled(), at), Volts: s.vTerm, Amps: math.Abs(j.current), TempC: sparkTemp}
	p.bus.put(p.slots[0], hal.Frame{Len: 8, Data: frc.EncodeSparkStatus0(st)}, at)
	if tick%2 != 0 {
		return
	}
	p.bus.put(p.slots[1], hal.Frame{Len: 8, Data: frc.EncodeSparkStatus1(frc.SparkStatus1{})}, at)
	perRad := j.sign * j.gear / (2 * math.Pi) // motor rotations per joint unit
	p.bus.put(p.slots[2], hal.Frame{Len: 8, Data: frc.EncodeSparkStatus2(j.vel*perRad*60, j.pos*perRad)}, at)
}
