//go:build cgo && systemcore && !roborio

package wpihal

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/internal/tooltest"
)

func TestOpenAndClose2027(t *testing.T) {
	f := open(t, "clock 7000000")
	f.expect("HAL_Initialize", "HAL_ObserveUserProgramStarting")
	if Year != "2027" {
		t.Errorf("Year %q in a systemcore build", Year)
	}
	if _, err := Open(Options{Library: fakeLib(t)}); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("second Open: %v, want hal.ErrInUse", err)
	}
	f.set("clock 7020000")
	if at, err := f.b.ReadClock(); at != 20*time.Millisecond || err != nil {
		t.Errorf("ReadClock 20 ms after Open: %v, %v", at, err)
	}
	p, err := f.b.OpenPWM(2)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.SetPulse(1500 * time.Microsecond); err != nil {
		t.Fatal(err)
	}
	f.calls()
	if err := f.b.Close(); err != nil {
		t.Fatal(err)
	}
	// Close disables the output (pulse 0) before freeing it.
	f.expect("HAL_SetPWMPulseTimeMicroseconds h=0x10002 us=0", "HAL_FreePWMPort h=0x10002", "HAL_Shutdown")
	if err := p.SetPulse(time.Millisecond); !errors.Is(err, hal.ErrClosed) {
		t.Errorf("SetPulse after Close: %v, want hal.ErrClosed", err)
	}
	if ds := f.b.DS(); ds.Enabled {
		t.Errorf("DS after Close: %+v", ds)
	}
}

// A library of the other year, or WPILib's simulation HAL, is one clear
// error at Open, before any call with the wrong arguments.
func TestWrongHAL(t *testing.T) {
	tooltest.Require(t, tooltest.CC)
	dir := t.TempDir()
	src := filepath.Join(dir, "hal.c")
	os.WriteFile(src, []byte("int HAL_Initialize(int t, int m) { return 1; }\nunsigned long long HAL_GetFPGATime(int* s) { return 0; }\n"), 0o644)
	lib := filepath.Join(dir, Library)
	compile(t, lib, src)
	_, err := Open(Options{Library: lib, Checklist: "deploy/systemcore.md"})
	oneLineWith(t, err, lib+" is the 2026 WPILib HAL (it has HAL_GetFPGATime), not the 2027 HAL this frcd calls", "deploy/systemcore.md")

	f := open(t)
	f.b.Close()
	f.set("runtime 1")
	_, err = Open(Options{Library: fakeLib(t)})
	if !errors.Is(err, errSimulation) || !errors.Is(err, ErrNoLibrary) {
		t.Errorf("Open of a simulation HAL: %v", err)
	}
	f.set("runtime 0") // the cleanup's Close and the next Open
	b, err := Open(Options{Library: fakeLib(t)})
	if err != nil {
		t.Fatalf("Open after a refused simulation HAL: %v", err)
	}
	b.Close()
}

// The Driver Station as WPILib's 2027 HAL gives it: enabled only with the
// DS attached, its data fresh and outputs enabled; an e-stop latches; a
// stale DS (mrclib's data gone) disables; the observed word carries the
// enable only when frcd runs the robot.
func TestDriverStation2027(t *testing.T) {
	f := open(t)
	f.calls()
	for _, c := range []struct {
		in      []string
		want    hal.DSState
		observe string
	}{
		{nil, hal.DSState{}, "mode=0 enabled=0"},
		{[]string{"cw 0 2 0 0 1"}, hal.DSState{Attached: true}, "mode=2 enabled=0"},
		{[]string{"cw 1 2 0 0 1"}, hal.DSState{Enabled: true, Attached: true}, "mode=2 enabled=1"},
		{[]string{"cw 1 1 0 1 1"}, hal.DSState{Enabled: true, Attached: true, Mode: hal.Autonomous}, "mode=1 enabled=1"},
		{[]string{"cw 1 3 0 0 1"}, hal.DSState{Enabled: true, Attached: true, Mode: hal.Test}, "mode=3 enabled=1"},
		// Enabled, but Systemcore's watchdog has not enabled the outputs.
		{[]string{"cw 1 2 0 0 1", "outputs 0"}, hal.DSState{Attached: true}, "mode=2 enabled=0"},
		{[]string{"outputs 1"}, hal.DSState{Enabled: true, Attached: true}, "mode=2 enabled=1"},
		// Enabled by a DS that is not attached.
		{[]string{"cw 1 2 0 0 0"}, hal.DSState{}, "mode=2 enabled=0"},
		// The DS goes silent: disabled at once.
		{[]string{"cw 1 2 0 0 1", "stale 1"}, hal.DSState{}, "mode=0 enabled=0"},
		{[]string{"stale 0"}, hal.DSState{Enabled: true, Attached: true}, "mode=2 enabled=1"},
		// An e-stop disables and latches.
		{[]string{"cw 1 2 1 0 1"}, hal.DSState{EStop: true, Attached: true}, "mode=2 enabled=0"},
		{[]string{"cw 1 2 0 0 1"}, hal.DSState{EStop: true, Attached: true}, "mode=2 enabled=0"},
	} {
		f.set(c.in...)
		if got := f.b.DS(); got != c.want {
			t.Errorf("after %q: DS %+v, want %+v", c.in, got, c.want)
		}
		f.expect("HAL_ObserveUserProgram " + c.observe)
	}
}

// Hold (the daemon's final halt) disables for good, and tells the DS.
func TestHold(t *testing.T) {
	f := open(t, "cw 1 2 0 0 1")
	if !f.b.DS().Enabled {
		t.Fatal("not enabled")
	}
	f.calls()
	f.b.Hold()
	if ds := f.b.DS(); ds.Enabled || !ds.Attached {
		t.Errorf("DS after Hold: %+v, want attached and disabled", ds)
	}
	f.expect("HAL_ObserveUserProgram mode=2 enabled=0")
}

func TestJoysticks2027(t *testing.T) {
	f := open(t, "cw 1 2 0 0 1", "joyaxes 1 0.5 -1 0.25", "joypovs 1 3 0 12", "joybuttons 1 0x105 0x3ff")
	var j hal.JoystickState
	if err := f.b.Joystick(1, &j); err != nil {
		t.Fatal(err)
	}
	want := hal.JoystickState{NumAxes: 3, NumPOVs: 3, NumButtons: 10, Buttons: 0x105}
	want.Axes[0], want.Axes[1], want.Axes[2] = 0.5, -1, 0.25
	want.POVs[0], want.POVs[1], want.POVs[2] = 45, -1, 225 // right-up, centred, left-down
	if j != want {
		t.Errorf("joystick 1: %+v, want %+v", j, want)
	}
	// Buttons the joystick does not have read released.
	f.set("joybuttons 1 0xffff 0x3")
	if err := f.b.Joystick(1, &j); err != nil || j.Buttons != 3 || j.NumButtons != 2 {
		t.Errorf("buttons beyond those available: %+v, %v", j, err)
	}
	if err := f.b.Joystick(0, &j); err != nil || j != (hal.JoystickState{}) {
		t.Errorf("joystick 0 absent: %+v, %v", j, err)
	}
	if err := f.b.Joystick(6, &j); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("joystick 6: %v", err)
	}
	// A stale DS: no joystick data.
	f.set("stale 1")
	f.b.DS()
	if err := f.b.Joystick(1, &j); err != nil || j.NumAxes != 0 {
		t.Errorf("joystick of a stale DS: %+v, %v", j, err)
	}
}

func TestMatch2027(t *testing.T) {
	f := open(t)
	if m, err := f.b.MatchInfo(); err != nil || m.Known() {
		t.Errorf("MatchInfo off the field: %+v, %v", m, err)
	}
	long := strings.Repeat("E", 70)
	f.set("matchinfo "+long+" 2 12 1", "gamedata LRLRLRLRLR", "matchtime 93.5")
	m, err := f.b.MatchInfo()
	want := hal.MatchInfo{Event: long[:64], Type: hal.MatchQualification, Number: 12, Replay: 1, GameMessage: "LRLRLRLR"}
	if err != nil || m != want || m.Label() != "Q12" {
		t.Errorf("MatchInfo %+v, %v; want %+v", m, err, want)
	}
	if s, err := f.b.MatchTime(); err != nil || s != 93.5 {
		t.Errorf("MatchTime %v, %v", s, err)
	}
	f.set("fail HAL_GetMatchInfo -1098")
	_, err = f.b.MatchInfo()
	mustStatus(t, err, -1098, nil, "handle")
}

func TestPowerAndBrownout2027(t *testing.T) {
	f := open(t, "vin 12.5")
	if v, err := f.b.Vin(); err != nil || v != 12.5 {
		t.Errorf("Vin %v, %v", v, err)
	}
	if b, err := f.b.BrownedOut(); err != nil || b {
		t.Errorf("BrownedOut %v, %v", b, err)
	}
	f.set("brownout 1")
	if b, err := f.b.BrownedOut(); err != nil || !b {
		t.Errorf("BrownedOut in brownout %v, %v", b, err)
	}
	f.set("fail HAL_GetVinVoltage 1015")
	_, err := f.b.Vin()
	mustStatus(t, err, 1015, nil, "")
}

// SmartIO: six channels, one use each, whatever it is opened as.
func TestSmartIO(t *testing.T) {
	f := open(t, "dio 4 1", "ai 5 1.65", "encoder 0 -42")
	f.calls()
	p, err := f.b.OpenPWM(3)
	if err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_InitializePWMPort channel=3 -> 0x10003 status=0", "HAL_SetPWMOutputPeriod h=0x10003 period=3")
	for _, c := range []struct {
		w  time.Duration
		us int
	}{{1500 * time.Microsecond, 1500}, {0, 0}, {hal.AlwaysHigh, 0xFFFF}, {4095 * time.Microsecond, 4095}} {
		if err := p.SetPulse(c.w); err != nil {
			t.Errorf("SetPulse(%v): %v", c.w, err)
		}
		f.expect("HAL_SetPWMPulseTimeMicroseconds h=0x10003 us=" + strconv.Itoa(c.us))
	}
	if err := p.SetPulse(4096 * time.Microsecond); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("SetPulse(4096 µs): %v", err)
	}
	_, err = f.b.OpenDigitalIn(3)
	mustStatus(t, err, -1029, hal.ErrInUse, "Resource already allocated")
	_, err = f.b.OpenPWM(6)
	mustStatus(t, err, -1030, hal.ErrNoDevice, "out of range")

	in, err := f.b.OpenDigitalIn(4)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := in.Get(); err != nil || !v {
		t.Errorf("DIO 4: %v, %v", v, err)
	}
	out, err := f.b.OpenDigitalOut(2)
	if err != nil {
		t.Fatal(err)
	}
	f.calls()
	out.Set(true)
	f.expect("HAL_SetDIO h=0x20002 value=1")
	a, err := f.b.OpenAnalogIn(5, 7, 0)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := a.Voltage(); err != nil || v != 1.65 {
		t.Errorf("analog 5: %v, %v", v, err)
	}
	// Encoders on a channel pair; the pair the other way round is reversed.
	if _, err := f.b.OpenEncoder(1, 2, hal.X4); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("encoder on 1/2: %v", err)
	}
	f.calls()
	e, err := f.b.OpenEncoder(1, 0, hal.X2)
	if err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_InitializeEncoder a=0 b=1 reverse=1 encoding=1 -> 0x40000 status=0")
	if n, err := e.Count(); err != nil || n != -42 {
		t.Errorf("Count %v, %v", n, err)
	}
	// Systemcore has no duty-cycle outputs, relays or analog outputs.
	if got := hal.CapsOf(f.b); got != SystemcoreCaps {
		t.Errorf("the 2027 backend provides %s; SystemcoreCaps says %s", got, SystemcoreCaps)
	}
}

// A duty-cycle input on a SmartIO channel: the output and frequency from
// mrclib's high time and period as the 2027 HAL computes them (the fake
// does the same arithmetic); no signal reads 0 Hz; the channel is taken.
func TestDutyCycleIn2027(t *testing.T) {
	f := open(t, "pwmin 2 256 1025")
	f.calls()
	d, err := f.b.OpenDutyCycleIn(2)
	if err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_InitializeDutyCycle channel=2 -> 0x50002 status=0")
	if v, err := d.Output(); err != nil || v != 256.0/1025 {
		t.Errorf("output %v, %v; want %v", v, err, 256.0/1025)
	}
	if hz, err := d.Frequency(); err != nil || hz != 1e6/1025 {
		t.Errorf("frequency %v, %v", hz, err)
	}
	f.set("pwmin 2 2000 1025") // a high time past the period: 1
	if v, err := d.Output(); err != nil || v != 1 {
		t.Errorf("output %v, %v; want 1", v, err)
	}
	f.set("pwmin 2 0 0") // nothing plugged in
	if hz, err := d.Frequency(); err != nil || hz != 0 {
		t.Errorf("no signal: %v Hz, %v", hz, err)
	}
	_, err = f.b.OpenDigitalIn(2)
	mustStatus(t, err, -1029, hal.ErrInUse, "Resource already allocated")
	_, err = f.b.OpenDutyCycleIn(6)
	mustStatus(t, err, -1030, hal.ErrNoDevice, "out of range")
	f.set("fail HAL_GetDutyCycleOutput -1098")
	if _, err := d.Output(); err == nil {
		t.Error("a failed HAL_GetDutyCycleOutput read without an error")
	}
	f.b.Close()
	if _, err := d.Frequency(); !errors.Is(err, hal.ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}

func TestIMU2027(t *testing.T) {
	f := open(t, "quat 1 0 0 0", "gyro 0 0 0.5", "accel 0 0 9.81")
	m, err := f.b.OpenBuiltInIMU()
	if err != nil {
		t.Fatal(err)
	}
	q, g, a, err := m.Read()
	if err != nil || q != [4]float64{1, 0, 0, 0} || g != [3]float64{0, 0, 0.5} || a != [3]float64{0, 0, 9.81} {
		t.Errorf("Read %v %v %v %v", q, g, a, err)
	}
	if _, err := f.b.OpenBuiltInIMU(); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("second open: %v", err)
	}
	f.set("fail HAL_GetIMUQuaternion 1015")
	_, _, _, err = m.Read()
	mustStatus(t, err, 1015, nil, "")
}

// The loop's per-cycle calls allocate nothing.
func TestNoAllocations2027(t *testing.T) {
	f := open(t, "cw 1 2 0 0 1", "encoder 0 5", "ai 2 1", "dio 3 1", "quat 1 0 0 0")
	p, _ := f.b.OpenPWM(4)
	e, _ := f.b.OpenEncoder(0, 1, hal.X4)
	a, _ := f.b.OpenAnalogIn(2, 0, 0)
	d, _ := f.b.OpenDigitalIn(3)
	do, _ := f.b.OpenDigitalOut(5)
	m, _ := f.b.OpenBuiltInIMU()
	os.Unsetenv("FAKEHAL_LOG")
	var j hal.JoystickState
	for name, fn := range map[string]func(){
		"SetPulse":   func() { p.SetPulse(1500 * time.Microsecond) },
		"Count":      func() { e.Count() },
		"Voltage":    func() { a.Voltage() },
		"Get":        func() { d.Get() },
		"Set":        func() { do.Set(true) },
		"IMU":        func() { m.Read() },
		"DS":         func() { f.b.DS() },
		"Joystick":   func() { f.b.Joystick(0, &j) },
		"MatchTime":  func() { f.b.MatchTime() },
		"MatchInfo":  func() { f.b.MatchInfo() },
		"Vin":        func() { f.b.Vin() },
		"BrownedOut": func() { f.b.BrownedOut() },
		"Now":        func() { f.b.Now() },
		"ReadClock":  func() { f.b.ReadClock() },
	} {
		if n := testing.AllocsPerRun(20, fn); n != 0 {
			t.Errorf("%s: %v allocations per call", name, n)
		}
	}
}

func itoa(n int) string {
	return strings.TrimSpace(strings.Replace(time.Duration(n).String(), "ns", "", 1))
}

// Addressable LEDs on a SmartIO channel: the window set, written off at
// open, colours written into the shared buffer at the window, a bad
// window or colour length refused before the HAL, and Close writing the
// LEDs off before freeing the channel.
func TestAddressableLED2027(t *testing.T) {
	f := open(t)
	f.calls()
	l, err := f.b.OpenAddressableLED(4, 10, 2, hal.LEDGRB)
	if err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_InitializeAddressableLED channel=4 -> 0x60004 status=0",
		"HAL_SetAddressableLEDStart h=0x60004 start=10 status=0",
		"HAL_SetAddressableLEDLength h=0x60004 length=2 status=0",
		"HAL_SetAddressableLEDData start=10 length=2 order=5 rgb=000000000000")
	if err := l.SetColors([]byte{255, 0, 1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_SetAddressableLEDData start=10 length=2 order=5 rgb=ff0001020304")
	if err := l.SetColors([]byte{1, 2, 3}); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("one LED's colours for two: %v", err)
	}
	f.expect()
	for _, w := range [][2]int{{-1, 5}, {1000, 25}, {0, 0}} {
		if _, err := f.b.OpenAddressableLED(5, w[0], w[1], hal.LEDRGB); !errors.Is(err, hal.ErrNoDevice) {
			t.Errorf("window %v: %v", w, err)
		}
	}
	if _, err := f.b.OpenAddressableLED(5, 0, 1, hal.LEDOrder(6)); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("order 6: %v", err)
	}
	f.expect()
	_, err = f.b.OpenDigitalIn(4)
	mustStatus(t, err, -1029, hal.ErrInUse, "Resource already allocated")
	f.calls()
	f.b.Close()
	got := f.calls()
	if len(got) < 2 || got[0] != "HAL_SetAddressableLEDData start=10 length=2 order=5 rgb=000000000000" || got[1] != "HAL_FreeAddressableLED h=0x60004" {
		t.Errorf("Close: %q; want the LEDs off, then freed", got)
	}
	if err := l.SetColors(make([]byte, 6)); !errors.Is(err, hal.ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}
