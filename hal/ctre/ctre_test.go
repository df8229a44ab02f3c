//go:build (ctre || roborio) && cgo

package ctre

import (
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
	"github.com/frcd/frcd/internal/tooltest"
)

// libs holds the fake libraries, compiled once per run: both families,
// and Phoenix 6 alone.
var libs struct {
	once      sync.Once
	dir       string
	both, six string
	err       error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if libs.dir != "" {
		os.RemoveAll(libs.dir)
	}
	os.Exit(code)
}

// cc is the host's C compiler, or $FAKECTRE_CC (make rio-test builds the
// fake for ARM and runs these tests under qemu-arm).
func cc() string {
	if c := os.Getenv("FAKECTRE_CC"); c != "" {
		return c
	}
	return "cc"
}

func fakes(t *testing.T) (both, six string) {
	t.Helper()
	tooltest.Require(t, tooltest.CC)
	libs.once.Do(func() {
		libs.dir, libs.err = os.MkdirTemp("", "fakectre")
		if libs.err != nil {
			return
		}
		libs.both, libs.six = filepath.Join(libs.dir, "libfake_both.so"), filepath.Join(libs.dir, "libfake_six.so")
		for _, c := range [][]string{{"-o", libs.both}, {"-DONLY6", "-o", libs.six}} {
			args := append([]string{"-shared", "-fPIC", "-Wall", "-Werror"}, c...)
			b, err := exec.Command(cc(), append(args, filepath.Join("testdata", "fakectre.c"))...).CombinedOutput()
			if err != nil {
				libs.err = errors.New(err.Error() + "\n" + string(b))
				return
			}
		}
	})
	if libs.err != nil {
		t.Fatalf("building the fake CTRE libraries: %v", libs.err)
	}
	return libs.both, libs.six
}

type fake struct {
	t       *testing.T
	l       *Lib
	log, in string
	seen    int
}

func open(t *testing.T, o Options, inputs ...string) *fake {
	t.Helper()
	both, _ := fakes(t)
	dir := t.TempDir()
	f := &fake{t: t, log: filepath.Join(dir, "log"), in: filepath.Join(dir, "in")}
	t.Setenv("FAKECTRE_LOG", f.log)
	t.Setenv("FAKECTRE_IN", f.in)
	f.set(inputs...)
	if o.Paths == nil {
		o.Paths = []string{both}
	}
	l, err := Open(o)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	f.l = l
	return f
}

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

// expect checks that the calls since the last check are exactly want.
func (f *fake) expect(want ...string) {
	f.t.Helper()
	b, err := os.ReadFile(f.log)
	if err != nil && !os.IsNotExist(err) {
		f.t.Fatal(err)
	}
	var all []string
	if len(b) > 0 {
		all = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	got := all[f.seen:]
	f.seen = len(all)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		f.t.Errorf("CTRE calls:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// opened is the calls opening a Phoenix 6 device and setting its signal
// rates make: its hash, then each signal the loop reads set to 100 Hz
// (0.1 s to answer).
func opened(id int, model, bus string, hash string, spns ...int) []string {
	out := []string{fmt.Sprintf(`c_ctre_phoenix6_encode_device %d "%s" "%s"`, id, model, bus)}
	for _, spn := range spns {
		out = append(out, fmt.Sprintf(`c_ctre_phoenix6_SetUpdateFrequency 0 "%s" %s %d 100 0.1`, bus, hash, spn))
	}
	return out
}

// The signals each device's loop reads.
var (
	fxSpns = []int{1786, 1785, 1781, 1780, 1779, 1782, 844, 1772}
	ccSpns = []int{1953, 1952, 1954, 844}
	p2Spns = []int{952, 953, 954, 955, 976, 977, 978, 970, 971, 972}
)

func TestOpenFailsClearly(t *testing.T) {
	t.Setenv("LD_LIBRARY_PATH", "")
	_, err := Open(Options{Dirs: []string{t.TempDir()}})
	if !errors.Is(err, ErrNoLibrary) || !strings.Contains(err.Error(), "libCTRE_PhoenixTools.so") || !strings.Contains(err.Error(), Checklist) {
		t.Errorf("Open without libraries: %v", err)
	}
	_, err = Open(Options{Paths: []string{filepath.Join(t.TempDir(), "libCTRE_PhoenixCCI.so")}})
	if !errors.Is(err, ErrNoLibrary) || !strings.Contains(err.Error(), "cannot load") {
		t.Errorf("Open of a missing path: %v", err)
	}
}

func TestFindSearchesDirs(t *testing.T) {
	both, _ := fakes(t)
	dir := t.TempDir()
	b, err := os.ReadFile(both)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range Libraries {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("LD_LIBRARY_PATH", "")
	got := find([]string{t.TempDir(), dir})
	want := []string{filepath.Join(dir, Libraries[0]), filepath.Join(dir, Libraries[1])}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("find = %v, want %v", got, want)
	}
}

func TestPhoenix5MotorControllers(t *testing.T) {
	f := open(t, Options{}, "p5 0x2040003 12.5 -4 31")
	if p5, p6 := f.l.Families(); !p5 || !p6 || f.l.Caps() != Caps {
		t.Fatalf("families %v %v, caps %v", p5, p6, f.l.Caps())
	}
	talon, err := f.l.OpenCANMotor(frc.TalonSRX, 3)
	if err != nil {
		t.Fatal(err)
	}
	victor, err := f.l.OpenCANMotor(frc.VictorSPX, 4)
	if err != nil {
		t.Fatal(err)
	}
	f.expect("c_MotController_Create1 0x2040003", "c_MotController_Create1 0x1040004")
	if err := talon.SetDuty(0.25); err != nil {
		t.Fatal(err)
	}
	victor.SetDuty(math.NaN())
	victor.SetDuty(-3)
	f.expect("c_MotController_Set_4 0x2040003 0 0.25 0 0", "c_MotController_Set_4 0x1040004 0 0 0 0", "c_MotController_Set_4 0x1040004 0 0 0 0")
	st, err := talon.Status()
	if err != nil || st != (hal.MotorStatus{BusVoltage: 12.5, OutputCurrent: 4, Temperature: 31}) {
		t.Errorf("Status = %+v, %v", st, err)
	}
	f.expect("c_MotController_GetBusVoltage 0x2040003", "c_MotController_GetOutputCurrent 0x2040003", "c_MotController_GetTemperature 0x2040003")

	f.set("fail c_MotController_Set_4 -3", "fail c_MotController_GetBusVoltage -200")
	if err := talon.SetDuty(0.1); !errors.Is(err, hal.ErrTimeout) || !strings.Contains(err.Error(), "c_MotController_Set_4: status -3") {
		t.Errorf("failed SetDuty: %v", err)
	}
	if _, err := talon.Status(); !errors.Is(err, hal.ErrTimeout) {
		t.Errorf("stale Status: %v", err)
	}
	f.expect("c_MotController_Set_4 0x2040003 0 0.1 0 0", "c_MotController_GetBusVoltage 0x2040003")

	for _, bad := range []struct {
		model string
		id    int
		want  error
	}{{frc.TalonSRX, 63, hal.ErrNoDevice}, {frc.TalonSRX, -1, hal.ErrNoDevice}, {"TalonFX", 1, hal.ErrUnsupported}} {
		if _, err := f.l.OpenCANMotor(bad.model, bad.id); !errors.Is(err, bad.want) {
			t.Errorf("OpenCANMotor(%q, %d): %v, want %v", bad.model, bad.id, err, bad.want)
		}
	}
	if _, err := f.l.OpenCANMotorOn("canivore", frc.TalonSRX, 1); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("Phoenix 5 on a named bus: %v", err)
	}
	f.expect()
}

func TestPhoenix5Pigeon(t *testing.T) {
	f := open(t, Options{}, "pigeon5 5 1 0 0 0 90 0 -180 0 0 16384", "pigeon5 1002 0.5 0.5 0.5 0.5 0 0 0 8192 0 0")
	onCAN, err := f.l.OpenPigeon(5, -1)
	if err != nil {
		t.Fatal(err)
	}
	onTalon, err := f.l.OpenPigeon(-1, 2)
	if err != nil {
		t.Fatal(err)
	}
	// As CTRE's own PigeonIMU(int) and PigeonIMU(TalonSRX&) call them
	// (libCTRE_Phoenix.so: BasePigeon passes version "v1", bus "").
	f.expect(`c_PigeonIMU_Create1 5 "v1" ""`, `c_PigeonIMU_Create2 2 "v1"`)
	q, g, a, err := onCAN.Read()
	if err != nil || q != [4]float64{1, 0, 0, 0} || !near(g[0], math.Pi/2) || !near(g[2], -math.Pi) || !near(a[2], 9.80665) {
		t.Errorf("Read = %v %v %v %v", q, g, a, err)
	}
	f.expect("c_PigeonIMU_Get6dQuaternion 5", "c_PigeonIMU_GetRawGyro 5", "c_PigeonIMU_GetBiasedAccelerometer 5")
	if q, _, a, err := onTalon.Read(); err != nil || q[0] != 0.5 || !near(a[0], 9.80665/2) {
		t.Errorf("Read on Talon = %v %v %v", q, a, err)
	}
	f.expect("c_PigeonIMU_Get6dQuaternion 1002", "c_PigeonIMU_GetRawGyro 1002", "c_PigeonIMU_GetBiasedAccelerometer 1002")
	f.set("fail c_PigeonIMU_Get6dQuaternion -7")
	if _, _, _, err := onCAN.Read(); err == nil || errors.Is(err, hal.ErrTimeout) {
		t.Errorf("failed Read: %v", err)
	}
	f.expect("c_PigeonIMU_Get6dQuaternion 5")
}

func TestTalonFX(t *testing.T) {
	f := open(t, Options{DefaultBus: "can0"},
		"sig 0x10007 1786 12.5", "sig 0x10007 1785 -3", "sig 0x10007 1781 12.1", "sig 0x10007 1780 4.5",
		"sig 0x10007 1779 20", "sig 0x10007 1782 45", "sig 0x10007 844 6", "sig 0x10007 1772 -3.5")
	fx, err := f.l.OpenTalonFX("", 7)
	if err != nil {
		t.Fatal(err)
	}
	if err := phoenix6.SetSignalRates(fx); err != nil {
		t.Fatal(err)
	}
	f.expect(opened(7, "talon fx", "can0", "0x10007", fxSpns...)...)
	st, err := fx.Status()
	want := phoenix6.FXStatus{Position: 12.5, Velocity: -3, MotorVoltage: -3.5, SupplyVoltage: 12.1, SupplyCurrent: 4.5, StatorCurrent: 20, Temperature: 45, Faults: 6}
	if err != nil || st != want {
		t.Errorf("Status = %+v, %v; want %+v", st, err, want)
	}
	f.expect(`c_ctre_phoenix6_get_signal 8 "can0" 0 0 0x10007:1786 0x10007:1785 0x10007:1781 0x10007:1780 0x10007:1779 0x10007:1782 0x10007:844 0x10007:1772`)

	for _, c := range []phoenix6.FXControl{
		{Mode: phoenix6.FXDuty, Value: 0.5}, {Mode: phoenix6.FXDuty, Value: 2}, {Mode: phoenix6.FXVoltage, Value: -6},
		{Mode: phoenix6.FXPosition, Value: 10, FeedForward: 0.5, Slot: 1}, {Mode: phoenix6.FXVelocity, Value: 40, Slot: 9},
		{Mode: phoenix6.FXVoltage, Value: math.Inf(1)}, {Mode: phoenix6.FXNeutral},
	} {
		if err := fx.Control(c); err != nil {
			t.Errorf("Control(%+v): %v", c, err)
		}
	}
	f.expect(
		`c_ctre_phoenix6_RequestControlDutyCycleOut "can0" 0x10007 100 0.5 0000000`,
		`c_ctre_phoenix6_RequestControlDutyCycleOut "can0" 0x10007 100 1 0000000`,
		`c_ctre_phoenix6_RequestControlVoltageOut "can0" 0x10007 100 -6 0000000`,
		`c_ctre_phoenix6_RequestControlPositionVoltage "can0" 0x10007 100 10 0 0 0.5 1 000000`,
		`c_ctre_phoenix6_RequestControlVelocityVoltage "can0" 0x10007 100 40 0 0 0 2 000000`,
		`c_ctre_phoenix6_RequestControlNeutralOut "can0" 0x10007 100 0`,
		`c_ctre_phoenix6_RequestControlNeutralOut "can0" 0x10007 100 0`,
	)
	if err := fx.SetGains(1, phoenix6.FXGains{P: 2, I: 0.1, D: 0.05, V: 0.12, S: 0.25}); err != nil {
		t.Fatal(err)
	}
	// Slot 1's kP, kI, kD, kS, kV are SPNs 1885-1889 (phoenix6 26.1.0's
	// SLOT1_K_P...SLOT1_K_V): kS before kV.
	var want6 []string
	for i, v := range []string{"2", "0.1", "0.05", "0.25", "0.12"} {
		want6 = append(want6, "c_ctre_phoenix6_serialize_double "+strconv.Itoa(1885+i)+" "+v, "c_ctre_phoenix6_free_memory")
	}
	// futureProofConfigs false: a config group applied alone, as phoenix6's
	// own Slot*Configs are, leaves the device's other configs as they are
	// (true would return them to their defaults).
	f.expect(append(want6, `c_ctre_phoenix6_set_configs 0 "can0" 0x10007 0.1 "1885=2;1886=0.1;1887=0.05;1888=0.25;1889=0.12;" 46 000`)...)
	if err := fx.SetGains(3, phoenix6.FXGains{}); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("slot 3: %v", err)
	}
	f.set("fail c_ctre_phoenix6_set_configs 5", "sigerr 0x10007 1782 -10")
	if err := fx.SetGains(0, phoenix6.FXGains{}); err == nil || !strings.Contains(err.Error(), "c_ctre_phoenix6_set_configs: status 5") {
		t.Errorf("failed config apply: %v", err)
	}
	if _, err := fx.Status(); err == nil || !strings.Contains(err.Error(), "status -10") {
		t.Errorf("a signal's error: %v", err)
	}
	f.set("fail c_ctre_phoenix6_RequestControlVoltageOut 1")
	if err := fx.Control(phoenix6.FXControl{Mode: phoenix6.FXVoltage, Value: 1}); err == nil || errors.Is(err, hal.ErrTimeout) {
		t.Errorf("Phoenix 6 status 1 is not Phoenix 5's CAN_MSG_STALE: %v", err)
	}
}

// Applying gains keeps the Talon FX's other configs: the fake, as a
// device does, returns every config not sent to its default when an
// apply's futureProofConfigs is true (and logs it); frcd applies its
// gains as a config group alone, so nothing is lost.
func TestGainsKeepOtherConfigs(t *testing.T) {
	// Two configs set elsewhere (Tuner X, another program): their SPNs
	// and values are the fake's, only to see them kept.
	f := open(t, Options{}, "cfg 0x10007 2000 1", "cfg 0x10007 2001 40")
	fx, err := f.l.OpenTalonFX("", 7)
	if err != nil {
		t.Fatal(err)
	}
	f.expect(opened(7, "talon fx", "", "0x10007")...)
	if err := fx.SetGains(0, phoenix6.FXGains{P: 1}); err != nil {
		t.Fatal(err)
	}
	var want []string
	for i, v := range []string{"1", "0", "0", "0", "0"} {
		want = append(want, "c_ctre_phoenix6_serialize_double "+strconv.Itoa(1877+i)+" "+v, "c_ctre_phoenix6_free_memory")
	}
	f.expect(append(want, `c_ctre_phoenix6_set_configs 0 "" 0x10007 0.1 "1877=1;1878=0;1879=0;1880=0;1881=0;" 35 000`)...)
}

func TestCANcoderAndPigeon2(t *testing.T) {
	f := open(t, Options{},
		"sig 0x20009 1953 2.25", "sig 0x20009 1952 0.5", "sig 0x20009 1954 0.25",
		"sig 0x3000a 952 0.7071067811865476", "sig 0x3000a 955 0.7071067811865476", "sig 0x3000a 978 180", "sig 0x3000a 972 1")
	cc, err := f.l.OpenCANcoder("canivore", 9)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := f.l.OpenPigeon2("", 10)
	if err != nil {
		t.Fatal(err)
	}
	phoenix6.SetSignalRates(cc)
	phoenix6.SetSignalRates(p2)
	f.expect(append(append(opened(9, "cancoder", "canivore", "0x20009"), opened(10, "pigeon 2", "", "0x3000a")...),
		append(opened(9, "cancoder", "canivore", "0x20009", ccSpns...)[1:], opened(10, "pigeon 2", "", "0x3000a", p2Spns...)[1:]...)...)...)
	pos, vel, abs, faults, err := cc.Read()
	if err != nil || pos != 2.25 || vel != 0.5 || abs != 0.25 || faults != 0 {
		t.Errorf("CANcoder Read = %v %v %v %v %v", pos, vel, abs, faults, err)
	}
	f.expect(`c_ctre_phoenix6_get_signal 4 "canivore" 0 0 0x20009:1953 0x20009:1952 0x20009:1954 0x20009:844`)
	q, g, a, err := p2.Read()
	if err != nil || !near(q[0], math.Sqrt2/2) || !near(q[3], math.Sqrt2/2) || !near(g[2], math.Pi) || !near(a[2], 9.80665) {
		t.Errorf("Pigeon 2 Read = %v %v %v %v", q, g, a, err)
	}
	f.expect(`c_ctre_phoenix6_get_signal 10 "" 0 0 0x3000a:952 0x3000a:953 0x3000a:954 0x3000a:955 0x3000a:976 0x3000a:977 0x3000a:978 0x3000a:970 0x3000a:971 0x3000a:972`)
	f.set("fail c_ctre_phoenix6_SetUpdateFrequency 7")
	if err := phoenix6.SetSignalRates(cc); err == nil || !strings.Contains(err.Error(), "c_ctre_phoenix6_SetUpdateFrequency: status 7") {
		t.Errorf("a device refusing its update frequencies: %v", err)
	}
	if _, err := f.l.OpenCANcoder("", 63); !errors.Is(err, hal.ErrNoDevice) {
		t.Errorf("id 63: %v", err)
	}
}

// Each device's health: its own signals (temperature, supply, AllFaults,
// AllStickyFaults, then the named faults, the device's own first), read
// apart from the loop's.
func TestHealth(t *testing.T) {
	f := open(t, Options{DefaultBus: "can0"},
		"sig 0x10007 1782 81", "sig 0x10007 1781 6.2", "sig 0x10007 844 3", "sig 0x10007 845 16",
		"sig 0x10007 10049 1", "sig 0x10007 10007 1",
		"sig 0x20009 1958 5", "sig 0x20009 10046 1",
		"sig 0x3000a 959 31", "sig 0x3000a 973 12", "sig 0x3000a 10028 1")
	fx, _ := f.l.OpenTalonFX("", 7)
	cc, _ := f.l.OpenCANcoder("", 9)
	p2, _ := f.l.OpenPigeon2("", 10)
	f.expect(append(append(opened(7, "talon fx", "can0", "0x10007"), opened(9, "cancoder", "can0", "0x20009")...),
		opened(10, "pigeon 2", "can0", "0x3000a")...)...)
	h, err := fx.Health()
	want := phoenix6.Health{TempC: 81, SupplyV: 6.2, Faults: 3, StickyFaults: 16, Active: phoenix6.BridgeBrownout | phoenix6.DeviceTemp}
	if err != nil || h != want {
		t.Errorf("Talon FX Health = %+v, %v; want %+v", h, err, want)
	}
	f.expect(`c_ctre_phoenix6_get_signal 10 "can0" 0 0 0x10007:1782 0x10007:1781 0x10007:844 0x10007:845 0x10007:10004 0x10007:10049 0x10007:10001 0x10007:10007 0x10007:10010 0x10007:10013`)
	h, err = cc.Health()
	if err != nil || !math.IsNaN(h.TempC) || h.SupplyV != 5 || h.Active != phoenix6.BadMagnet {
		t.Errorf("CANcoder Health = %+v, %v", h, err)
	}
	f.expect(`c_ctre_phoenix6_get_signal 8 "can0" 0 0 0x20009:1958 0x20009:844 0x20009:845 0x20009:10046 0x20009:10001 0x20009:10007 0x20009:10010 0x20009:10013`)
	h, err = p2.Health()
	want = phoenix6.Health{TempC: 31, SupplyV: 12, Active: phoenix6.BootIntoMotion}
	if err != nil || h != want {
		t.Errorf("Pigeon 2 Health = %+v, %v; want %+v", h, err, want)
	}
	f.expect(`c_ctre_phoenix6_get_signal 12 "can0" 0 0 0x3000a:959 0x3000a:973 0x3000a:844 0x3000a:845 0x3000a:10019 0x3000a:10022 0x3000a:10028 0x3000a:10043 0x3000a:10001 0x3000a:10007 0x3000a:10010 0x3000a:10013`)
	if got := (phoenix6.BridgeBrownout | phoenix6.DeviceTemp).Names(); got != "device over temperature, bridge brown-out" {
		t.Errorf("Names = %q", got)
	}
	f.set("sigerr 0x3000a 10043 -10")
	if _, err := p2.Health(); err == nil || !strings.Contains(err.Error(), "status -10") {
		t.Errorf("a health signal's error: %v", err)
	}
}

func TestFeed(t *testing.T) {
	f := open(t, Options{})
	f.l.Feed()
	f.expect("c_FeedEnable 100", "c_ctre_phoenix6_unmanaged_feed_enable 100")
	onRIO := open(t, Options{FRC: true})
	onRIO.l.Feed()
	onRIO.expect()
}

func TestPhoenix6Only(t *testing.T) {
	_, six := fakes(t)
	f := open(t, Options{Paths: []string{six}})
	if p5, p6 := f.l.Families(); p5 || !p6 || f.l.Caps() != phoenix6.Cap {
		t.Fatalf("families %v %v, caps %v", p5, p6, f.l.Caps())
	}
	if _, err := f.l.OpenCANMotor(frc.TalonSRX, 1); !errors.Is(err, hal.ErrUnsupported) || !strings.Contains(err.Error(), "libCTRE_PhoenixCCI.so") {
		t.Errorf("Phoenix 5 device without Phoenix 5: %v", err)
	}
	if _, err := f.l.OpenPigeon(1, -1); !errors.Is(err, hal.ErrUnsupported) {
		t.Errorf("Pigeon without Phoenix 5: %v", err)
	}
	f.l.Feed()
	f.expect("c_ctre_phoenix6_unmanaged_feed_enable 100")
}

// The loop's calls allocate nothing on Go's heap.
func TestNoAllocations(t *testing.T) {
	f := open(t, Options{})
	fx, _ := f.l.OpenTalonFX("", 1)
	cc, _ := f.l.OpenCANcoder("", 2)
	p2, _ := f.l.OpenPigeon2("", 3)
	m, _ := f.l.OpenCANMotor(frc.TalonSRX, 4)
	p5, _ := f.l.OpenPigeon(5, -1)
	t.Setenv("FAKECTRE_LOG", "") // no file I/O in the loop measured
	os.Unsetenv("FAKECTRE_LOG")
	n := testing.AllocsPerRun(50, func() {
		fx.Status()
		fx.Control(phoenix6.FXControl{Mode: phoenix6.FXVoltage, Value: 2})
		cc.Read()
		p2.Read()
		m.SetDuty(0.5)
		m.Status()
		p5.Read()
		f.l.Feed()
	})
	if n != 0 {
		t.Errorf("%v allocations per cycle", n)
	}
}

// A call failing the same way every cycle returns the same error, made
// once: no allocation per cycle, and the devices' error caches see one
// cause.
func TestFailingCallsDoNotAllocate(t *testing.T) {
	f := open(t, Options{}, "fail c_ctre_phoenix6_RequestControlVoltageOut 3", "fail c_ctre_phoenix6_get_signal 4",
		"fail c_MotController_Set_4 -3", "fail c_MotController_GetBusVoltage -3", "fail c_PigeonIMU_Get6dQuaternion -3")
	fx, _ := f.l.OpenTalonFX("", 1)
	m, _ := f.l.OpenCANMotor(frc.TalonSRX, 4)
	p5, _ := f.l.OpenPigeon(5, -1)
	os.Unsetenv("FAKECTRE_LOG")
	ctl := fx.Control(phoenix6.FXControl{Mode: phoenix6.FXVoltage, Value: 2})
	_, st := fx.Status()
	duty := m.SetDuty(0.5)
	_, ms := m.Status()
	_, _, _, pr := p5.Read()
	for _, err := range []error{ctl, st, duty, ms, pr} {
		if err == nil {
			t.Fatal("a call the fake fails did not fail")
		}
	}
	n := testing.AllocsPerRun(50, func() {
		_, e1 := fx.Status()
		e2 := fx.Control(phoenix6.FXControl{Mode: phoenix6.FXVoltage, Value: 2})
		e3 := m.SetDuty(0.5)
		_, e4 := m.Status()
		_, _, _, e5 := p5.Read()
		if e1 != st || e2 != ctl || e3 != duty || e4 != ms || e5 != pr {
			t.Fatalf("a repeated failure made a new error: %v %v %v %v %v", e1 != st, e2 != ctl, e3 != duty, e4 != ms, e5 != pr)
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per cycle of failing calls", n)
	}
	// Another code is another error.
	f.set("fail c_ctre_phoenix6_RequestControlVoltageOut 5")
	if err := fx.Control(phoenix6.FXControl{Mode: phoenix6.FXVoltage, Value: 2}); err == ctl || !strings.Contains(err.Error(), "status 5") {
		t.Errorf("a new failure: %v", err)
	}
}
