package sim

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/bounds"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

// navxYawQ is a turn of deg degrees about z, right-handed (counterclockwise
// seen from above), as w, x, y, z.
func navxYawQ(deg float64) [4]float64 {
	h := deg * math.Pi / 360
	return [4]float64{math.Cos(h), 0, 0, math.Sin(h)}
}

func navxS16(n *navx, reg int) int16 {
	return int16(binary.LittleEndian.Uint16(n.regs[reg:]))
}

func navxU16(n *navx, reg int) uint16 { return binary.LittleEndian.Uint16(n.regs[reg:]) }

func TestNavXPowerUp(t *testing.T) {
	n := newNavX()
	want := map[int]uint16{
		frc.NavXRegUpdateRate:   60,
		frc.NavXRegGyroFSR:      2000,
		frc.NavXRegSensorStatus: frc.NavXStatusYawOK,
		frc.NavXRegQuat:         32767, // W = 1, saturated
		frc.NavXRegQuat + 6:     0,
		frc.NavXRegAccel + 4:    16384, // 1 g at ±2 g full scale
	}
	if n.regs[frc.NavXRegWhoAmI] != 0x32 || n.regs[frc.NavXRegOpStatus] != 4 || n.regs[frc.NavXRegAccelFSR] != 2 {
		t.Errorf("WHOAMI %#x OP_STATUS %d ACCEL_FSR %d, want 0x32 4 2",
			n.regs[frc.NavXRegWhoAmI], n.regs[frc.NavXRegOpStatus], n.regs[frc.NavXRegAccelFSR])
	}
	for reg, v := range want {
		got := navxU16(n, reg)
		if reg == frc.NavXRegUpdateRate {
			got = uint16(n.regs[reg])
		}
		if got != v {
			t.Errorf("register %#02x = %d, want %d", reg, got, v)
		}
	}
}

// A turn of +90° about z (counterclockwise) reads yaw -90.00°: the navX's
// yaw grows clockwise (the firmware's yaw = atan2(2xy - 2wz, 2w² + 2x² - 1)).
func TestNavXYaw90(t *testing.T) {
	n := newNavX()
	n.set(IMU{Orientation: navxYawQ(90)}, 1234*time.Millisecond)
	checks := []struct {
		name string
		reg  int
		want int16
	}{
		{"yaw", frc.NavXRegYaw, -9000},
		{"roll", frc.NavXRegRoll, 0},
		{"pitch", frc.NavXRegPitch, 0},
		{"quat W", frc.NavXRegQuat, 23170}, // 0.70711 × 32768 = 23170.5
		{"quat X", frc.NavXRegQuat + 2, 0},
		{"quat Y", frc.NavXRegQuat + 4, 0},
		{"quat Z", frc.NavXRegQuat + 6, 23170},
		{"accel Z", frc.NavXRegAccel + 4, 16384}, // level: 1 g
	}
	for _, c := range checks {
		if got := navxS16(n, c.reg); got != c.want {
			t.Errorf("%s = %d, want %d", c.name, got, c.want)
		}
	}
	// Heading is clockwise from +x: a quarter turn left is 270°.
	if got := navxU16(n, frc.NavXRegHeading); got != 27000 {
		t.Errorf("heading = %d, want 27000", got)
	}
	if got := binary.LittleEndian.Uint32(n.regs[frc.NavXRegTimestamp:]); got != 1234 {
		t.Errorf("timestamp = %d ms, want 1234", got)
	}
}

// Rolling +30° about x reads in the PITCH register: the firmware's pitch is
// atan(gy / √(gx² + gz²)) of the gravity vector, and gy = sin 30°.
func TestNavXTilt(t *testing.T) {
	n := newNavX()
	h := 15 * math.Pi / 180
	n.set(IMU{Orientation: [4]float64{math.Cos(h), math.Sin(h), 0, 0}}, 0)
	if got := navxS16(n, frc.NavXRegPitch); got != 3000 {
		t.Errorf("pitch = %d, want 3000", got)
	}
	if got := navxS16(n, frc.NavXRegRoll); got != 0 {
		t.Errorf("roll = %d, want 0", got)
	}
	// Gravity in the body: y = sin 30° = 0.5 g, z = cos 30° = 0.866 g.
	if got := navxS16(n, frc.NavXRegAccel+2); got != 8192 {
		t.Errorf("raw accel Y = %d, want 8192 (0.5 g)", got)
	}
	if got := navxS16(n, frc.NavXRegAccel+4); got != 14189 {
		t.Errorf("raw accel Z = %d, want 14189 (0.866 g)", got)
	}
}

func TestNavXMotion(t *testing.T) {
	n := newNavX()
	n.set(IMU{
		Orientation:        [4]float64{1, 0, 0, 0},
		AngularVelocity:    [3]float64{0, 0, math.Pi / 2},       // 90 °/s
		LinearAcceleration: [3]float64{4.903325, -0.0980665, 0}, // 0.5 g, -0.01 g
	}, 0)
	checks := []struct {
		name string
		reg  int
		want int16
	}{
		{"world accel X", frc.NavXRegLinearAccel, 500},
		{"world accel Y", frc.NavXRegLinearAccel + 2, -10},
		{"world accel Z", frc.NavXRegLinearAccel + 4, 0},
		{"gyro Z", frc.NavXRegGyro + 4, 1475}, // 90 °/s × 32768 / 2000 = 1474.56
		{"raw accel X", frc.NavXRegAccel, 8192},
		{"raw accel Y", frc.NavXRegAccel + 2, -164}, // -0.01 g × 16384 = -163.84
		{"raw accel Z", frc.NavXRegAccel + 4, 16384},
	}
	for _, c := range checks {
		if got := navxS16(n, c.reg); got != c.want {
			t.Errorf("%s = %d, want %d", c.name, got, c.want)
		}
	}
	if got := navxU16(n, frc.NavXRegSensorStatus); got != frc.NavXStatusMoving {
		t.Errorf("sensor status = %#x, want moving, not yaw stable (0x01)", got)
	}
	// At rest again the next sample is yaw stable and not moving.
	n.set(IMU{}, 17*time.Millisecond)
	if got := navxU16(n, frc.NavXRegSensorStatus); got != frc.NavXStatusYawOK {
		t.Errorf("sensor status at rest = %#x, want 0x02", got)
	}
}

// Samples come at UPDATE_RATE_HZ: at 60 Hz one every 16.67 ms.
func TestNavXUpdateRate(t *testing.T) {
	n := newNavX()
	ts := func() uint32 { return binary.LittleEndian.Uint32(n.regs[frc.NavXRegTimestamp:]) }
	n.set(IMU{Orientation: navxYawQ(10)}, 100*time.Millisecond)
	n.set(IMU{Orientation: navxYawQ(20)}, 110*time.Millisecond)
	if ts() != 100 || navxS16(n, frc.NavXRegYaw) != -1000 {
		t.Errorf("at 110 ms: timestamp %d yaw %d, want the sample of 100 ms (-1000)", ts(), navxS16(n, frc.NavXRegYaw))
	}
	n.set(IMU{Orientation: navxYawQ(20)}, 117*time.Millisecond)
	if ts() != 117 || navxS16(n, frc.NavXRegYaw) != -2000 {
		t.Errorf("at 117 ms: timestamp %d yaw %d, want 117, -2000", ts(), navxS16(n, frc.NavXRegYaw))
	}
}

// navxSPIRequest sends a 3-byte request with its CRC.
func navxSPIRequest(t *testing.T, c spi.Conn, a, b byte) {
	t.Helper()
	w := []byte{a, b, frc.NavXCRC([]byte{a, b})}
	if err := c.Tx(w, make([]byte, 3)); err != nil {
		t.Fatal(err)
	}
}

func TestNavXSPI(t *testing.T) {
	n := newNavX()
	c, err := n.spiPort().Connect(500*physic.KiloHertz, spi.Mode3, 8)
	if err != nil {
		t.Fatal(err)
	}
	if n.spiMode != spi.Mode3 || n.spiHz != 500*physic.KiloHertz {
		t.Errorf("recorded mode %v at %v, want Mode3 at 500kHz", n.spiMode, n.spiHz)
	}
	if _, err := n.spiPort().Connect(0, spi.Mode0, 16); err == nil {
		t.Error("16-bit words accepted")
	}

	// Write UPDATE_RATE_HZ = 50, then read it back with the following byte.
	navxSPIRequest(t, c, 0x84, 50)
	navxSPIRequest(t, c, 0x04, 2)
	r := make([]byte, 3)
	if err := c.Tx(make([]byte, 3), r); err != nil {
		t.Fatal(err)
	}
	want := []byte{50, 2, frc.NavXCRC([]byte{50, 2})}
	if string(r) != string(want) {
		t.Errorf("read 0x04-0x05 = % x, want % x", r, want)
	}
	// The response is consumed: another read clocks out zeros.
	if c.Tx(make([]byte, 3), r); string(r) != "\x00\x00\x00" {
		t.Errorf("second read = % x, want zeros", r)
	}

	// A request past 0x6F is clipped: 0x6E asked for 8 bytes gives 2.
	navxSPIRequest(t, c, 0x6E, 8)
	if n.respLen != 3 {
		t.Errorf("response to 8 bytes at 0x6E is %d bytes long, want 3", n.respLen)
	}
	r = make([]byte, 3)
	c.Tx(make([]byte, 3), r)

	// A response may be clocked out in pieces.
	navxSPIRequest(t, c, 0x00, 4)
	r1, r2 := make([]byte, 2), make([]byte, 3)
	c.Tx(make([]byte, 2), r1)
	c.Tx(make([]byte, 3), r2)
	whoami := []byte{0x32, 0, 0, 0}
	if got := append(r1, r2...); string(got) != string(append(whoami, frc.NavXCRC(whoami))) {
		t.Errorf("read in two pieces = % x", got)
	}
}

func TestNavXSPIBadRequests(t *testing.T) {
	n := newNavX()
	c, _ := n.spiPort().Connect(500*physic.KiloHertz, spi.Mode3, 8)
	// A write with a bad CRC is ignored.
	c.Tx([]byte{0x84, 50, frc.NavXCRC([]byte{0x84, 50}) ^ 1}, nil)
	if n.regs[frc.NavXRegUpdateRate] != 60 {
		t.Errorf("bad-CRC write took: rate %d", n.regs[frc.NavXRegUpdateRate])
	}
	// So is a read request with a bad CRC: the next read clocks out zeros.
	c.Tx([]byte{0x00, 4, 0x00}, nil)
	r := make([]byte, 5)
	c.Tx(make([]byte, 5), r)
	if string(r) != "\x00\x00\x00\x00\x00" {
		t.Errorf("read after a bad request = % x, want zeros", r)
	}
	// A write of 0 is refused (the firmware wants a non-zero count byte);
	// writes to read-only registers change nothing; rates are clipped.
	navxSPIRequest(t, c, 0x84, 0)
	navxSPIRequest(t, c, 0x80, 0x11)
	if n.regs[frc.NavXRegUpdateRate] != 60 || n.regs[frc.NavXRegWhoAmI] != 0x32 {
		t.Errorf("rate %d WHOAMI %#x after refused writes", n.regs[frc.NavXRegUpdateRate], n.regs[frc.NavXRegWhoAmI])
	}
	navxSPIRequest(t, c, 0x84, 250)
	if n.regs[frc.NavXRegUpdateRate] != 200 {
		t.Errorf("rate 250 written reads %d, want 200", n.regs[frc.NavXRegUpdateRate])
	}
	// A response not clocked out within 10 ms is dropped.
	n.set(IMU{}, 0)
	navxSPIRequest(t, c, 0x00, 1)
	n.set(IMU{}, 11*time.Millisecond)
	r = make([]byte, 2)
	c.Tx(make([]byte, 2), r)
	if string(r) != "\x00\x00" {
		t.Errorf("late read = % x, want zeros", r)
	}
}

func TestNavXI2C(t *testing.T) {
	n := newNavX()
	b := n.i2cBus()
	if err := b.Tx(0x33, []byte{0x00, 1}, make([]byte, 1)); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("address 0x33: %v, want ErrNoDevice", err)
	}
	// One transaction: [reg, count] then the read.
	r := make([]byte, 5)
	if err := b.Tx(0x32, []byte{0x04, 5}, r); err != nil {
		t.Fatal(err)
	}
	if want := []byte{60, 2, 0xD0, 0x07, 4}; string(r) != string(want) {
		t.Errorf("read 0x04-0x08 = % x, want % x (60 Hz, 2 g, 2000 °/s, normal)", r, want)
	}
	// Two steps, and a write of UPDATE_RATE_HZ clipped to 4.
	if err := b.Tx(0x32, []byte{0x84, 1}, nil); err != nil {
		t.Fatal(err)
	}
	b.Tx(0x32, []byte{0x00, 1}, nil)
	r = make([]byte, 2)
	b.Tx(0x32, nil, r)
	if r[0] != 0x32 || r[1] != 0xFF {
		t.Errorf("two-step read of 1 byte into 2 = % x, want 32 ff", r)
	}
	if n.regs[frc.NavXRegUpdateRate] != 4 {
		t.Errorf("rate 1 written reads %d, want 4", n.regs[frc.NavXRegUpdateRate])
	}
	// A read with nothing set up reads the idle bus.
	b.Tx(0x32, nil, r)
	if r[0] != 0xFF || r[1] != 0xFF {
		t.Errorf("read with no request = % x, want ff ff", r)
	}
}

// Writing 0x80 to INTEGRATION_CTL zeroes the yaw at the next sample; later
// yaw and quaternion are relative to that orientation.
func TestNavXYawReset(t *testing.T) {
	n := newNavX()
	b := n.i2cBus()
	n.set(IMU{Orientation: navxYawQ(30)}, 0)
	if got := navxS16(n, frc.NavXRegYaw); got != -3000 {
		t.Fatalf("yaw = %d, want -3000", got)
	}
	b.Tx(0x32, []byte{0x80 | frc.NavXRegIntegrationCtl, frc.NavXResetYaw}, nil)
	n.set(IMU{Orientation: navxYawQ(30)}, 17*time.Millisecond)
	if got := navxS16(n, frc.NavXRegYaw); got != 0 {
		t.Errorf("yaw after reset = %d, want 0", got)
	}
	if got := navxS16(n, frc.NavXRegYawOffset); got != -3000 {
		t.Errorf("yaw offset = %d, want -3000", got)
	}
	n.set(IMU{Orientation: navxYawQ(75)}, 34*time.Millisecond)
	if got := navxS16(n, frc.NavXRegYaw); got != -4500 {
		t.Errorf("yaw 45° past the reset = %d, want -4500", got)
	}
	// The quaternion is the 45° turn: W = cos 22.5° × 32768, Z = sin 22.5° × 32768.
	if w, z := navxS16(n, frc.NavXRegQuat), navxS16(n, frc.NavXRegQuat+6); w != 30274 || z != 12540 {
		t.Errorf("quaternion W %d Z %d, want 30274 12540", w, z)
	}
	// The compass heading is absolute: 75° left of +x is 285°.
	if got := navxU16(n, frc.NavXRegHeading); got != 28500 {
		t.Errorf("heading = %d, want 28500", got)
	}
}

func TestNavXAllocs(t *testing.T) {
	n := newNavX()
	c, _ := n.spiPort().Connect(500*physic.KiloHertz, spi.Mode3, 8)
	b := n.i2cBus()
	req := []byte{0x04, 0x6C, frc.NavXCRC([]byte{0x04, 0x6C})}
	w, r := make([]byte, 0x6D), make([]byte, 0x6D)
	i2cReq := []byte{0x00, 0x3A}
	m := IMU{Orientation: navxYawQ(30), AngularVelocity: [3]float64{0, 0, 1}}
	now := time.Duration(0)
	allocs := testing.AllocsPerRun(100, func() {
		now += 17 * time.Millisecond
		n.set(m, now)
		c.Tx(req, r[:3])
		c.Tx(w, r)
		b.Tx(0x32, i2cReq, r[:0x3A])
	})
	if allocs != 0 {
		t.Errorf("%v allocations per cycle, want 0", allocs)
	}
	if r[0] != 0x32 {
		t.Errorf("I2C read WHOAMI %#x", r[0])
	}
}

// FuzzNavXTransfers feeds the SPI and I2C protocols arbitrary bytes and
// the model arbitrary motion: nothing panics, and the register file keeps
// its identity.
func FuzzNavXTransfers(f *testing.F) {
	f.Add([]byte{0x04, 0x6C, 0x7B, 0, 0, 0}, 1.0, 0.0, 0.0, 0.5)
	f.Add([]byte{0x84, 0x3C, 0x3E, 0xD6, 0x80, 0x65}, math.NaN(), math.Inf(1), 0.0, 0.0)
	f.Fuzz(func(t *testing.T, data []byte, qw, qz, wz, ax float64) {
		defer bounds.Slow(t)()
		n := newNavX()
		c, _ := n.spiPort().Connect(0, spi.Mode3, 8)
		b := n.i2cBus()
		r := make([]byte, 256)
		now := time.Duration(0)
		for len(data) > 0 {
			k := int(data[0]%8) + 1
			data = data[1:]
			k = min(k, len(data))
			if k == 0 {
				break
			}
			chunk := data[:k]
			data = data[k:]
			now += 5 * time.Millisecond
			n.set(IMU{Orientation: [4]float64{qw, 0, 0, qz}, AngularVelocity: [3]float64{0, 0, wz},
				LinearAcceleration: [3]float64{ax, 0, 0}}, now)
			c.Tx(chunk, r[:len(chunk)])
			c.Tx(nil, r[:int(chunk[0])%130])
			b.Tx(0x32, chunk, r[:len(chunk)])
			b.Tx(0x32, nil, r[:k])
		}
		if n.regs[frc.NavXRegWhoAmI] != 0x32 || n.regs[frc.NavXRegUpdateRate] < 4 || n.regs[frc.NavXRegUpdateRate] > 200 {
			t.Fatalf("WHOAMI %#x rate %d", n.regs[frc.NavXRegWhoAmI], n.regs[frc.NavXRegUpdateRate])
		}
	})
}
