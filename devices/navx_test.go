package devices

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/bounds"
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
// I2C write of [reg, count] is followed by count bytes read. Like the
// firmware (SPI_TX_TIMEOUT_MS), it drops an SPI response not clocked out
// within 10 ms of its request, by its clock now, which the test sets; then
// and with no response to send it clocks out zeros.
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

	now     time.Duration // the fake's clock, set by the test
	respAt  time.Duration // when the response was asked for
	dropped int           // responses dropped, not clocked out in time
}

// fakeNavXTimeout is the firmware's SPI_TX_TIMEOUT_MS. The firmware counts
// whole ms, so a response 10 ms old may be gone: the fake drops it then.
const fakeNavXTimeout = 10 * time.Millisecond

// navxCRCTable is the navX CRC by table, built apart from hal.NavXCRC: entry i is
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
	if f.respLen > 0 && f.now-f.respAt >= fakeNavXTimeout {
		f.respLen = 0
		f.dropped++
	}
	clear(r)
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
		f.respLen, f.respAt = n+1, f.now
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
func navxDevice(t *testing.T, entry string, b hal.Backend) (*navX, *interfaces.IMUState, error) {
	t.Helper()
	f, list := config.Parse("robot.yaml", []byte("joints:\n  - "+entry+"\n"))
	if list.Errors() > 0 {
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

// navxCycle runs one loop cycle at now on the fake's clock: Read, then
// Write (or Halt, disabled) readToWrite later.
func navxCycle(d *navX, f *fakeNavX, now, dt, readToWrite time.Duration, disabled bool) (rerr, werr error) {
	f.now = now
	rerr = d.Read(now, dt)
	f.now = now + readToWrite
	if disabled {
		werr = d.Halt()
	} else {
		werr = d.Write(now, dt)
	}
	return rerr, werr
}

// On SPI a read is split within one cycle: Read sends the request, Write
// clocks out the response.
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
		at               time.Duration
		afterRead, after int // transfers so far after Read, after Write
	}{
		{0, 1, 2},       // request, response
		{ms, 2, 2},      // next poll at 1/120 s
		{8 * ms, 2, 2},  //
		{9 * ms, 3, 4},  // request, response
		{10 * ms, 4, 4}, // next poll at 9 ms + 1/120 s
		{17 * ms, 4, 4}, //
		{18 * ms, 5, 6}, // request, response
	}
	for i, st := range steps {
		f.now = st.at
		if err := d.Read(st.at, ms); err != nil {
			t.Fatalf("Read at %v: %v", st.at, err)
		}
		if f.txs != st.afterRead {
			t.Errorf("at %v: %d transfers after Read, want %d", st.at, f.txs, st.afterRead)
		}
		if i == 0 {
			// The request is out, its response not yet read.
			if s.Orientation != [4]float64{0, 0, 0, 1} || s.AngularVelocity != [3]float64{} {
				t.Errorf("state %+v after the request alone, want the initial one", *s)
			}
			// It asks for 58 bytes from WHOAMI: [0x00, 0x3A, 0x44].
			if len(f.requests) != 1 || f.requests[0] != [3]byte{0x00, 0x3A, 0x44} {
				t.Errorf("requests %x, want [00 3a 44]", f.requests)
			}
		}
		if err := d.Write(st.at, ms); err != nil {
			t.Fatalf("Write at %v: %v", st.at, err)
		}
		if f.txs != st.after {
			t.Errorf("at %v: %d transfers after Write, want %d", st.at, f.txs, st.after)
		}
		checkNavXState(t, s)
	}
	if len(f.requests) != 3 || f.dropped != 0 || f.respLen != 0 {
		t.Errorf("%d requests, %d responses dropped, %d bytes left; want 3, 0, 0", len(f.requests), f.dropped, f.respLen)
	}
}

// At the loop's usual 100 Hz and at 50 Hz every poll decodes: the response
// is read in the cycle of its request, long before the firmware drops it.
func TestNavXSPILoopRates(t *testing.T) {
	// The fake catches the bug this guards against: a response read a
	// cycle after its request, 10 ms on, is gone.
	f := newFakeNavX()
	req := [3]byte{0x00, 0x3A, 0x44}
	var rx [navxSpan + 1]byte
	f.Tx(req[:], make([]byte, 3))
	f.now = 10 * time.Millisecond
	f.Tx(make([]byte, navxSpan+1), rx[:])
	if f.dropped != 1 || rx != [navxSpan + 1]byte{} {
		t.Fatalf("a response 10 ms late: %d dropped, read %x; want 1, zeros", f.dropped, rx)
	}

	for _, period := range []time.Duration{10 * time.Millisecond, 20 * time.Millisecond} {
		for _, disabled := range []bool{false, true} {
			d, s, f := navxOnSPI(t)
			const cycles = 100
			for k := range cycles {
				now := time.Duration(k) * period
				// A new sample each cycle: its timestamp (ms) and gyro Z.
				f.setTimestamp(1000 + uint32(now/time.Millisecond))
				f.put16(0x38, int16(10*k))
				rerr, werr := navxCycle(d, f, now, period, 700*time.Microsecond, disabled)
				if rerr != nil || werr != nil {
					t.Fatalf("%v period, disabled %v, cycle %d: Read %v, Write/Halt %v", period, disabled, k, rerr, werr)
				}
				// 10k × 2000/32768 °/s, in rad/s: 0.0106534 rad/s per k.
				want := float64(10*k) * 2000 / 32768 * math.Pi / 180
				if !navxNear(s.AngularVelocity[2], want) {
					t.Fatalf("%v period, cycle %d: gyro z %v rad/s, want %v", period, k, s.AngularVelocity[2], want)
				}
			}
			// A poll each cycle (1/120 s apart at least), each two transfers.
			if f.txs != 2*cycles || f.dropped != 0 {
				t.Errorf("%v period, disabled %v: %d transfers, %d responses dropped; want %d, 0", period, disabled, f.txs, f.dropped, 2*cycles)
			}
			if !navxNear(s.AngularVelocity[2], 990*2000.0/32768*math.Pi/180) { // 1.054 rad/s
				t.Errorf("last gyro z %v rad/s, want 1.054", s.AngularVelocity[2])
			}
		}
	}
}

// Halt, which the loop calls instead of Write while disabled, reads the
// pending response as Write does and stamps it with the request's time.
func TestNavXHaltCompletes(t *testing.T) {
	d, s, f := navxOnSPI(t)
	ms := time.Millisecond
	f.now = 0
	if err := d.Read(0, ms); err != nil {
		t.Fatal(err)
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	checkNavXState(t, s)
	if f.txs != 2 || f.respLen != 0 {
		t.Errorf("%d transfers, %d bytes unread after Read and Halt; want 2, 0", f.txs, f.respLen)
	}
	// Nothing pending: Halt and Write do no transfer.
	if err := d.Halt(); err != nil || f.txs != 2 {
		t.Errorf("Halt with nothing pending: %v, %d transfers; want nil, 2", err, f.txs)
	}
	if err := d.Write(ms, ms); err != nil || f.txs != 2 {
		t.Errorf("Write with nothing pending: %v, %d transfers; want nil, 2", err, f.txs)
	}
	// A new sample requested at 20 ms and read by Halt is fresh from
	// 20 ms: with the timestamp frozen after it, Read turns stale past
	// 120 ms (100 ms, more than three periods at 60 Hz), not before.
	f.setTimestamp(1020)
	for now := 20 * ms; now <= 121*ms; now += 10 * ms {
		rerr, herr := navxCycle(d, f, now, 10*ms, ms, true)
		if rerr != nil || herr != nil {
			t.Fatalf("at %v: Read %v, Halt %v", now, rerr, herr)
		}
	}
	f.now = 121 * ms
	if err := d.Read(121*ms, ms); !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("Read at 121 ms, no new sample since the request at 20 ms: %v, want ErrTimeout", err)
	}
	// A Halt's response fails as a Write's would.
	d.Halt()
	f.badCRC = true
	f.now = 130 * ms
	d.Read(130*ms, ms)
	if err := d.Halt(); err == nil || !strings.Contains(err.Error(), "CRC") {
		t.Errorf("Halt reading a bad CRC: %v, want a CRC error", err)
	}
}

// A Read while a request is still pending (no Write or Halt since, which
// the loop never does) sends no new request; the next Write reads it.
func TestNavXSPIPendingRead(t *testing.T) {
	d, s, f := navxOnSPI(t)
	ms := time.Millisecond
	d.Read(0, ms)
	f.now = 9 * ms
	if err := d.Read(9*ms, ms); err != nil || f.txs != 1 {
		t.Errorf("Read with a request pending: %v, %d transfers; want nil, 1", err, f.txs)
	}
	if err := d.Write(9*ms, ms); err != nil || f.txs != 2 {
		t.Errorf("Write: %v, %d transfers; want nil, 2", err, f.txs)
	}
	checkNavXState(t, s)
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
	// Write and Halt do nothing on I2C.
	if err := d.Write(0, time.Millisecond); err != nil || d.Halt() != nil || f.txs != 1 {
		t.Errorf("Write and Halt on I2C: %v, %d transactions; want nil, 1", err, f.txs)
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
	rerr, werr := navxCycle(d, f, 0, time.Millisecond, 0, false)
	if rerr != nil {
		t.Errorf("Read sending the request: %v", rerr)
	}
	if werr == nil || !strings.Contains(werr.Error(), "CRC") {
		t.Errorf("Write of a bad CRC: %v, want a CRC error", werr)
	}
	if s.Orientation != [4]float64{0, 0, 0, 1} || s.AngularVelocity != [3]float64{} {
		t.Errorf("state %+v changed by a bad response", *s)
	}
	// The next good response is taken.
	f.badCRC = false
	if rerr, werr := navxCycle(d, f, 9*time.Millisecond, time.Millisecond, 0, false); rerr != nil || werr != nil {
		t.Fatal(rerr, werr)
	}
	checkNavXState(t, s)
}

func TestNavXStale(t *testing.T) {
	d, _, f := navxOnSPI(t)
	// The timestamp never moves from the first response, asked for at
	// 0 ms: past 100 ms on (more than three periods at 60 Hz, 50 ms) the
	// state is stale.
	for now := time.Duration(0); now <= 100*time.Millisecond; now += time.Millisecond {
		if rerr, werr := navxCycle(d, f, now, time.Millisecond, 0, false); rerr != nil || werr != nil {
			t.Fatalf("at %v: Read %v, Write %v", now, rerr, werr)
		}
	}
	f.now = 101 * time.Millisecond
	err := d.Read(101*time.Millisecond, time.Millisecond)
	if !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("Read with a frozen timestamp: %v, want ErrTimeout", err)
	}
	d.Write(101*time.Millisecond, time.Millisecond)
	// A new sample clears it at the next response.
	f.setTimestamp(1117)
	var rerr error
	for now := 102 * time.Millisecond; now < 120*time.Millisecond; now += time.Millisecond {
		rerr, _ = navxCycle(d, f, now, time.Millisecond, 0, false)
	}
	if rerr != nil {
		t.Errorf("Read after a new sample: %v", rerr)
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
	_, err := navxCycle(d, f, 0, time.Millisecond, 0, false)
	if err == nil || !strings.Contains(err.Error(), "calibrating") {
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
	// A failed request leaves nothing pending; the next cycle asks again.
	if err := d.Write(0, time.Millisecond); err != nil || f.txs != 1 {
		t.Errorf("Write after a failed request: %v, %d transfers; want nil, 1", err, f.txs)
	}
	f.err = nil
	if err := d.Read(time.Millisecond, time.Millisecond); err != nil || f.txs != 2 {
		t.Errorf("Read after the bus is back: %v, %d transfers; want nil, 2", err, f.txs)
	}
	// The response fails on the bus.
	f.err = hal.ErrClosed
	if err := d.Write(time.Millisecond, time.Millisecond); !errors.Is(err, hal.ErrClosed) || !strings.Contains(err.Error(), `navx "gyro": read`) {
		t.Errorf("Write of the response on a closed bus: %v", err)
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
	d, s, f := navxOnSPI(t)
	b := haltest.New()
	g := newFakeNavX()
	b.I2CBuses[1] = fakeNavXI2C{g}
	di, _, err := navxDevice(t, navxI2CEntry, b)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Duration(0)
	ts := uint32(0)
	k := 0
	allocs := testing.AllocsPerRun(200, func() {
		now += time.Millisecond
		f.now = now
		k++
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
		var err error
		if k%2 == 0 {
			err = d.Write(now, time.Millisecond)
		} else {
			err = d.Halt()
		}
		if err != nil {
			t.Fatal(err)
		}
		di.Write(now, time.Millisecond)
		di.Halt()
	})
	if allocs != 0 {
		t.Errorf("%v allocations per cycle, want 0", allocs)
	}
	checkNavXState(t, s)
	if f.txs < 2*200/9 {
		t.Errorf("%d SPI transfers in 200 ms, want a poll each 1/120 s", f.txs)
	}
	// The error paths return prebuilt errors.
	f.badCRC = true
	allocs = testing.AllocsPerRun(50, func() {
		now += 20 * time.Millisecond // two polls a run, 1/120 s apart
		f.now = now
		d.Read(now, time.Millisecond)
		if d.Write(now, time.Millisecond) == nil {
			t.Fatal("Write of a bad CRC succeeded")
		}
		f.now = now + 9*time.Millisecond
		d.Read(now+9*time.Millisecond, time.Millisecond)
		if d.Halt() == nil {
			t.Fatal("Halt of a bad CRC succeeded")
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per failing cycle, want 0", allocs)
	}
}

// FuzzNavXDecode feeds the decoder arbitrary register bytes: it never
// panics, and what it takes is finite with a unit quaternion.
func FuzzNavXDecode(f *testing.F) {
	f.Add(newFakeNavX().regs[:navxSpan])
	f.Add(make([]byte, navxSpan))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer bounds.Slow(t)()
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
