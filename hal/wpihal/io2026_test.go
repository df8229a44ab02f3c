//go:build cgo && roborio

package wpihal

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/hal"
)

func TestPWM(t *testing.T) {
	f := open(t)
	f.calls()
	p, err := f.b.OpenPWM(3)
	if err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_GetPort channel=3", "HAL_InitializePWMPort port=0x10003 -> 0x20003 status=0")
	for _, c := range []struct {
		w    time.Duration
		call string
	}{
		{1500 * time.Microsecond, "HAL_SetPWMPulseTimeMicroseconds h=0x20003 us=1500"},
		{2004*time.Microsecond + 499*time.Nanosecond, "HAL_SetPWMPulseTimeMicroseconds h=0x20003 us=2004"},
		{997*time.Microsecond + 500*time.Nanosecond, "HAL_SetPWMPulseTimeMicroseconds h=0x20003 us=998"},
		{4095 * time.Microsecond, "HAL_SetPWMPulseTimeMicroseconds h=0x20003 us=4095"},
		{0, "HAL_SetPWMDisabled h=0x20003"},
		{hal.AlwaysHigh, "HAL_SetPWMAlwaysHighMode h=0x20003"},
	} {
		if err := p.SetPulse(c.w); err != nil {
			t.Errorf("SetPulse(%v): %v", c.w, err)
		}
		f.expect(c.call)
	}
	for _, w := range []time.Duration{-time.Microsecond, 4096 * time.Microsecond} {
		if err := p.SetPulse(w); !errors.Is(err, hal.ErrUnsupported) {
			t.Errorf("SetPulse(%v): %v, want hal.ErrUnsupported", w, err)
		}
	}
	f.expect() // refused before reaching the HAL

	_, err = f.b.OpenPWM(3)
	mustStatus(t, err, -1029, hal.ErrInUse, "Resource already allocated")
	if !strings.Contains(err.Error(), "HAL_InitializePWMPort(3)") {
		t.Errorf("error %q does not name the call", err)
	}
	_, err = f.b.OpenPWM(20)
	mustStatus(t, err, -1030, hal.ErrNoDevice, "out of range")

	// Status errors of a call propagate with the HAL's message.
	f.set("fail HAL_SetPWMPulseTimeMicroseconds -1098")
	mustStatus(t, p.SetPulse(time.Millisecond), -1098, nil, "handle parameter")
	// HAL_USE_LAST_ERROR sends for the message and the real code.
	f.set("fail HAL_SetPWMPulseTimeMicroseconds -1156", "lasterror -1028 Pulse time 1000 out of range. Expect [0-4096) or 0xFFFF")
	f.calls()
	err = p.SetPulse(time.Millisecond)
	mustStatus(t, err, -1028, hal.ErrNoDevice, "Pulse time 1000 out of range")
	f.expect("HAL_SetPWMPulseTimeMicroseconds h=0x20003 us=1000", "HAL_GetLastError status=-1156")
}

func TestDigital(t *testing.T) {
	f := open(t, "dio 4 1", "dio 5 0")
	f.calls()
	in, err := f.b.OpenDigitalIn(4)
	if err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_GetPort channel=4", "HAL_InitializeDIOPort port=0x10004 input=1 -> 0x30004 status=0")
	if v, err := in.Get(); err != nil || !v {
		t.Errorf("DIO 4 reads %v, %v; want high", v, err)
	}
	f.set("dio 4 0")
	if v, err := in.Get(); err != nil || v {
		t.Errorf("DIO 4 reads %v, %v; want low", v, err)
	}
	out, err := f.b.OpenDigitalOut(7)
	if err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_GetPort channel=7", "HAL_InitializeDIOPort port=0x10007 input=0 -> 0x30007 status=0")
	out.Set(true)
	out.Set(false)
	f.expect("HAL_SetDIO h=0x30007 value=1", "HAL_SetDIO h=0x30007 value=0")
	if _, err := f.b.OpenDigitalOut(4); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("DIO 4 opened twice: %v", err)
	}
	f.set("fail HAL_GetDIO -1098")
	mustStatus(t, func() error { _, err := in.Get(); return err }(), -1098, nil, "handle")

	d, err := f.b.OpenDutyCycleOut(9)
	if err != nil {
		t.Fatal(err)
	}
	f.calls()
	for _, c := range []struct {
		duty float64
		call string
	}{{0.25, "duty=0.25"}, {1.5, "duty=1"}, {-0.5, "duty=0"}} {
		if err := d.SetDutyCycle(c.duty); err != nil {
			t.Fatal(err)
		}
		f.expect("HAL_SetDigitalPWMDutyCycle h=0x80000 " + c.call)
	}
}

func TestDutyCycleOpenSequence(t *testing.T) {
	f := open(t)
	f.calls()
	if _, err := f.b.OpenDutyCycleOut(12); err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_GetPort channel=12", "HAL_InitializeDIOPort port=0x1000c input=0 -> 0x3000c status=0",
		"HAL_AllocateDigitalPWM -> 0x80000 status=0", "HAL_SetDigitalPWMRate rate=15625",
		"HAL_SetDigitalPWMDutyCycle h=0x80000 duty=0", "HAL_SetDigitalPWMOutputChannel h=0x80000 channel=12")
	// A failure half way frees what was allocated: the channel opens
	// again once the fault is gone.
	f.set("fail HAL_SetDigitalPWMOutputChannel -1030")
	if _, err := f.b.OpenDutyCycleOut(13); !errors.Is(err, hal.ErrNoDevice) {
		t.Fatalf("OpenDutyCycleOut with the routing failing: %v", err)
	}
	calls := f.calls()
	last := calls[len(calls)-4:]
	want := []string{"HAL_SetDigitalPWMOutputChannel h=0x80001 channel=13", "HAL_SetDigitalPWMDutyCycle h=0x80001 duty=0",
		"HAL_FreeDigitalPWM h=0x80001", "HAL_FreeDIOPort h=0x3000d"}
	if strings.Join(last, "|") != strings.Join(want, "|") {
		t.Errorf("after a failed open: %q, want %q", last, want)
	}
	f.set("fail HAL_SetDigitalPWMOutputChannel 0")
	if _, err := f.b.OpenDutyCycleOut(13); err != nil {
		t.Errorf("OpenDutyCycleOut(13) after a failed open: %v", err)
	}
}

// Duty-cycle inputs on the roboRIO (the 2026 HAL's DutyCycle.h): a DIO
// input routed to one of the FPGA's 8 duty-cycle counters, read as its
// output (high time over period) and whole-Hz frequency; a ninth is
// refused and frees its DIO again; Close frees each counter before its
// DIO.
func TestDutyCycleIn(t *testing.T) {
	f := open(t, "pwmin 3 256 1025", "pwmin 12 900 1000")
	f.calls()
	d, err := f.b.OpenDutyCycleIn(3)
	if err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_GetPort channel=3", "HAL_InitializeDIOPort port=0x10003 input=1 -> 0x30003 status=0",
		"HAL_InitializeDutyCycle source=0x30003 trigger=0 -> 0x90000 status=0")
	if v, err := d.Output(); err != nil || v != 256.0/1025 {
		t.Errorf("output %v, %v; want %v", v, err, 256.0/1025)
	}
	if hz, err := d.Frequency(); err != nil || hz != 975 { // 1e6/1025 µs, whole Hz
		t.Errorf("frequency %v, %v; want 975", hz, err)
	}
	mxp, err := f.b.OpenDutyCycleIn(12)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := mxp.Output(); err != nil || v != 0.9 {
		t.Errorf("DIO 12: output %v, %v", v, err)
	}
	f.set("pwmin 3 0 0") // nothing plugged in
	if hz, err := d.Frequency(); err != nil || hz != 0 {
		t.Errorf("no signal: %v Hz, %v", hz, err)
	}
	_, err = f.b.OpenDigitalIn(3)
	mustStatus(t, err, -1029, hal.ErrInUse, "")
	for ch := 4; ch < 10; ch++ {
		if _, err := f.b.OpenDutyCycleIn(ch); err != nil {
			t.Fatalf("duty-cycle input %d of 8: %v", ch-1, err)
		}
	}
	_, err = f.b.OpenDutyCycleIn(10)
	mustStatus(t, err, -1004, nil, "")
	if _, err := f.b.OpenDigitalIn(10); err != nil {
		t.Errorf("DIO 10 after a refused ninth duty-cycle input: %v", err)
	}
	f.set("fail HAL_GetDutyCycleOutput -1098")
	_, err = d.Output()
	mustStatus(t, err, -1098, nil, "handle")
	f.calls()
	f.b.Close()
	calls := strings.Join(f.calls(), "\n")
	if i, j := strings.Index(calls, "HAL_FreeDutyCycle h=0x90000"), strings.Index(calls, "HAL_FreeDIOPort h=0x30003"); i < 0 || j < i {
		t.Errorf("Close: the counter freed at %d, its DIO at %d:\n%s", i, j, calls)
	}
	if _, err := d.Frequency(); !errors.Is(err, hal.ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}

func TestEncoder(t *testing.T) {
	f := open(t, "encoder 0 -1234", "encoder 2 8192", "encoder 4 77")
	f.calls()
	for i, c := range []struct {
		a, b int
		enc  hal.Encoding
		code int
		want int64
	}{{0, 1, hal.X4, 2, -1234}, {2, 3, hal.X2, 1, 8192}, {4, 5, hal.X1, 0, 77}} {
		e, err := f.b.OpenEncoder(c.a, c.b, c.enc)
		if err != nil {
			t.Fatal(err)
		}
		ha, hb := 0x30000+c.a, 0x30000+c.b
		f.expect(
			"HAL_GetPort channel="+itoa(c.a), "HAL_InitializeDIOPort port="+hex(0x10000+c.a)+" input=1 -> "+hex(ha)+" status=0",
			"HAL_GetPort channel="+itoa(c.b), "HAL_InitializeDIOPort port="+hex(0x10000+c.b)+" input=1 -> "+hex(hb)+" status=0",
			"HAL_InitializeEncoder a="+hex(ha)+" trigA=0 b="+hex(hb)+" trigB=0 reverse=0 encoding="+itoa(c.code)+
				" -> "+hex(0x60000+c.a)+" status=0")
		if n, err := e.Count(); err != nil || n != c.want {
			t.Errorf("encoder %d: Count %d, %v; want %d", i, n, err, c.want)
		}
	}
	if _, err := f.b.OpenEncoder(6, 7, 3); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("3x encoding: %v", err)
	}
	if _, err := f.b.OpenEncoder(6, 6, hal.X4); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("A = B: %v", err)
	}
	// B in use: A is freed again.
	if _, err := f.b.OpenEncoder(6, 1, hal.X4); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("B in use: %v", err)
	}
	if _, err := f.b.OpenDigitalIn(6); err != nil {
		t.Errorf("DIO 6 after a failed encoder open: %v", err)
	}
	f.set("fail HAL_GetEncoderRaw -1098")
	e, _ := f.b.OpenEncoder(8, 9, hal.X4)
	_, err := e.Count()
	mustStatus(t, err, -1098, nil, "handle")
}

func itoa(n int) string { return strconv.Itoa(n) }

func hex(n int) string { return fmt.Sprintf("%#x", n) }

func TestAnalog(t *testing.T) {
	f := open(t, "ai 1 2.5 2.25", "ai 6 4.75 1.5")
	f.calls()
	a, err := f.b.OpenAnalogIn(1, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_GetPort channel=1", "HAL_InitializeAnalogInputPort port=0x10001 -> 0x40001 status=0",
		"HAL_SetAnalogAverageBits h=0x40001 bits=3", "HAL_SetAnalogOversampleBits h=0x40001 bits=2")
	if v, err := a.Voltage(); err != nil || v != 2.25 {
		t.Errorf("averaged input reads %v, %v; want the average 2.25", v, err)
	}
	f.expect("HAL_GetAnalogAverageVoltage h=0x40001")
	plain, err := f.b.OpenAnalogIn(6, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.calls()
	if v, err := plain.Voltage(); err != nil || v != 4.75 {
		t.Errorf("plain input reads %v, %v; want 4.75", v, err)
	}
	f.expect("HAL_GetAnalogVoltage h=0x40006")
	if _, err := f.b.OpenAnalogIn(2, -1, 0); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("negative bits: %v", err)
	}
	if _, err := f.b.OpenAnalogIn(8, 0, 0); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("analog input 8: %v", err)
	}
	f.set("fail HAL_GetAnalogVoltage -1098")
	_, err = plain.Voltage()
	mustStatus(t, err, -1098, nil, "handle")

	o, err := f.b.OpenAnalogOut(1)
	if err != nil {
		t.Fatal(err)
	}
	f.calls()
	for _, c := range []struct {
		v    float64
		call string
	}{{3.3, "volts=3.3"}, {7, "volts=5"}, {-1, "volts=0"}} {
		if err := o.SetVoltage(c.v); err != nil {
			t.Fatal(err)
		}
		f.expect("HAL_SetAnalogOutput h=0x50001 " + c.call)
	}
}

func TestRelay(t *testing.T) {
	f := open(t)
	f.calls()
	r, err := f.b.OpenRelay(2)
	if err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_GetPort channel=2", "HAL_InitializeRelayPort port=0x10002 fwd=1 -> 0x70004 status=0",
		"HAL_GetPort channel=2", "HAL_InitializeRelayPort port=0x10002 fwd=0 -> 0x70005 status=0")
	for _, c := range [][2]bool{{true, false}, {false, true}, {true, true}, {false, false}} {
		if err := r.Set(c[0], c[1]); err != nil {
			t.Fatal(err)
		}
		f.expect("HAL_SetRelay h=0x70004 on="+b01(c[0]), "HAL_SetRelay h=0x70005 on="+b01(c[1]))
	}
	if _, err := f.b.OpenRelay(4); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("relay 4: %v", err)
	}
	f.set("fail HAL_SetRelay -1098")
	mustStatus(t, r.Set(true, false), -1098, nil, "handle")
}

func b01(v bool) string {
	if v {
		return "1"
	}
	return "0"
}

func TestSPI(t *testing.T) {
	f := open(t, "spi 4 00000032")
	port, err := f.b.SPI(4)
	if err != nil {
		t.Fatal(err)
	}
	f.calls()
	c, err := port.Connect(physic.MegaHertz, spi.Mode3, 8)
	if err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_InitializeSPI port=4 status=0", "HAL_SetSPISpeed port=4 hz=1000000", "HAL_SetSPIMode port=4 mode=3",
		"HAL_SetSPIChipSelectActiveLow port=4")
	// The navX's read request, then the response clocked out.
	r := make([]byte, 3)
	if err := c.Tx([]byte{0x00, 0x01, 0xA5}, r); err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_TransactionSPI port=4 tx=0001a5")
	rx := make([]byte, 4)
	if err := c.Tx(nil, rx); err != nil {
		t.Fatal(err)
	}
	if string(rx) != "\x00\x00\x00\x32" {
		t.Errorf("read % x, want 00 00 00 32", rx)
	}
	f.expect("HAL_TransactionSPI port=4 tx=00000000")
	if err := c.(spi.Conn).TxPackets([]spi.Packet{{W: []byte{1}}, {W: []byte{2, 3}}}); err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_TransactionSPI port=4 tx=01", "HAL_TransactionSPI port=4 tx=0203")
	// A second Connect reconfigures without initializing again; 0 Hz is
	// the default clock.
	if _, err := port.Connect(0, spi.Mode0, 8); err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_SetSPISpeed port=4 hz=500000", "HAL_SetSPIMode port=4 mode=0", "HAL_SetSPIChipSelectActiveLow port=4")
	if _, err := port.Connect(0, spi.Mode3, 16); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("16-bit words: %v", err)
	}
	if _, err := port.Connect(0, spi.Mode3|spi.LSBFirst, 8); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("LSB first: %v", err)
	}
	f.set("fail HAL_TransactionSPI -1")
	if err := c.Tx([]byte{1}, nil); err == nil || !strings.Contains(err.Error(), "HAL_TransactionSPI of 1 bytes returned -1") {
		t.Errorf("failed transfer: %v", err)
	}
	if err := c.Tx(make([]byte, maxTransfer+1), nil); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("oversized transfer: %v", err)
	}
	if _, err := f.b.SPI(5); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("SPI 5: %v", err)
	}
	f.set("fail HAL_InitializeSPI -1030")
	p0, _ := f.b.SPI(0)
	_, err = p0.Connect(0, spi.Mode3, 8)
	mustStatus(t, err, -1030, hal.ErrNoDevice, "out of range")
}

func TestI2C(t *testing.T) {
	f := open(t, "i2c 1 0x32 32aabb")
	bus, err := f.b.I2C(1)
	if err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_Initialize timeout=500 mode=0", "HAL_ObserveUserProgramStarting", "HAL_InitializeI2C port=1 status=0")
	if again, _ := f.b.I2C(1); again != bus {
		t.Error("a second I2C(1) is another bus")
	}
	f.expect()
	r := make([]byte, 3)
	if err := bus.Tx(0x32, []byte{0x00, 0x03}, r); err != nil {
		t.Fatal(err)
	}
	if string(r) != "\x32\xaa\xbb" {
		t.Errorf("read % x", r)
	}
	f.expect("HAL_TransactionI2C port=1 addr=0x32 w=0003 nr=3")
	if err := bus.Tx(0x32, []byte{0xD6, 0x80}, nil); err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_WriteI2C port=1 addr=0x32 w=d680")
	if err := bus.Tx(0x32, nil, r[:1]); err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_ReadI2C port=1 addr=0x32 nr=1")
	if err := bus.Tx(0x33, []byte{0}, r); err == nil || !strings.Contains(err.Error(), "no device acknowledged") {
		t.Errorf("nobody at 0x33: %v", err)
	}
	if err := bus.Tx(0x80, []byte{0}, r); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("10-bit address: %v", err)
	}
	if err := bus.SetSpeed(physic.MegaHertz); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("SetSpeed: %v", err)
	}
	if _, err := f.b.I2C(2); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("I2C 2: %v", err)
	}
	f.set("fail HAL_InitializeI2C -1029")
	_, err = f.b.I2C(0)
	mustStatus(t, err, -1029, hal.ErrInUse, "already allocated")
	f.calls()
	f.b.Close()
	calls := f.calls()
	if len(calls) < 2 || calls[0] != "HAL_CloseI2C port=1" {
		t.Errorf("Close: %q, want the I2C port closed first", calls)
	}
}

// TestRepeatedSets checks that setting an output to the value it holds
// calls the HAL only every maxSkips+1-th time, and again after a failed
// write, for each kind of output.
func TestRepeatedSets(t *testing.T) {
	f := open(t)
	p, err := f.b.OpenPWM(1)
	if err != nil {
		t.Fatal(err)
	}
	d, err := f.b.OpenDigitalOut(2)
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.b.OpenRelay(0)
	if err != nil {
		t.Fatal(err)
	}
	a, err := f.b.OpenAnalogOut(0)
	if err != nil {
		t.Fatal(err)
	}
	dc, err := f.b.OpenDutyCycleOut(3)
	if err != nil {
		t.Fatal(err)
	}
	f.calls()
	for _, c := range []struct {
		name  string
		set   func(v int) error // v 0 or 1
		calls [2][]string       // the HAL calls setting 0, setting 1
		fail  string            // the call setting 0
	}{
		{"PWM", func(v int) error { return p.SetPulse(time.Duration(v) * 1500 * time.Microsecond) },
			[2][]string{{"HAL_SetPWMDisabled h=0x20001"}, {"HAL_SetPWMPulseTimeMicroseconds h=0x20001 us=1500"}}, "HAL_SetPWMDisabled"},
		{"DIO", func(v int) error { return d.Set(v == 1) },
			[2][]string{{"HAL_SetDIO h=0x30002 value=0"}, {"HAL_SetDIO h=0x30002 value=1"}}, "HAL_SetDIO"},
		{"relay", func(v int) error { return r.Set(v == 1, false) },
			[2][]string{{"HAL_SetRelay h=0x70000 on=0", "HAL_SetRelay h=0x70001 on=0"}, {"HAL_SetRelay h=0x70000 on=1", "HAL_SetRelay h=0x70001 on=0"}}, "HAL_SetRelay"},
		{"analog output", func(v int) error { return a.SetVoltage(2.5 + 4.5*float64(v)) }, // 7 V: 5 once clamped
			[2][]string{{"HAL_SetAnalogOutput h=0x50000 volts=2.5"}, {"HAL_SetAnalogOutput h=0x50000 volts=5"}}, "HAL_SetAnalogOutput"},
		{"duty cycle", func(v int) error { return dc.SetDutyCycle(0.25 * float64(1+v)) },
			[2][]string{{"HAL_SetDigitalPWMDutyCycle h=0x80000 duty=0.25"}, {"HAL_SetDigitalPWMDutyCycle h=0x80000 duty=0.5"}}, "HAL_SetDigitalPWMDutyCycle"},
	} {
		t.Run(c.name, func(t *testing.T) {
			set := func(v int, want ...string) {
				t.Helper()
				if err := c.set(v); err != nil {
					t.Fatalf("set %d: %v", v, err)
				}
				f.expect(want...)
			}
			set(0, c.calls[0]...)
			for range maxSkips {
				set(0) // held: no call
			}
			set(0, c.calls[0]...) // written again after maxSkips
			set(0)
			set(1, c.calls[1]...)
			set(1)
			// A failed write is not held: the next set writes again.
			f.set("fail " + c.fail + " -1098")
			for range 2 {
				if err := c.set(0); err == nil {
					t.Fatal("set 0: no error from a failing HAL")
				}
				if got := f.calls(); len(got) == 0 || len(got) > len(c.calls[0])+1 {
					t.Fatalf("set 0 on a failing HAL: calls %q", got)
				}
			}
			f.set("fail " + c.fail + " 0")
			set(0, c.calls[0]...)
			set(0)
		})
	}
	// Values the same once clamped are the same value held.
	if err := a.SetVoltage(9); err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_SetAnalogOutput h=0x50000 volts=5")
	if err := a.SetVoltage(7); err != nil {
		t.Fatal(err)
	}
	f.expect()
}

// TestConcurrentSets sets one PWM from two goroutines at once, as a second
// signal's halt does beside the loop (cmd/frcd): what the output holds by
// its record must be what the HAL was last told, or a later set of that
// value (the loop's own halt, neutral) would be skipped with the output
// at the other. Under -race, the record must also be guarded.
func TestConcurrentSets(t *testing.T) {
	f := open(t)
	p, err := f.b.OpenPWM(1)
	if err != nil {
		t.Fatal(err)
	}
	f.calls()
	var wg sync.WaitGroup
	for _, w := range []time.Duration{0, 1500 * time.Microsecond} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 300 {
				if err := p.SetPulse(w); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	calls := f.calls()
	if len(calls) == 0 {
		t.Fatal("no HAL call")
	}
	want := map[time.Duration]string{0: "HAL_SetPWMDisabled h=0x20001",
		1500 * time.Microsecond: "HAL_SetPWMPulseTimeMicroseconds h=0x20001 us=1500"}
	held := p.(*pwm).last.v
	if last := calls[len(calls)-1]; last != want[held] {
		t.Errorf("the HAL was last told %q; the output's record holds %v, skipping its sets", last, held)
	}
	// The loop sets its outputs every cycle: neither a skipped set nor a
	// write allocates.
	i := 0
	if n := testing.AllocsPerRun(20, func() {
		i++
		_ = p.SetPulse(time.Duration(i/5%2) * 1500 * time.Microsecond)
	}); n != 0 {
		t.Errorf("%v allocations a set", n)
	}
}
