package sim

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/frcd/frcd/hal"
)

// pdh is an emulated REV Power Distribution Hub.
type pdh struct {
	node
	bus   *canBus
	id    int
	sw    bool // the switchable channel, as SetSwitch last set it
	slots [5]int
}

// pdhChannels is a PDH's channel count.
const pdhChannels = 24

// packPDH3 packs three 10-bit channel values into four bytes, little
// endian, as PDH Status0-2 carry them: a = b0 | (b1 & 3) << 8, b = b1 >> 2
// | (b2 & 0xF) << 6, c = b2 >> 4 | (b3 & 0x3F) << 4; b3's top two bits
// (breaker faults) stay 0.
func packPDH3(d []byte, a, b, c uint32) {
	d[0] = byte(a)
	d[1] = byte(a>>8)&0x03 | byte(b<<2)
	d[2] = byte(b>>6)&0x0F | byte(c<<4)
	d[3] = byte(c>>4) & 0x3F
}

// publish sends the PDH's five status frames: the channels' currents
// (|current| of the motor on each pdp_ch), the terminal voltage, the
// switchable channel's state and the battery's current.
func (p *pdh) publish(s *Sim, at time.Duration) {
	if p.silent() {
		return
	}
	var ch [pdhChannels]float64
	for _, j := range s.motorJoints {
		if j.pdh == p && j.pdpCh >= 0 && j.pdpCh < pdhChannels {
			ch[j.pdpCh] += math.Abs(j.current)
		}
	}
	for k := 0; k < 3; k++ {
		f := hal.Frame{Len: 8}
		c := ch[6*k : 6*k+6]
		packPDH3(f.Data[0:4], amps10(c[0]), amps10(c[1]), amps10(c[2]))
		packPDH3(f.Data[4:8], amps10(c[3]), amps10(c[4]), amps10(c[5]))
		p.bus.put(p.slots[k], f, at)
	}
	f := hal.Frame{Len: 8}
	packPDH3(f.Data[0:4], amps10(ch[18]), amps10(ch[19]), 0) // no third channel: b2's top bits and b3 stay 0
	for i := 20; i < 24; i++ {
		f.Data[i-17] = byte(sat(ch[i]/0.0625, 255))
	}
	p.bus.put(p.slots[3], f, at)
	f = hal.Frame{Len: 8}
	v := sat(s.vTerm/0.0078125, 0xFFF)
	f.Data[0], f.Data[1] = byte(v), byte(v>>8)&0x0F
	if s.enabled() {
		f.Data[1] |= 0x10 // system enable
	}
	if p.sw {
		f.Data[2] |= 0x10
	}
	f.Data[4] = byte(sat(s.iTotal/2, 255))
	p.bus.put(p.slots[4], f, at)
}

// publishPH sends a PH's Status0 (outputs, pressure switch, compressor
// on, enabled, roboRIO present, configuration) and Status1 (bus and
// solenoid voltage, compressor current).
func (p *pcm) publishPH(s *Sim, at time.Duration) {
	f := hal.Frame{Len: 8}
	f.Data[0], f.Data[1] = byte(p.out), byte(p.out>>8)
	if p.full {
		f.Data[4] |= 0x01
	}
	if p.compOn {
		f.Data[7] |= 0x01
	}
	if s.enabled() {
		f.Data[7] |= 0x02
	}
	f.Data[7] |= 0x04 // roboRIO present
	if p.cfgDigital {
		f.Data[7] |= 1 << 3
	}
	p.bus.put(p.slots[0], f, at)
	f = hal.Frame{Len: 8}
	f.Data[0] = byte(sat((s.vTerm-4)/0.0625, 255))
	sv := sat(s.vTerm/0.0078125, 0xFFF)
	f.Data[1], f.Data[2] = byte(sv), byte(sv>>8)&0x0F
	f.Data[4] = byte(sat(p.current()/0.125, 255))
	p.bus.put(p.slots[1], f, at)
}

// motorFrames are the status frames an emulated Talon SRX or Victor SPX
// sends: STATUS_1 every 10 ms, STATUS_2 every 20 ms, STATUS_3 and
// STATUS_4 every 160 ms (Phoenix's default periods), in 10 ms ticks.
// motorFrames[k] is STATUS_(k+1), id motorStatus1 + 0x40 k.
var motorFrames = [4]struct {
	ticks int
	n     uint8 // bytes
}{{1, 8}, {2, 8}, {16, 8}, {16, 8}}

// addSlots gives an emulated controller its status frames' slots.
func (m *canMotor) addSlots() {
	for k := range motorFrames {
		m.slots[k] = m.bus.addSlot(uint32(motorStatus1 + 0x40*k + m.id))
	}
}

// publish sends the frames due at tick (counted in fastPeriod from 0).
// Their layouts are closed (PROTOCOLS.md), so the payload is the sim's
// own: the applied duty (int16, 1/1023), output current (uint16, 1/8 A),
// bus voltage (uint16, 1/100 V) and temperature (°C) in STATUS_1, zeros
// elsewhere; their ids, lengths and periods are a real controller's.
func (m *canMotor) publish(s *Sim, at time.Duration, tick int) {
	if m.silent() {
		return
	}
	for k, mf := range motorFrames {
		if tick%mf.ticks != 0 {
			continue
		}
		f := hal.Frame{Len: mf.n}
		if k == 0 {
			d := m.effective(s.enabled(), at)
			cur := 0.0
			if m.j != nil {
				cur = math.Abs(m.j.current)
			}
			binary.LittleEndian.PutUint16(f.Data[0:], uint16(int16(math.Round(d*1023))))
			binary.LittleEndian.PutUint16(f.Data[2:], uint16(sat(cur*8, 0xFFFF)))
			binary.LittleEndian.PutUint16(f.Data[4:], uint16(sat(s.vTerm*100, 0xFFFF)))
			f.Data[6] = pdpTempC
		}
		m.bus.put(m.slots[k], f, at)
	}
}

// pigeonCAN is an emulated Pigeon IMU's presence on its bus: two status
// frames with stand-in payloads, pigeonYPR every 10 ms (the orientation
// quaternion, int16 w, x, y, z in 1/16384) and pigeonGyro every 20 ms (the
// angular velocity, int16 x, y, z in 1/100 rad/s).
type pigeonCAN struct {
	node
	host  *node // the Talon SRX it is cabled to, or nil on CAN
	bus   *canBus
	id    int
	slots [2]int
}

func (p *pigeonCAN) publish(m *imuDev, at time.Duration, tick int) {
	if p.silent() || (p.host != nil && p.host.silent()) || (m.f != nil && m.f.begun && m.f.p.Disconnected) {
		return
	}
	mo := m.motion()
	f := hal.Frame{Len: 8}
	q := mo.Orientation
	if q == [4]float64{} {
		q[0] = 1
	}
	for i, x := range q {
		binary.LittleEndian.PutUint16(f.Data[2*i:], uint16(int16(math.Round(max(-1, min(1, x))*16384))))
	}
	p.bus.put(p.slots[0], f, at)
	if tick%2 != 0 {
		return
	}
	f = hal.Frame{Len: 6}
	for i, w := range mo.AngularVelocity {
		binary.LittleEndian.PutUint16(f.Data[2*i:], uint16(int16(max(-32768, min(32767, math.Round(w*100))))))
	}
	p.bus.put(p.slots[1], f, at)
}
