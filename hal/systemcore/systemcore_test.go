package systemcore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/ctre"
	"github.com/frcd/frcd/hal/linux"
	"github.com/frcd/frcd/hal/phoenix6"
)

// The backend implements exactly the providers Caps declares, so that
// `frcd validate --hal systemcore` (which knows Caps without opening a
// backend) says what running it would say.
func TestCapsAreWhatItImplements(t *testing.T) {
	b, err := New(Options{}, linux.Parts{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// CTRE's libraries are not deployed here: the rest of Caps.
	if got := hal.CapsOf(b); got != Caps&^ctre.Caps {
		t.Fatalf("CapsOf = %q, Caps = %q", got, Caps)
	}
	var _ hal.Backend = b
	var _ hal.NamedCAN = b
	var _ hal.Stepper = b
	var _ hal.Enabler = b
	var _ hal.Reporter = b
	var _ hal.Epocher = b
	var _ hal.Joysticks = b
	var _ hal.MatchTimer = b
	var _ hal.MatchInfos = b
}

// Every provider Systemcore lacks is refused with ErrUnsupported and a
// reason naming what stands in the way; SmartIO, the IMU and the battery
// without WPILib's HAL say so.
func TestLacksSaysWhy(t *testing.T) {
	b, err := New(Options{}, linux.Parts{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	const noHAL = "reached through WPILib's 2027 HAL (libwpiHal.so)"
	cases := []struct {
		name string
		open func() error
		want string
	}{
		{"pwm", func() error { _, err := hal.OpenPWM(b, 0); return err }, noHAL},
		{"dio", func() error { _, err := hal.OpenDigitalIn(b, 0); return err }, noHAL},
		{"analog in", func() error { _, err := hal.OpenAnalogIn(b, 0, 0, 0); return err }, noHAL},
		{"imu", func() error { _, err := hal.OpenBuiltInIMU(b); return err }, noHAL},
		{"encoder", func() error { _, err := hal.OpenEncoder(b, 0, 1, hal.X4); return err }, noHAL},
		{"vin", func() error { _, err := b.Vin(); return err }, noHAL},
		{"brownout", func() error { _, err := b.BrownedOut(); return err }, noHAL},
		{"relay", func() error { _, err := hal.OpenRelay(b, 0); return err }, "no relay ports"},
		{"analog out", func() error { _, err := hal.OpenAnalogOut(b, 0); return err }, "analog outputs"},
		{"duty cycle out", func() error { _, err := hal.OpenDutyCycleOut(b, 0); return err }, "HAL_AllocateDigitalPWM"},
		{"rio ports", func() error { _, err := hal.OpenRIOPorts(b); return err }, "no roboRIO SPI"},
	}
	for _, c := range cases {
		err := c.open()
		if !errors.Is(err, hal.ErrUnsupported) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrUnsupported saying %q", c.name, err, c.want)
		}
	}
	for _, c := range []hal.Caps{hal.CapAnalogOut, hal.CapDutyCycle, hal.CapRelay, hal.CapCANMotor, hal.CapPigeon, phoenix6.Cap, hal.CapRIOPorts, hal.CapLinuxBuses} {
		if Lacks(c) == "" || b.Lacks(c) == "" {
			t.Errorf("Lacks(%s) gives no reason", c)
		}
	}
	if got := b.Lacks(phoenix6.Cap); !strings.Contains(got, "ctre") && !strings.Contains(got, "CTRE") {
		t.Errorf("Lacks(Phoenix 6) without the libraries: %q", got)
	}
	// Phoenix 5's devices: CTRE ships no Phoenix 5 for Systemcore.
	for _, c := range []hal.Caps{hal.CapCANMotor, hal.CapPigeon} {
		if Caps&c != 0 || !strings.Contains(b.Lacks(c), "no Phoenix 5 for Systemcore") {
			t.Errorf("%s: in Caps %v, Lacks %q", c, Caps&c != 0, b.Lacks(c))
		}
	}
	if Caps&phoenix6.Cap == 0 {
		t.Error("Phoenix 6 devices are not among Systemcore's caps")
	}
	for _, c := range []hal.Caps{hal.CapPWM, hal.CapDIO, hal.CapAnalogIn, hal.CapEncoder, hal.CapIMU, hal.CapCAN} {
		if Lacks(c) != "" || Caps&c == 0 {
			t.Errorf("%s: Lacks %q, in Caps %v", c, Lacks(c), Caps&c != 0)
		}
	}
	// Without the HAL, Open says so in one line, after the buses.
	if WithHAL {
		return
	}
	if _, err := openHAL(""); !errors.Is(err, ErrNoHAL) || !strings.Contains(err.Error(), "make systemcore") || strings.Contains(err.Error(), "\n") {
		t.Errorf("openHAL in a build without it: %v", err)
	}
}

// The heartbeat is the OS's unless the file says otherwise (or the
// Driver Station is frcd's own, over ROS).
func TestHeartbeatDefault(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{{Options{}, "off"}, {Options{ROSEnable: true}, "auto"}, {Options{Heartbeat: "on"}, "on"}} {
		if got := c.o.HeartbeatMode(); got != c.want {
			t.Errorf("%+v: heartbeat %s, want %s", c.o, got, c.want)
		}
	}
}

// The default buses are Systemcore's five; a missing interface is named
// with the ones Systemcore has, every one at once, before any socket is
// opened.
func TestOpenNamesEveryMissingInterface(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "can_s0"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "can_s0", "mtu"), []byte("72\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(Options{Heartbeat: "auto", SysNet: dir}, nil)
	if err == nil {
		t.Fatal("Open with four interfaces missing succeeded")
	}
	for _, n := range Buses[1:] {
		if !strings.Contains(err.Error(), n+": no such CAN interface (Systemcore's are can_s0, can_s1, can_s2, can_s3, can_s4)") {
			t.Errorf("error does not name %s:\n%v", n, err)
		}
	}
	if strings.Contains(err.Error(), "can_s0:") {
		t.Errorf("error names can_s0, which exists:\n%v", err)
	}
	if _, err := Open(Options{Heartbeat: "sometimes", SysNet: dir}, nil); err == nil || !strings.Contains(err.Error(), "want auto, on or off") {
		t.Errorf("bad heartbeat mode: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "can_s0", "mtu"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(Options{CAN: []string{"can_s0"}, SysNet: dir, Heartbeat: "off"}, nil); err == nil || !strings.Contains(err.Error(), `can_s0: its MTU "x"`) {
		t.Errorf("bad MTU: %v", err)
	}
}
