package sim

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

// The navX-MXP's register map (PROTOCOLS.md "navX-MXP"; kauailabs/navxmxp
// IMURegisters.h). Multi-byte registers are little-endian.
const ()

// Register values.
const (
	navxTempCenti = 2500 // the die temperature reported, 0.01 °C
)

// Motion thresholds of SENSOR_STATUS. The firmware flags motion when the
// horizontal world linear acceleration averages more than 0.02 g; the sim
// also flags it when the IMU turns faster than navxRotatingRate, and
// clears yaw-stable then.
const (
	navxMovingAccelG = 0.02
	navxRotatingRate = math.Pi / 180 // rad/s: 1 °/s
	// navxResponseTimeout is how long the firmware holds an SPI response
	// for the master to clock out (SPI_TX_TIMEOUT_MS).
	navxResponseTimeout = 10 * time.Millisecond
)

var (
	errNavXNoAck = fmt.Errorf("sim navX: i2c: no device acknowledges that address: %w", hal.ErrNoDevice)
	errNavXBits  = errors.New("sim navX: spi: the navX speaks 8-bit words only")
)

// navx emulates a Kauai Labs navX-MXP behind its register interface: the
// register file 0x00-0x6F the firmware publishes, sampled from the motion
// at UPDATE_RATE_HZ, and its SPI and I2C protocols over that file. It is
// safe for concurrent use: the sim may step it on one goroutine while the
// loop transfers on another.
type navx struct {
	mu   sync.Mutex
	regs [frc.NavXRegCount]byte

	motion      IMU
	now         time.Duration // the latest set's time
	sampled     bool          // a sample has been latched
	nextSample  time.Duration // when the next sample is due
	yawOffset   float64       // rad, clockwise: the navX yaw zeroed by the last reset
	resetYawReq bool          // a yaw reset waits for the next sample

	// SPI: the connection's settings, and the response the firmware holds
	// after a read request until the master clocks it out.
	spiHz, spiLimit physic.Frequency
	spiMode         spi.Mode
	spiBits         int
	spiConnected    bool
	resp            [frc.NavXRegCount + 1]byte
	respLen         int // bytes of resp to clock out, data and CRC
	respPos         int
	respAt          time.Duration

	// I2C: the bus speed set, and the read the last write set up.
	i2cHz      physic.Frequency
	i2cReg     int
	i2cCount   int
	i2cPending bool

	port navxSPIPort
	conn navxSPIConn
	bus  navxI2CBus

	// fault is the navX's fault model, or nil. The Sim sets it holding
	// both its lock and mu; sample reads its state under both, the bus
	// reads only its parameters and its read stream, under mu.
	fault *fault
}

// newNavX returns a navX at rest and level: WHOAMI 0x32, UPDATE_RATE_HZ
// 60, OP_STATUS normal, calibration complete, yaw stable, the identity
// quaternion. Its first sample is taken at the first set.
func newNavX() *navx {
	n := &navx{}
	n.port.n, n.conn.n, n.bus.n = n, n, n
	r := &n.regs
	r[frc.NavXRegWhoAmI] = frc.NavXModel
	r[frc.NavXRegUpdateRate] = frc.NavXDefaultRateHz
	r[frc.NavXRegAccelFSR] = frc.NavXAccelFSRg
	navxPut16(r, frc.NavXRegGyroFSR, frc.NavXGyroFSRdps)
	r[frc.NavXRegOpStatus] = frc.NavXOpNormal
	r[frc.NavXRegCalStatus] = frc.NavXCalComplete
	r[frc.NavXRegSelfTest] = frc.NavXSelfTestPassed
	navxPut16(r, frc.NavXRegCapability, frc.NavXCapOmnimount|frc.NavXCapYawReset|frc.NavXCapAHRSPosTS)
	navxPut16(r, frc.NavXRegSensorStatus, frc.NavXStatusYawOK)
	navxPut16(r, frc.NavXRegQuat, 32767)
	navxPut16(r, frc.NavXRegAccel+4, navxAccelRaw(1))
	navxPut16(r, frc.NavXRegTemp, navxTempCenti)
	return n
}

// set gives the navX the motion it feels at time now. The sim calls it
// every step, moving or not: like the firmware, the navX latches a new
// sample (and a new timestamp) only every 1/UPDATE_RATE_HZ, and a driver
// that sees the timestamp stop takes the navX for dead.
func (n *navx) set(m IMU, now time.Duration) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.motion, n.now = m, now
	if n.respLen > 0 && now-n.respAt > navxResponseTimeout {
		n.respLen = 0 // the firmware gives up on a response not clocked out
	}
	period := time.Second / time.Duration(n.regs[frc.NavXRegUpdateRate])
	switch {
	case !n.sampled || now < n.nextSample-period:
		// The first sample, or time went back (the sim restarted).
		n.nextSample = now
	case now < n.nextSample:
		return
	}
	n.sampled = true
	n.nextSample += period
	if n.nextSample <= now {
		n.nextSample = now + period
	}
	n.sample(now)
}

// sample latches the registers from the motion, as the firmware does on
// each update: orientation relative to the last yaw reset, Euler angles
// from it by the firmware's formulas, raw gyro and accelerometer counts.
func (n *navx) sample(now time.Duration) {
	motion := n.motion
	if f := n.fault; f.faulty() {
		motion = f.imu // stuck: the samples repeat; disconnected: nobody hears them
	} else if f != nil {
		motion = f.imuReading(motion, true)
	}
	m := &motion
	q := m.Orientation
	if norm := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]); norm > 1e-9 && !math.IsNaN(norm) && !math.IsInf(norm, 0) {
		for i := range q {
			q[i] /= norm
		}
	} else {
		q = [4]float64{1, 0, 0, 0} // the zero value is the identity
	}
	if n.resetYawReq {
		// INTEGRATION_CTL bit 7: the current yaw becomes zero; the
		// quaternion is rotated by the same offset, as board-level resets do.
		n.resetYawReq = false
		n.yawOffset = math.Remainder(navxYaw(n.relative(q))+n.yawOffset, 2*math.Pi)
		navxPut16(&n.regs, frc.NavXRegYawOffset, uint16(navxCenti(n.yawOffset*180/math.Pi)))
	}
	rel := n.relative(q)
	r := &n.regs

	// Euler angles (rad) by the firmware's formulas: yaw grows clockwise
	// seen from above, the opposite of the right-hand rule about z.
	gx := 2 * (rel[1]*rel[3] - rel[0]*rel[2]) // gravity in the body frame, g
	gy := 2 * (rel[0]*rel[1] + rel[2]*rel[3])
	gz := rel[0]*rel[0] - rel[1]*rel[1] - rel[2]*rel[2] + rel[3]*rel[3]
	yaw := navxYaw(rel)
	pitch := math.Atan(gy / math.Sqrt(gx*gx+gz*gz))
	roll := math.Atan(gx / math.Sqrt(gy*gy+gz*gz))
	navxPut16(r, frc.NavXRegYaw, uint16(navxCenti(yaw*180/math.Pi)))
	navxPut16(r, frc.NavXRegRoll, uint16(navxCenti(roll*180/math.Pi)))
	navxPut16(r, frc.NavXRegPitch, uint16(navxCenti(pitch*180/math.Pi)))
	// No magnetic field is modelled: the compass points along the world's
	// +x, and heading is the absolute yaw, clockwise, 0-360.
	heading := math.Mod(navxYaw(q)*180/math.Pi+360, 360)
	h := uint16(min(35999, max(0, math.Round(heading*100))))
	navxPut16(r, frc.NavXRegHeading, h)
	navxPut16(r, frc.NavXRegFusedHeading, h)

	// The world linear acceleration is IMU.LinearAcceleration as it is.
	a := m.LinearAcceleration
	for i := range 3 {
		navxPut16(r, frc.NavXRegLinearAccel+2*i, uint16(navxSat16(a[i]/frc.NavXStandardG*1000)))
	}
	for i := range 4 {
		navxPut16(r, frc.NavXRegQuat+2*i, uint16(navxSat16(rel[i]*32768)))
	}
	// Raw gyro, °/s scaled to the full-scale range, body frame.
	for i := range 3 {
		dps := m.AngularVelocity[i] * 180 / math.Pi
		navxPut16(r, frc.NavXRegGyro+2*i, uint16(navxSat16(dps*32768/frc.NavXGyroFSRdps)))
	}
	// Raw accelerometer: the specific force in the body frame, g: the
	// world linear acceleration plus 1 g up, rotated into the body.
	w := [3]float64{a[0] / frc.NavXStandardG, a[1] / frc.NavXStandardG, a[2]/frc.NavXStandardG + 1}
	body := navxRotateInverse(rel, w)
	for i := range 3 {
		navxPut16(r, frc.NavXRegAccel+2*i, navxAccelRaw(body[i]))
	}

	status := uint16(frc.NavXStatusYawOK)
	w0 := m.AngularVelocity
	if math.Abs(w0[2]) > navxRotatingRate {
		status &^= frc.NavXStatusYawOK
	}
	if math.Hypot(a[0], a[1])/frc.NavXStandardG > navxMovingAccelG ||
		math.Sqrt(w0[0]*w0[0]+w0[1]*w0[1]+w0[2]*w0[2]) > navxRotatingRate {
		status |= frc.NavXStatusMoving
	}
	navxPut16(r, frc.NavXRegSensorStatus, status)
	ms := uint32(now / time.Millisecond)
	navxPut16(r, frc.NavXRegTimestamp, uint16(ms))
	navxPut16(r, frc.NavXRegTimestamp+2, uint16(ms>>16))
}

// relative is q (w, x, y, z) after the yaw reset: rotated about z by the
// offset, which is clockwise, so by +yawOffset in the right-hand sense.
func (n *navx) relative(q [4]float64) [4]float64 {
	c, s := math.Cos(n.yawOffset/2), math.Sin(n.yawOffset/2)
	// (c, 0, 0, s) ⊗ q
	return [4]float64{
		c*q[0] - s*q[3],
		c*q[1] - s*q[2],
		c*q[2] + s*q[1],
		c*q[3] + s*q[0],
	}
}

// navxYaw is the firmware's yaw of a unit quaternion w, x, y, z, in rad,
// clockwise seen from above: a turn of +90° about z reads -90°.
func navxYaw(q [4]float64) float64 {
	return math.Atan2(2*q[1]*q[2]-2*q[0]*q[3], 2*q[0]*q[0]+2*q[1]*q[1]-1)
}

// navxRotateInverse rotates v by the inverse of the unit quaternion q: a
// world vector into the body frame.
func navxRotateInverse(q [4]float64, v [3]float64) [3]float64 {
	w, x, y, z := q[0], -q[1], -q[2], -q[3]
	// t = 2 (u × v), v' = v + w t + u × t, with u = (x, y, z)
	tx := 2 * (y*v[2] - z*v[1])
	ty := 2 * (z*v[0] - x*v[2])
	tz := 2 * (x*v[1] - y*v[0])
	return [3]float64{
		v[0] + w*tx + (y*tz - z*ty),
		v[1] + w*ty + (z*tx - x*tz),
		v[2] + w*tz + (x*ty - y*tx),
	}
}

// navxAccelRaw is an acceleration in g as the raw accelerometer counts it.
func navxAccelRaw(g float64) uint16 { return uint16(navxSat16(g * 32768 / frc.NavXAccelFSRg)) }

// navxCenti is an angle in degrees in hundredths, saturated to int16.
func navxCenti(deg float64) int16 { return navxSat16(deg * 100) }

// navxSat16 rounds v to the nearest int16, saturating (NaN reads 0).
func navxSat16(v float64) int16 {
	switch {
	case math.IsNaN(v):
		return 0
	case v >= math.MaxInt16:
		return math.MaxInt16
	case v <= math.MinInt16:
		return math.MinInt16
	}
	return int16(math.Round(v))
}

func navxPut16(r *[frc.NavXRegCount]byte, reg int, v uint16) {
	r[reg], r[reg+1] = byte(v), byte(v>>8)
}

// write is a register write from either bus. Only UPDATE_RATE_HZ
// (clipped to 4-200 Hz) and INTEGRATION_CTL take writes.
func (n *navx) write(reg int, v byte) {
	switch reg {
	case frc.NavXRegUpdateRate:
		n.regs[reg] = max(frc.NavXMinRateHz, min(frc.NavXMaxRateHz, v))
	case frc.NavXRegIntegrationCtl:
		if v&frc.NavXResetYaw != 0 {
			n.resetYawReq = true
		}
	}
}

// spiPort is the navX's SPI port, as hal.Backend.SPI hands it out.
func (n *navx) spiPort() spi.Port { return &n.port }

// i2cBus is the bus the navX is on (address 0x32), as hal.Backend.I2C
// hands it out; no other address answers.
func (n *navx) i2cBus() i2c.Bus { return &n.bus }

// navxSPIPort is the navX's SPI port: Connect records the settings asked
// for and returns the one connection.
type navxSPIPort struct{ n *navx }

func (p *navxSPIPort) String() string { return "sim navX-MXP SPI" }

// Connect records f, mode and bits (the navX wants spi.Mode3, 8 bits, up
// to 2 MHz; 500 kHz is what its library uses). Any mode is taken; a word
// size other than 8 bits is refused.
func (p *navxSPIPort) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	if bits != 8 {
		return nil, errNavXBits
	}
	n := p.n
	n.mu.Lock()
	n.spiHz, n.spiMode, n.spiBits, n.spiConnected = f, mode, bits, true
	n.mu.Unlock()
	return &n.conn, nil
}

// LimitSpeed records the limit (spi.PortCloser's).
func (p *navxSPIPort) LimitSpeed(f physic.Frequency) error {
	p.n.mu.Lock()
	p.n.spiLimit = f
	p.n.mu.Unlock()
	return nil
}

// navxSPIConn speaks the navX SPI protocol. Each Tx is one chip-select
// period. With no response pending, a Tx of 3 bytes is a request:
// [reg|0x80, value, CRC] writes, [reg, count, CRC] asks for count bytes
// from reg (clipped at 0x6F); a bad CRC, a count of 0 or a register past
// 0x6F is ignored, as is any other length. After a read request, the
// next transfers clock out the response, count data bytes and their CRC,
// whatever the master sends meanwhile; what is clocked with nothing to
// send reads 0.
type navxSPIConn struct{ n *navx }

func (c *navxSPIConn) String() string { return "sim navX-MXP SPI" }

// Duplex is conn.Full: SPI clocks both ways at once.
func (c *navxSPIConn) Duplex() conn.Duplex { return conn.Full }

// Tx does one transfer.
func (c *navxSPIConn) Tx(w, r []byte) error {
	n := c.n
	n.mu.Lock()
	defer n.mu.Unlock()
	n.spiTx(w, r)
	return nil
}

// TxPackets does each packet as a transfer of its own.
func (c *navxSPIConn) TxPackets(p []spi.Packet) error {
	n := c.n
	n.mu.Lock()
	defer n.mu.Unlock()
	for i := range p {
		n.spiTx(p[i].W, p[i].R)
	}
	return nil
}

// unplugged reports whether the navX's cable is pulled.
func (n *navx) unplugged() bool {
	f := n.fault
	return f != nil && f.p.Disconnected && n.now >= f.at
}

// drops draws whether the navX loses this response.
func (n *navx) drops() bool { return n.fault != nil && n.fault.dropped() }

func (n *navx) spiTx(w, r []byte) {
	if n.unplugged() {
		clear(r) // MISO reads zeros, as with no device
		n.respLen, n.respPos = 0, 0
		return
	}
	if n.respLen > 0 {
		// The firmware is transmitting: it clocks out the response and
		// ignores what it receives.
		clocked := max(len(w), len(r))
		for i := range r {
			r[i] = 0
			if p := n.respPos + i; p < n.respLen {
				r[i] = n.resp[p]
			}
		}
		n.respPos += clocked
		if n.respPos >= n.respLen {
			n.respLen, n.respPos = 0, 0
		}
		return
	}
	clear(r)
	if len(w) != 3 || frc.NavXCRC(w[:2]) != w[2] || w[1] == 0 {
		return
	}
	reg := int(w[0] &^ 0x80)
	if reg > frc.NavXRegLast {
		return
	}
	if w[0]&0x80 != 0 {
		n.write(reg, w[1])
		return
	}
	count := min(int(w[1]), frc.NavXRegCount-reg)
	copy(n.resp[:count], n.regs[reg:reg+count])
	n.resp[count] = frc.NavXCRC(n.resp[:count])
	if n.drops() {
		n.resp[count] ^= 0xFF // a dropout: the response is garbled
	}
	n.respLen, n.respPos, n.respAt = count+1, 0, n.now
}

// navxI2CBus is the I2C bus with the navX at 0x32. A write of
// [reg|0x80, value] writes; [reg, count] or [reg] sets up a read of count
// bytes (to 0x6F for [reg]) that the same Tx's r, or a following read-only
// Tx, clocks out. Bytes read past the end, or with no read set up, are
// 0xFF (the bus idles high).
type navxI2CBus struct{ n *navx }

func (b *navxI2CBus) String() string { return "sim I2C (navX-MXP at 0x32)" }

// SetSpeed records the bus speed.
func (b *navxI2CBus) SetSpeed(f physic.Frequency) error {
	b.n.mu.Lock()
	b.n.i2cHz = f
	b.n.mu.Unlock()
	return nil
}

// Tx does one transaction: the write, then the read.
func (b *navxI2CBus) Tx(addr uint16, w, r []byte) error {
	if addr != frc.NavXI2CAddr {
		return errNavXNoAck
	}
	n := b.n
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.unplugged() || (len(r) > 0 && n.drops()) {
		n.i2cPending = false
		return errNavXNoAck
	}
	if len(w) > 0 {
		n.i2cPending = false
	}
	if len(w) == 1 || len(w) == 2 {
		reg := int(w[0] &^ 0x80)
		switch {
		case reg > frc.NavXRegLast:
		case w[0]&0x80 != 0 && len(w) == 2:
			n.write(reg, w[1])
		case w[0]&0x80 == 0:
			count := frc.NavXRegCount - reg
			if len(w) == 2 {
				count = min(count, int(w[1]))
			}
			n.i2cReg, n.i2cCount, n.i2cPending = reg, count, true
		}
	}
	if len(r) == 0 {
		return nil
	}
	for i := range r {
		r[i] = 0xFF
		if n.i2cPending && i < n.i2cCount {
			r[i] = n.regs[n.i2cReg+i]
		}
	}
	n.i2cPending = false
	return nil
}
