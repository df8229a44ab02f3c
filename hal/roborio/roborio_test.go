//go:build roborio && cgo

package roborio

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/internal/tooltest"
)

// libs holds the fake HALs, compiled once per test run.
var libs struct {
	once sync.Once
	dir  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if libs.dir != "" {
		os.RemoveAll(libs.dir)
	}
	os.Exit(code)
}

// cc is the C compiler the fake HALs are built with: the host's, or
// $FAKEHAL_CC (make rio runs these tests as an ARM binary under qemu-arm,
// with the fake built by the ARM cross compiler).
func cc() string {
	if c := os.Getenv("FAKEHAL_CC"); c != "" {
		return c
	}
	return "cc"
}

// compile builds a shared library from C source.
func compile(t *testing.T, out string, args ...string) {
	t.Helper()
	cmd := exec.Command(cc(), append([]string{"-shared", "-fPIC", "-o", out}, args...)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cc %s: %v\n%s", strings.Join(args, " "), err, b)
	}
}

// fakeLib is the path of the fake libwpiHal.so built from
// testdata/fakehal.c.
func fakeLib(t *testing.T) string {
	t.Helper()
	tooltest.Require(t, tooltest.CC)
	libs.once.Do(func() {
		libs.dir, libs.err = os.MkdirTemp("", "fakehal")
		if libs.err == nil {
			b, err := exec.Command(cc(), "-shared", "-fPIC", "-Wall", "-Werror", "-o",
				filepath.Join(libs.dir, Library), filepath.Join("testdata", "fakehal.c")).CombinedOutput()
			if err != nil {
				libs.err = errors.New(err.Error() + "\n" + string(b))
			}
		}
	})
	if libs.err != nil {
		t.Fatalf("building the fake HAL: %v", libs.err)
	}
	return filepath.Join(libs.dir, Library)
}

// fake is a Backend open on the fake HAL, with its call log and inputs.
type fake struct {
	t       *testing.T
	b       *Backend
	log, in string
	seen    int // log lines already returned by calls
}

// open opens a Backend on the fake HAL with inputs lines.
func open(t *testing.T, inputs ...string) *fake {
	t.Helper()
	lib := fakeLib(t)
	dir := t.TempDir()
	f := &fake{t: t, log: filepath.Join(dir, "log"), in: filepath.Join(dir, "in")}
	t.Setenv("FAKEHAL_LOG", f.log)
	t.Setenv("FAKEHAL_IN", f.in)
	f.set(inputs...)
	b, err := Open(Options{Library: lib})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	f.b = b
	t.Cleanup(func() { b.Close() })
	return f
}

// set appends input lines; a later line of a key wins.
func (f *fake) set(lines ...string) {
	f.t.Helper()
	file, err := os.OpenFile(f.in, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		f.t.Fatal(err)
	}
	defer file.Close()
	for _, l := range lines {
		if _, err := file.WriteString(l + "\n"); err != nil {
			f.t.Fatal(err)
		}
	}
}

// calls returns the HAL calls logged since the last calls.
func (f *fake) calls() []string {
	f.t.Helper()
	b, err := os.ReadFile(f.log)
	if err != nil && !os.IsNotExist(err) {
		f.t.Fatal(err)
	}
	all := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(b) == 0 {
		all = nil
	}
	got := all[f.seen:]
	f.seen = len(all)
	return got
}

// expect checks that the calls since the last check are exactly want.
func (f *fake) expect(want ...string) {
	f.t.Helper()
	got := f.calls()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		f.t.Errorf("HAL calls:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func mustStatus(t *testing.T, err error, code int32, sentinel error, msg string) {
	t.Helper()
	var se *StatusError
	if !errors.As(err, &se) {
		t.Fatalf("error %v is not a *StatusError", err)
	}
	if se.Code != code || !strings.Contains(se.Message, msg) {
		t.Errorf("status error %q: code %d, message %q; want %d and %q", err, se.Code, se.Message, code, msg)
	}
	if sentinel != nil && !errors.Is(err, sentinel) {
		t.Errorf("error %q does not wrap %v", err, sentinel)
	}
}

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

// oneLineWith checks that err is a single line mentioning every part
// and wraps ErrNoLibrary.
func oneLineWith(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") {
		t.Errorf("error is not one line: %q", msg)
	}
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("error %q does not mention %q", msg, p)
		}
	}
	if !errors.Is(err, ErrNoLibrary) {
		t.Errorf("error %q does not wrap ErrNoLibrary", msg)
	}
}

func TestMissingLibrary(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("LD_LIBRARY_PATH", empty)
	_, err := Open(Options{Dirs: []string{"/nonexistent/frc/lib", "/nonexistent/frc/third-party"}})
	oneLineWith(t, err, "libwpiHal.so not found in", "LD_LIBRARY_PATH ("+empty+")", "/nonexistent/frc/lib",
		"/nonexistent/frc/third-party", "deploy WPILib's HAL", Checklist)

	t.Setenv("LD_LIBRARY_PATH", "")
	_, err = Open(Options{})
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
	_, err := Open(Options{Dirs: []string{dir}})
	oneLineWith(t, err, "cannot load "+lib, "libfrcdgone.so", "deploy WPILib's HAL and its dependencies", Checklist)
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
		{"1 0 0 1 0 1", hal.DSState{Enabled: true, EStop: true, Attached: true}, "Disabled"},
		{"0 1 0 0 0 1", hal.DSState{Attached: true, Mode: hal.Autonomous}, "Disabled"},
		{"1 0 0 0 0 0", hal.DSState{Enabled: true}, "Disabled"},
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
	if got := f.b.DS(); got != (hal.DSState{}) {
		t.Errorf("failed control word read: %+v", got)
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

func TestClockAndVin(t *testing.T) {
	f := open(t, "fpga 5000000", "vin 12.25")
	if now := f.b.Now(); now != 0 {
		t.Errorf("Now at Open: %v", now)
	}
	f.set("fpga 5020000")
	if now := f.b.Now(); now != 20*time.Millisecond {
		t.Errorf("Now 20000 µs after Open: %v", now)
	}
	f.set("fail HAL_GetFPGATime -1098", "fpga 9000000")
	if now := f.b.Now(); now != 20*time.Millisecond {
		t.Errorf("Now when the FPGA clock fails: %v, want the last time read", now)
	}
	if v, err := f.b.Vin(); err != nil || v != 12.25 {
		t.Errorf("Vin %v, %v", v, err)
	}
	f.set("fail HAL_GetVinVoltage -1098")
	_, err := f.b.Vin()
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
	// A frame NetComm stamped 4 ms before the base time, 250 ms after Open.
	f.set("fpga 1250000", "can 0x8041400 1 4996 0102030405060708")
	got, at, ok := bus.Latest(pdp)
	want := hal.Frame{ID: pdp, Len: 8, Data: [8]byte{1, 2, 3, 4, 5, 6, 7, 8}}
	if !ok || got != want || at != 246*time.Millisecond {
		t.Errorf("Latest: %+v at %v (%v), want %+v at 246ms", got, at, ok, want)
	}
	// No new frame: the kept one, as it was.
	f.set("fpga 1300000")
	if got, at2, ok := bus.Latest(pdp); !ok || got != want || at2 != at {
		t.Errorf("Latest with nothing new: %+v at %v (%v)", got, at2, ok)
	}
	f.set("can 0x8041400 2 5010 aabb", "canbase 5010")
	if got, at, ok := bus.Latest(pdp); !ok || got.Len != 2 || got.Data[0] != 0xAA || got.Data[1] != 0xBB || at != 300*time.Millisecond {
		t.Errorf("Latest after a new frame: %+v at %v (%v)", got, at, ok)
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

func TestCTREUnsupported(t *testing.T) {
	f := open(t)
	if _, err := f.b.OpenCANMotor("talon_srx", 3); !errors.Is(err, hal.ErrUnsupported) || !strings.Contains(err.Error(), "Phoenix") {
		t.Errorf("OpenCANMotor: %v", err)
	}
	if _, err := f.b.OpenPigeon(-1, 3); !errors.Is(err, hal.ErrUnsupported) || !strings.Contains(err.Error(), "Talon SRX of CAN id 3") {
		t.Errorf("OpenPigeon: %v", err)
	}
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
		"Now":          func() { f.b.Now() },
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
