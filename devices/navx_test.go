package devices

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/interfaces"
)

// fakeNavX is a navX-MXP's register file behind its SPI and I2C protocols,
// written for these tests from PROTOCOLS.md: an SPI request [reg, count,
// CRC] is answered on the next transfer by count bytes and their CRC; an
// I2C write of [reg, count] is followed by count bytes read.
type fakeNavX struct {
	regs [0x70]byte

	mode     spi.Mode
	hz       physic.Frequency
	bits     int
	requests [][3]byte // SPI requests and I2C writes, in order (test setup only)
	txs      int       // transfers of any kind
	resp     [0x71]byte
	respLen  int
	badCRC   bool  // corrupt the CRC of responses
	err      error // fail every transfer
	record   bool
}

// navxCRCTable is the navX CRC by table, built apart from navxCRC: entry i is
// the remainder of i after eight shifts.
var navxCRCTable = func() (t [256]byte) {
	for i := range t {
		c := byte(i)
		for range 8 {
			c = c>>1 ^ (c&1)*0x48 // (c ^ 0x91) >> 1 when c is odd: 0x91 >> 1 = 0x48, low bit cleared
		}
		t[i] = c
	}
	return t
}()

func fakeNavXCRC(b []byte) byte {
	var c byte
	for _, x := range b {
		c = navxCRCTable[c^x]
	}
	return c
}

func (f *fakeNavX) String() string { return "fake navX" }

func (f *fakeNavX) Connect(hz physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	f.hz, f.mode, f.bits = hz, mode, bits
	return f, nil
}

func (f *fakeNavX) Duplex() conn.Duplex { return conn.Full }

func (f *fakeNavX) TxPackets(p []spi.Packet) error {
	for _, pk := range p {
		if err := f.Tx(pk.W, pk.R); err != nil {
			return err
		}
	}
	return nil
}

// Tx is an SPI transfer.
func (f *fakeNavX) Tx(w, r []byte) error {
	f.txs++
	if f.err != nil {
		return f.err
	}
	if f.respLen > 0 {
		copy(r, f.resp[:f.respLen])
		f.respLen = 0
		return nil
	}
	if len(w) == 3 && w[0]&0x80 == 0 && fakeNavXCRC(w[:2]) == w[2] {
		if f.record {
			f.requests = append(f.requests, [3]byte{w[0], w[1], w[2]})
		}
		n := int(w[1])
		copy(f.resp[:n], f.regs[w[0]:])
		f.resp[n] = fakeNavXCRC(f.resp[:n])
		if f.badCRC {
			f.resp[n] ^= 0x5A
		}
		f.respLen = n + 1
	}
	return nil
}

// fakeNavXI2C is the fake on an I2C bus at 0x32.
type fakeNavXI2C struct{ *fakeNavX }

func (b fakeNavXI2C) SetSpeed(physic.Frequency) error { return nil }

func (b fakeNavXI2C) Tx(addr uint16, w, r []byte) error {
	b.txs++
	if b.err != nil {
		return b.err
	}
	if addr != 0x32 {
		return hal.ErrNoDevice
	}
	if b.record {
		b.requests = append(b.requests, [3]byte{w[0], w[1]})
	}
	copy(r[:w[1]], b.regs[w[0]:])
	return nil
}

func (f *fakeNavX) put16(reg int, v int16) { binary.LittleEndian.PutUint16(f.regs[reg:], uint16(v)) }

// newFakeNavX is a running navX at 60 Hz turned +90° about z, turning at
// 90 °/s and accelerating at 0.5 g along x.
func newFakeNavX() *fakeNavX {
	f := &fakeNavX{}
	f.regs[0x00] = 0x32 // WHOAMI
	f.regs[0x04] = 60   // UPDATE_RATE_HZ
	f.regs[0x05] = 2    // accel FSR, g
	f.put16(0x06, 2000) // gyro FSR, °/s
	f.regs[0x08] = 4    // OP_STATUS normal
	f.setTimestamp(1000)
	f.put16(0x16, -9000) // yaw -90.00° (clockwise positive)
	f.put16(0x24, 500)   // world accel X, 0.001 g
	f.put16(0x26, -10)
	f.put16(0x2A, 23170) // quaternion W: cos 45° × 32768
	f.put16(0x30, 23170) // quaternion Z: sin 45° × 32768
	f.put16(0x38, 1475)  // gyro Z: 90 °/s × 32768 / 2000 = 1474.56
	return f
}

func (f *fakeNavX) setTimestamp(ms uint32) { binary.LittleEndian.PutUint32(f.regs[0x12:], ms) }

// navxDevice builds a navx device of the YAML entry on a fake backend.
func navxDevice(t *testing.T, entry string, b *haltest.Backend) (*navX, *interfaces.IMUState, error) {
	t.Helper()
	f, list := config.Parse("robot.yaml", []byte("joints:\n  - "+entry+"\n"))
	if len(list) > 0 {
		t.Fatalf("config: %v", list)
	}
	reg := interfaces.NewRegistry()
	d, err := newNavX(f.Devices[0], NewEnv(b, reg))
	if err != nil {
		return nil, nil, err
	}
	s, err := interfaces.State[interfaces.IMUState](reg, "gyro", interfaces.IMU)
	if err != nil {
		t.Fatal(err)
	}
	return d.(*navX), s, nil
}

const (
	navxSPIEntry = "{name: gyro, type: navx, frame_id: base_link, interface: spi, id: 4}"
	navxI2CEntry = "{name: gyro, type: navx, frame_id: base_link, interface: i2c, id: 1}"
)

func navxOnSPI(t *testing.T) (*navX, *interfaces.IMUState, *fakeNavX) {
	t.Helper()
	b := haltest.New()
	f := newFakeNavX()
	b.SPIPorts[4] = f
	d, s, err := navxDevice(t, navxSPIEntry, b)
	if err != nil {
		t.Fatal(err)
	}
	return d, s, f
}

func navxNear(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// checkNavXState compares the state with the fake's numbers.
func checkNavXState(t *testing.T, s *interfaces.IMUState) {
	t.Helper()
	h := math.Sqrt(0.5)
	want := interfaces.IMUState{
		Orientation:        [4]float64{0, 0, h, h},                                  // x, y, z, w: +90° about z
		AngularVelocity:    [3]float64{0, 0, 1475.0 * 2000 / 32768 * math.Pi / 180}, // 1.5713 rad/s
		LinearAcceleration: [3]float64{0.5 * 9.80665, -0.01 * 9.80665, 0},
	}
	for i := range 4 {
		if !navxNear(s.Orientation[i], want.Orientation[i]) {
			t.Errorf("orientation %v, want %v", s.Orientation, want.Orientation)
			break
		}
	}
	for i := range 3 {
		if !navxNear(s.AngularVelocity[i], want.AngularVelocity[i]) || !navxNear(s.LinearAcceleration[i], want.LinearAcceleration[i]) {
			t.Errorf("angular velocity %v, linear acceleration %v; want %v, %v",
				s.AngularVelocity, s.LinearAcceleration, want.AngularVelocity, want.LinearAcceleration)
			break
		}
	}
	if s.OrientationCovariance != [9]float64{} || s.AngularVelocityCovariance != [9]float64{} {
		t.Errorf("covariances %v %v, want unknown (zero)", s.OrientationCovariance, s.AngularVelocityCovariance)
	}
}

// On SPI a read takes two cycles: the request, then the response 1 ms on.
func TestNavXSPISplit(t *testing.T) {
	d, s, f := navxOnSPI(t)
	f.record = true
	if f.mode != spi.Mode3 || f.hz != 500*physic.KiloHertz || f.bits != 8 {
		t.Errorf("connected %v at %v, %d bits; want Mode3 at 500kHz, 8 bits", f.mode, f.hz, f.bits)
	}
	if f.txs != 0 {
		t.Errorf("%d transfers in the constructor, want none", f.txs)
	}
	ms := time.Millisecond
	steps := []struct {
		at    time.Duration
		txs   int  // transfers so far
		state bool // the state holds the fake's numbers
	}{
		{0, 1, false},      // request
		{ms / 2, 1, false}, // too soon for the response
		{ms, 2, true},      // response
		{2 * ms, 2, true},  // next poll at 1/120 s
		{8 * ms, 2, true},  //
		{9 * ms, 3, true},  // request
		{10 * ms, 4, true}, // response
	}
	for _, st := range steps {
		if err := d.Read(st.at, ms); err != nil {
			t.Fatalf("Read at %v: %v", st.at, err)
		}
		if f.txs != st.txs {
			t.Errorf("at %v: %d transfers, want %d", st.at, f.txs, st.txs)
		}
		if st.state {
			checkNavXState(t, s)
		} else if s.Orientation != [4]float64{0, 0, 0, 1} {
			t.Errorf("at %v: orientation %v before any response, want the identity", st.at, s.Orientation)
		}
	}
	// The request asks for 58 bytes from WHOAMI: [0x00, 0x3A, 0x44].
	if len(f.requests) == 0 || f.requests[0] != [3]byte{0x00, 0x3A, 0x44} {
		t.Errorf("requests %x, want [00 3a 44]", f.requests)
	}
}

func TestNavXI2C(t *testing.T) {
	b := haltest.New()
	f := newFakeNavX()
	f.record = true
	b.I2CBuses[1] = fakeNavXI2C{f}
	d, s, err := navxDevice(t, navxI2CEntry, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Read(0, time.Millisecond); err != nil {
		t.Fatal(err)
	}
	checkNavXState(t, s)
	if f.txs != 1 || f.requests[0] != [3]byte{0x00, 0x3A} {
		t.Errorf("%d transactions, requests %x; want 1, [00 3a]", f.txs, f.requests)
	}
	// The next read is due 1/120 s on.
	d.Read(8*time.Millisecond, time.Millisecond)
	d.Read(9*time.Millisecond, time.Millisecond)
	if f.txs != 2 {
		t.Errorf("%d transactions by 9 ms, want 2", f.txs)
	}
}

func TestNavXBadCRC(t *testing.T) {
	d, s, f := navxOnSPI(t)
	f.badCRC = true
	d.Read(0, time.Millisecond)
	err := d.Read(time.Millisecond, time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "CRC") {
		t.Errorf("Read of a bad CRC: %v, want a CRC error", err)
	}
	if s.Orientation != [4]float64{0, 0, 0, 1} || s.AngularVelocity != [3]float64{} {
		t.Errorf("state %+v changed by a bad response", *s)
	}
	// The next good response is taken.
	f.badCRC = false
	d.Read(9*time.Millisecond, time.Millisecond)
	if err := d.Read(10*time.Millisecond, time.Millisecond); err != nil {
		t.Fatal(err)
	}
	checkNavXState(t, s)
}

func TestNavXStale(t *testing.T) {
	d, _, f := navxOnSPI(t)
	// The timestamp never moves from the first response at 1 ms: past
	// 100 ms on (more than three periods at 60 Hz, 50 ms) the state is stale.
	for now := time.Duration(0); now <= 101*time.Millisecond; now += time.Millisecond {
		if err := d.Read(now, time.Millisecond); err != nil {
			t.Fatalf("Read at %v: %v", now, err)
		}
	}
	err := d.Read(102*time.Millisecond, time.Millisecond)
	if !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("Read with a frozen timestamp: %v, want ErrTimeout", err)
	}
	// A new sample clears it at the next response.
	f.setTimestamp(1117)
	for now := 103 * time.Millisecond; now < 120*time.Millisecond; now += time.Millisecond {
		err = d.Read(now, time.Millisecond)
	}
	if err != nil {
		t.Errorf("Read after a new sample: %v", err)
	}
}

func TestNavXWhoAmI(t *testing.T) {
	b := haltest.New()
	f := newFakeNavX()
	f.regs[0] = 0x33
	b.I2CBuses[1] = fakeNavXI2C{f}
	d, s, err := navxDevice(t, navxI2CEntry, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Read(0, time.Millisecond); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("WHOAMI 0x33: %v, want ErrNoDevice", err)
	}
	if s.AngularVelocity != [3]float64{} {
		t.Errorf("state taken from a wrong device: %+v", *s)
	}
}

func TestNavXNotReady(t *testing.T) {
	d, s, f := navxOnSPI(t)
	f.regs[0x08] = 3 // IMU auto-calibration in progress
	d.Read(0, time.Millisecond)
	if err := d.Read(time.Millisecond, time.Millisecond); err == nil || errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("OP_STATUS 3: %v, want a not-ready error", err)
	}
	if s.AngularVelocity != [3]float64{} {
		t.Errorf("state taken while calibrating: %+v", *s)
	}
}

func TestNavXBusErrors(t *testing.T) {
	d, _, f := navxOnSPI(t)
	f.err = hal.ErrClosed
	if err := d.Read(0, time.Millisecond); !errors.Is(err, hal.ErrClosed) || !strings.Contains(err.Error(), `navx "gyro"`) {
		t.Errorf("Read on a closed bus: %v", err)
	}
	// No such port, and serial, are refused by the constructor.
	if _, _, err := navxDevice(t, navxSPIEntry, haltest.New()); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("missing SPI port: %v, want ErrNoDevice", err)
	}
	_, _, err := navxDevice(t, "{name: gyro, type: navx, frame_id: base_link, interface: serial, id: 2}", haltest.New())
	if err == nil || !strings.Contains(err.Error(), "not supported") || !strings.Contains(err.Error(), "spi or i2c") {
		t.Errorf("serial: %v, want a refusal naming spi or i2c", err)
	}
}

func TestNavXAllocs(t *testing.T) {
	d, _, f := navxOnSPI(t)
	b := haltest.New()
	g := newFakeNavX()
	b.I2CBuses[1] = fakeNavXI2C{g}
	di, _, err := navxDevice(t, navxI2CEntry, b)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Duration(0)
	ts := uint32(0)
	allocs := testing.AllocsPerRun(200, func() {
		now += time.Millisecond
		if now%(17*time.Millisecond) == 0 {
			ts += 17
			f.setTimestamp(ts)
			g.setTimestamp(ts)
		}
		if err := d.Read(now, time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if err := di.Read(now, time.Millisecond); err != nil {
			t.Fatal(err)
		}
		d.Write(now, time.Millisecond)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per Read, want 0", allocs)
	}
	// The error paths return prebuilt errors.
	f.badCRC = true
	allocs = testing.AllocsPerRun(50, func() {
		now += time.Millisecond
		d.Read(now, time.Millisecond)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per failing Read, want 0", allocs)
	}
}

// FuzzNavXDecode feeds the decoder arbitrary register bytes: it never
// panics, and what it takes is finite with a unit quaternion.
func FuzzNavXDecode(f *testing.F) {
	f.Add(newFakeNavX().regs[:navxSpan])
	f.Add(make([]byte, navxSpan))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, s, _ := navxOnSPI(t)
		_ = d.decode(0, data) // any length
		b := make([]byte, navxSpan)
		copy(b, data)
		if err := d.decode(time.Millisecond, b); err != nil {
			return
		}
		var norm float64
		for _, v := range s.Orientation {
			norm += v * v
		}
		if math.Abs(norm-1) > 1e-9 {
			t.Errorf("orientation %v is not a unit quaternion", s.Orientation)
		}
		for i := range 3 {
			if !interfaces.Finite(s.AngularVelocity[i]) || !interfaces.Finite(s.LinearAcceleration[i]) {
				t.Errorf("state %+v is not finite", *s)
			}
		}
	})
}
