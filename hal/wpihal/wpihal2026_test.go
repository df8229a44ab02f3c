//go:build cgo && roborio

package wpihal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/ctre"
	"github.com/frcd/frcd/hal/phoenix6"
	"github.com/frcd/frcd/internal/tooltest"
)

// Where the roboRIO's backend looks for the HAL.
var (
	DefaultDirs = []string{"/usr/local/frc/third-party/lib", "/usr/local/frc/lib"}
	Checklist   = "deploy/roborio-checklist.md"
)

func TestOpenInitializesAndCloseShutsDown(t *testing.T) {
	f := open(t)
	f.expect("HAL_Initialize timeout=500 mode=0", "HAL_ObserveUserProgramStarting")
	if _, err := Open(Options{Library: fakeLib(t)}); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("second Open: %v, want hal.ErrInUse", err)
	}
	if _, err := f.b.OpenPWM(0); err != nil {
		t.Fatal(err)
	}
	f.calls()
	if err := f.b.Close(); err != nil {
		t.Fatal(err)
	}
	// Close disables the PWM output before freeing it, then shuts down.
	f.expect("HAL_SetPWMDisabled h=0x20000", "HAL_FreePWMPort h=0x20000", "HAL_Shutdown")
	if _, err := f.b.OpenPWM(1); !errors.Is(err, hal.ErrClosed) {
		t.Errorf("OpenPWM after Close: %v, want hal.ErrClosed", err)
	}
	if _, err := f.b.Vin(); !errors.Is(err, hal.ErrClosed) {
		t.Errorf("Vin after Close: %v, want hal.ErrClosed", err)
	}
	if ds := f.b.DS(); ds != (hal.DSState{}) {
		t.Errorf("DS after Close: %+v, want disabled and detached", ds)
	}
	// The HAL may be opened again once closed.
	b, err := Open(Options{Library: fakeLib(t), InitTimeout: 2 * time.Second})
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	defer b.Close()
	f.expect("HAL_Initialize timeout=2000 mode=0", "HAL_ObserveUserProgramStarting")
}

func TestInitializeFailure(t *testing.T) {
	lib := fakeLib(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.WriteFile(in, []byte("noinit 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FAKEHAL_IN", in)
	t.Setenv("FAKEHAL_LOG", filepath.Join(dir, "log"))
	_, err := Open(Options{Library: lib})
	if err == nil || !strings.Contains(err.Error(), "HAL_Initialize failed") {
		t.Fatalf("Open with HAL_Initialize failing: %v", err)
	}
	// A failed Open leaves the HAL free for another.
	os.WriteFile(in, nil, 0o644)
	b, err := Open(Options{Library: lib})
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
}

func TestMissingLibrary(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("LD_LIBRARY_PATH", empty)
	_, err := Open(Options{Dirs: []string{"/nonexistent/frc/lib", "/nonexistent/frc/third-party"}, Checklist: Checklist})
	oneLineWith(t, err, "libwpiHal.so not found in", "LD_LIBRARY_PATH ("+empty+")", "/nonexistent/frc/lib",
		"/nonexistent/frc/third-party", "deploy WPILib's 2026 HAL", Checklist)

	t.Setenv("LD_LIBRARY_PATH", "")
	_, err = Open(Options{Dirs: DefaultDirs})
	oneLineWith(t, err, "LD_LIBRARY_PATH (unset)", DefaultDirs[0], DefaultDirs[1])

	// Found through LD_LIBRARY_PATH, before the directories.
	t.Setenv("LD_LIBRARY_PATH", empty+":"+filepath.Dir(fakeLib(t)))
	dir := t.TempDir()
	t.Setenv("FAKEHAL_LOG", filepath.Join(dir, "log"))
	t.Setenv("FAKEHAL_IN", filepath.Join(dir, "in"))
	b, err := Open(Options{Dirs: []string{"/nonexistent"}})
	if err != nil {
		t.Fatalf("Open with the HAL on LD_LIBRARY_PATH: %v", err)
	}
	b.Close()
}

func TestMissingDependency(t *testing.T) {
	tooltest.Require(t, tooltest.CC)
	dir := t.TempDir()
	src := filepath.Join(dir, "dep.c")
	os.WriteFile(src, []byte("int frcd_gone(void) { return 1; }\n"), 0o644)
	dep := filepath.Join(dir, "libfrcdgone.so")
	compile(t, dep, src)
	hsrc := filepath.Join(dir, "hal.c")
	os.WriteFile(hsrc, []byte("int frcd_gone(void);\nint HAL_Initialize(int t, int m) { return frcd_gone(); }\n"), 0o644)
	lib := filepath.Join(dir, Library)
	compile(t, lib, hsrc, "-L"+dir, "-lfrcdgone")
	os.Remove(dep)
	t.Setenv("LD_LIBRARY_PATH", "")
	_, err := Open(Options{Dirs: []string{dir}, Checklist: Checklist})
	oneLineWith(t, err, "cannot load "+lib, "libfrcdgone.so", "deploy WPILib's 2026 HAL and its dependencies", Checklist)
}

func TestNotTheHAL(t *testing.T) {
	tooltest.Require(t, tooltest.CC)
	dir := t.TempDir()
	src := filepath.Join(dir, "hal.c")
	os.WriteFile(src, []byte("int HAL_Initialize(int t, int m) { return 1; }\n"), 0o644)
	lib := filepath.Join(dir, Library)
	compile(t, lib, src)
	_, err := Open(Options{Library: lib})
	oneLineWith(t, err, lib+" has no HAL_Shutdown: it is not the 2026 WPILib HAL")
}

func TestDriverStation(t *testing.T) {
	f := open(t)
	for _, c := range []struct {
		cw      string
		want    hal.DSState
		observe string
	}{
		{"0 0 0 0 0 0", hal.DSState{}, "Disabled"},
		{"0 0 0 0 0 1", hal.DSState{Attached: true}, "Disabled"},
		{"1 0 0 0 0 1", hal.DSState{Enabled: true, Attached: true}, "Teleop"},
		{"1 1 0 0 1 1", hal.DSState{Enabled: true, Attached: true, Mode: hal.Autonomous}, "Autonomous"},
		{"1 0 1 0 0 1", hal.DSState{Enabled: true, Attached: true, Mode: hal.Test}, "Test"},
		{"0 1 0 0 0 1", hal.DSState{Attached: true, Mode: hal.Autonomous}, "Disabled"},
		// Enabled by a Driver Station that is not attached: disabled.
		{"1 0 0 0 0 0", hal.DSState{}, "Disabled"},
		// An e-stop disables and latches: the next enable stays disabled.
		{"1 0 0 1 0 1", hal.DSState{EStop: true, Attached: true}, "Disabled"},
		{"1 0 0 0 0 1", hal.DSState{EStop: true, Attached: true}, "Disabled"},
	} {
		f.set("cw " + c.cw)
		f.calls()
		if got := f.b.DS(); got != c.want {
			t.Errorf("control word %s: DS %+v, want %+v", c.cw, got, c.want)
		}
		f.expect("HAL_RefreshDSData", "HAL_GetControlWord", "HAL_ObserveUserProgram"+c.observe)
	}
	// A failed read is a detached Driver Station: disabled.
	f.set("cw 1 0 0 0 0 1", "fail HAL_GetControlWord -1098")
	if got := f.b.DS(); got != (hal.DSState{EStop: true}) {
		t.Errorf("failed control word read: %+v, want disabled, detached, e-stop still latched", got)
	}

	f.set("matchtime 93.5")
	if m, err := f.b.MatchTime(); err != nil || m != 93.5 {
		t.Errorf("MatchTime %v, %v", m, err)
	}
	f.set("fail HAL_GetMatchTime -1098")
	_, err := f.b.MatchTime()
	mustStatus(t, err, -1098, nil, "handle")
}

func TestJoysticks(t *testing.T) {
	f := open(t, "joyaxes 2 0.5 -1 0.25", "joypovs 2 90 -1", "joybuttons 2 0x105 10")
	var j hal.JoystickState
	if err := f.b.Joystick(2, &j); err != nil {
		t.Fatal(err)
	}
	want := hal.JoystickState{NumAxes: 3, NumPOVs: 2, NumButtons: 10, Buttons: 0x105}
	want.Axes[0], want.Axes[1], want.Axes[2] = 0.5, -1, 0.25
	want.POVs[0], want.POVs[1] = 90, -1
	if j != want {
		t.Errorf("joystick 2: %+v, want %+v", j, want)
	}
	if !j.Button(1) || j.Button(2) || !j.Button(3) || !j.Button(9) {
		t.Errorf("buttons of %#x misread", j.Buttons)
	}
	if err := f.b.Joystick(0, &j); err != nil || j != (hal.JoystickState{}) {
		t.Errorf("empty joystick 0: %+v, %v", j, err)
	}
	if err := f.b.Joystick(6, &j); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("joystick 6: %v", err)
	}
}

// The HAL's clock is HAL_GetFPGATime since Open, its failure the HAL's
// status; Now is the OS's monotonic clock, whatever the HAL's does.
func TestClockAndVin(t *testing.T) {
	f := open(t, "fpga 5000000", "vin 12.25")
	if at, err := f.b.ReadClock(); at != 0 || err != nil {
		t.Errorf("ReadClock at Open: %v, %v", at, err)
	}
	f.set("fpga 5020000")
	if at, err := f.b.ReadClock(); at != 20*time.Millisecond || err != nil {
		t.Errorf("ReadClock 20000 µs after Open: %v, %v", at, err)
	}
	before := f.b.Now()
	f.set("fail HAL_GetFPGATime -1098", "fpga 9000000")
	_, err := f.b.ReadClock()
	mustStatus(t, err, -1098, nil, "handle")
	if now := f.b.Now(); now < before {
		t.Errorf("Now went back from %v to %v when the FPGA clock failed", before, now)
	}
	f.set("fail HAL_GetFPGATime 0", "fpga 1000000")
	if at, err := f.b.ReadClock(); at != -4*time.Second || err != nil {
		t.Errorf("ReadClock stepped back 4 s before Open: %v, %v; want -4s", at, err)
	}
	if v, err := f.b.Vin(); err != nil || v != 12.25 {
		t.Errorf("Vin %v, %v", v, err)
	}
	f.set("fail HAL_GetVinVoltage -1098")
	_, err = f.b.Vin()
	mustStatus(t, err, -1098, nil, "handle")
	f.b.Close()
	if _, err := f.b.ReadClock(); !errors.Is(err, hal.ErrClosed) {
		t.Errorf("ReadClock after Close: %v, want hal.ErrClosed", err)
	}
}

// Brownout is HAL_GetBrownedOut's answer, read at every call; a failed
// read is the HAL's status, and a closed backend reads nothing.
func TestBrownedOut(t *testing.T) {
	f := open(t)
	f.calls() // Open's
	if b, err := f.b.BrownedOut(); err != nil || b {
		t.Errorf("BrownedOut at rest: %v, %v; want false", b, err)
	}
	f.set("brownout 1")
	if b, err := f.b.BrownedOut(); err != nil || !b {
		t.Errorf("BrownedOut in brownout: %v, %v; want true", b, err)
	}
	f.set("brownout 0")
	if b, err := f.b.BrownedOut(); err != nil || b {
		t.Errorf("BrownedOut recovered: %v, %v; want false", b, err)
	}
	f.expect("HAL_GetBrownedOut", "HAL_GetBrownedOut", "HAL_GetBrownedOut")
	f.set("fail HAL_GetBrownedOut -1098")
	_, err := f.b.BrownedOut()
	mustStatus(t, err, -1098, nil, "handle")
	f.b.Close()
	if _, err := f.b.BrownedOut(); !errors.Is(err, hal.ErrClosed) {
		t.Errorf("BrownedOut after Close: %v, want hal.ErrClosed", err)
	}
}

// MatchInfo is HAL_GetMatchInfo's struct: a 64-byte event name without
// its NUL, the type, number and replay, the game message by its size.
func TestMatchInfo(t *testing.T) {
	f := open(t)
	f.calls() // Open's
	if m, err := f.b.MatchInfo(); err != nil || m != (hal.MatchInfo{}) || m.Known() {
		t.Errorf("MatchInfo off the field: %+v, %v", m, err)
	}
	long := strings.Repeat("E", 70)
	f.set("matchinfo " + long + " 2 12 1 LRL")
	m, err := f.b.MatchInfo()
	want := hal.MatchInfo{Event: long[:64], Type: hal.MatchQualification, Number: 12, Replay: 1, GameMessage: "LRL"}
	if err != nil || m != want || m.Label() != "Q12" {
		t.Errorf("MatchInfo %+v, %v; want %+v", m, err, want)
	}
	f.set("matchinfo 2026ctr 7 3 0 x")
	if m, _ := f.b.MatchInfo(); m.Type != hal.MatchNone || m.Event != "2026ctr" || m.Known() {
		t.Errorf("MatchInfo of an unknown type: %+v", m)
	}
	f.expect("HAL_GetMatchInfo", "HAL_GetMatchInfo", "HAL_GetMatchInfo")
	f.set("fail HAL_GetMatchInfo -1098")
	_, err = f.b.MatchInfo()
	mustStatus(t, err, -1098, nil, "handle")
}

func TestCAN(t *testing.T) {
	f := open(t, "fpga 1000000", "canbase 5000")
	bus := f.b.CAN()
	f.calls()
	fr := hal.Frame{ID: 0x09041C03, Len: 3, Data: [8]byte{0x01, 0x80, 0xFF}}
	if err := bus.Send(fr); err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_CAN_SendMessage id=0x9041c03 len=3 data=0180ff period=0")
	// A remote frame (a SPARK's firmware version request): the remote flag
	// on the id, the length asked for, no data of a previous frame.
	if err := bus.Send(hal.Frame{ID: 0x2052600, Len: 8, RTR: true}); err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_CAN_SendMessage id=0x82052600 len=8 data=0000000000000000 period=0")
	if err := bus.Send(hal.Frame{ID: 0x20000000}); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("30-bit id: %v", err)
	}
	if err := bus.Send(hal.Frame{ID: 1, Len: 9}); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("9 bytes: %v", err)
	}
	f.set("fail HAL_CAN_SendMessage -1157")
	mustStatus(t, bus.Send(fr), -1157, nil, "fake HAL error -1157")
	f.set("fail HAL_CAN_SendMessage 0")

	const pdp = 0x08041400
	if _, _, ok := bus.Latest(pdp); ok {
		t.Error("a frame before any arrived")
	}
	// A frame NetComm stamped 4 ms before the base time: 4 ms before Now
	// (the OS's monotonic clock, as NetComm's stamps are).
	f.set("fpga 1250000", "can 0x8041400 1 4996 0102030405060708")
	t0 := f.b.Now()
	got, at, ok := bus.Latest(pdp)
	t1 := f.b.Now()
	want := hal.Frame{ID: pdp, Len: 8, Data: [8]byte{1, 2, 3, 4, 5, 6, 7, 8}}
	// (Not before Open: 0 at the earliest.)
	if lo, hi := max(0, t0-4*time.Millisecond), max(0, t1-4*time.Millisecond); !ok || got != want || at < lo || at > hi {
		t.Errorf("Latest: %+v at %v (%v), want %+v 4 ms before Now (%v to %v)", got, at, ok, want, lo, hi)
	}
	// No new frame: the kept one, as it was.
	f.set("fpga 1300000")
	if got, at2, ok := bus.Latest(pdp); !ok || got != want || at2 != at {
		t.Errorf("Latest with nothing new: %+v at %v (%v)", got, at2, ok)
	}
	f.set("can 0x8041400 2 5010 aabb", "canbase 5010")
	t0 = f.b.Now()
	if got, at, ok := bus.Latest(pdp); !ok || got.Len != 2 || got.Data[0] != 0xAA || got.Data[1] != 0xBB || at < t0 || at > f.b.Now() {
		t.Errorf("Latest after a new frame: %+v at %v (%v), want Now", got, at, ok)
	}
	calls := f.calls()
	if calls[len(calls)-1] != "HAL_CAN_ReceiveMessage id=0x8041400 mask=0x1fffffff" {
		t.Errorf("receive call %q, want the id with the full 29-bit mask", calls[len(calls)-1])
	}
	// A receive error is counted, the kept frame returned.
	f.set("fail HAL_CAN_ReceiveMessage -44086")
	if _, _, ok := bus.Latest(pdp); !ok {
		t.Error("kept frame lost on a receive error")
	}
	if r := f.b.Report(nil); len(r) != 1 || !r[0].Warn || r[0].Name != "CAN receive" ||
		!strings.HasPrefix(r[0].Message, "1 receives failed since the last report (1 in all), the last: ") || !strings.Contains(r[0].Message, "-44086") || !strings.Contains(r[0].Message, "fake HAL error") {
		t.Errorf("report %+v, want a warning with the one failed receive", r)
	}
	if r := f.b.Report(nil); r[0].Warn || r[0].Message != "no failed receives since the last report (1 in all)" {
		t.Errorf("second report %+v, want no warning", r)
	}
}

func TestCTRE(t *testing.T) {
	t.Setenv("LD_LIBRARY_PATH", "")
	f := open(t) // no CTRE libraries in the default places on a test machine
	if got := hal.CapsOf(f.b); got != RoboRIOCaps&^ctre.Caps {
		t.Errorf("without CTRE's libraries the backend provides %s; want %s", got, RoboRIOCaps&^ctre.Caps)
	}
	if _, err := hal.OpenCANMotor(f.b, "", frc.TalonSRX, 3); !errors.Is(err, hal.ErrUnsupported) || !strings.Contains(err.Error(), ctre.Checklist) {
		t.Errorf("OpenCANMotor: %v", err)
	}
	if _, err := phoenix6.Open(f.b); !errors.Is(err, hal.ErrUnsupported) || !strings.Contains(err.Error(), "Phoenix") {
		t.Errorf("phoenix6.Open: %v", err)
	}
	f.b.Close()

	// With them (the fake), every provider of Caps, and the calls reach
	// the library.
	dir := t.TempDir()
	lib := filepath.Join(dir, "libfakectre.so")
	compile(t, lib, "-Wall", "-Werror", filepath.Join("..", "ctre", "testdata", "fakectre.c"))
	ctreLog := filepath.Join(dir, "ctre.log")
	t.Setenv("FAKECTRE_LOG", ctreLog)
	b, err := Open(Options{Library: fakeLib(t), CTRE: ctre.Options{Paths: []string{lib}}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got := hal.CapsOf(b); got != RoboRIOCaps {
		t.Errorf("with CTRE's libraries the backend provides %s; RoboRIOCaps says %s", got, RoboRIOCaps)
	}
	m, err := hal.OpenCANMotor(b, "", frc.TalonSRX, 3)
	if err != nil {
		t.Fatal(err)
	}
	m.SetDuty(0.5)
	p6, err := phoenix6.Open(b)
	if err != nil {
		t.Fatal(err)
	}
	fx, err := p6.OpenTalonFX("", 4)
	if err != nil {
		t.Fatal(err)
	}
	fx.Control(phoenix6.FXControl{Mode: phoenix6.FXVoltage, Value: 3})
	got, _ := os.ReadFile(ctreLog)
	want := "c_MotController_Create1 0x2040003\nc_MotController_Set_4 0x2040003 0 0.5 0 0\n" +
		"c_ctre_phoenix6_encode_device 4 \"talon fx\" \"\"\nc_ctre_phoenix6_RequestControlVoltageOut \"\" 0x10004 100 3 0000000\n"
	if string(got) != want {
		t.Errorf("CTRE calls:\n%s\nwant:\n%s", got, want)
	}
}

// The loop's per-cycle calls allocate nothing.
func TestNoAllocations(t *testing.T) {
	f := open(t, "encoder 0 5", "ai 0 1 1", "dio 2 1", "can 0x8041400 1 0 01", "cw 1 0 0 0 0 1")
	p, _ := f.b.OpenPWM(0)
	e, _ := f.b.OpenEncoder(0, 1, hal.X4)
	a, _ := f.b.OpenAnalogIn(0, 2, 0)
	d, _ := f.b.OpenDigitalIn(2)
	do, _ := f.b.OpenDigitalOut(3)
	dc, _ := f.b.OpenDutyCycleOut(4)
	ao, _ := f.b.OpenAnalogOut(0)
	r, _ := f.b.OpenRelay(0)
	bus := f.b.CAN()
	bus.Latest(0x08041400)
	// The log would dominate the timing, not the allocations; turn it off.
	os.Unsetenv("FAKEHAL_LOG")
	fr := hal.Frame{ID: 0x09041C00, Len: 8}
	var j hal.JoystickState
	for name, fn := range map[string]func(){
		"SetPulse":     func() { p.SetPulse(1500 * time.Microsecond) },
		"Count":        func() { e.Count() },
		"Voltage":      func() { a.Voltage() },
		"Get":          func() { d.Get() },
		"Set":          func() { do.Set(true) },
		"SetDutyCycle": func() { dc.SetDutyCycle(0.5) },
		"SetVoltage":   func() { ao.SetVoltage(2.5) },
		"Relay":        func() { r.Set(true, false) },
		"Send":         func() { bus.Send(fr) },
		"Latest":       func() { bus.Latest(0x08041400) },
		"DS":           func() { f.b.DS() },
		"Joystick":     func() { f.b.Joystick(0, &j) },
		"MatchTime":    func() { f.b.MatchTime() },
		"Vin":          func() { f.b.Vin() },
		"BrownedOut":   func() { f.b.BrownedOut() },
		"Now":          func() { f.b.Now() },
		"ReadClock":    func() { f.b.ReadClock() },
	} {
		if n := testing.AllocsPerRun(20, fn); n != 0 {
			t.Errorf("%s: %v allocations per call", name, n)
		}
	}
}

// The built-in accelerometer: standby, range, active, as WPILib's
// BuiltInAccelerometer; x, y, z in g; opened once; a bad range refused.
func TestAccelerometer(t *testing.T) {
	f := open(t, "accelx 0.5", "accely -0.25", "accelz 1")
	if _, err := f.b.OpenAccelerometer(3); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("range 3 g: %v, want ErrNoDevice", err)
	}
	f.calls() // Open's
	a, err := f.b.OpenAccelerometer(4)
	if err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_SetAccelerometerActive active=0", "HAL_SetAccelerometerRange range=1", "HAL_SetAccelerometerActive active=1")
	if x, y, z, err := a.Read(); err != nil || x != 0.5 || y != -0.25 || z != 1 {
		t.Errorf("Read %v %v %v %v", x, y, z, err)
	}
	if _, err := f.b.OpenAccelerometer(8); !errors.Is(err, hal.ErrInUse) {
		t.Errorf("second open: %v, want ErrInUse", err)
	}
}

// The 2026 HAL_RefreshDSData says whether new data came since the last
// call: false on every other cycle of a loop faster than the DS's packets,
// which is no stale DS: the robot stays enabled.
func TestNoNewDSData(t *testing.T) {
	f := open(t, "cw 1 0 0 0 0 1", "refresh 0")
	for range 3 {
		if got := f.b.DS(); got != (hal.DSState{Enabled: true, Attached: true}) {
			t.Fatalf("no new DS data: %+v, want enabled", got)
		}
	}
}
