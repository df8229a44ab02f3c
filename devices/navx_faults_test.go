package devices

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/internal/bounds"
)

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
