package systemcore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/linux"
)

// The backend implements exactly the providers Caps declares, so that
// `frcd validate --hal systemcore` (which knows Caps without opening a
// backend) says what running it would say.
func TestCapsAreWhatItImplements(t *testing.T) {
	b := New(Options{}, linux.Parts{}, nil)
	if got := hal.CapsOf(b); got != Caps {
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
// reason naming what stands in the way; SmartIO and the IMU without a
// system server say so.
func TestLacksSaysWhy(t *testing.T) {
	b := New(Options{}, linux.Parts{}, nil)
	cases := []struct {
		name string
		open func() error
		want string
	}{
		{"pwm", func() error { _, err := hal.OpenPWM(b, 0); return err }, "system_server` is off"},
		{"dio", func() error { _, err := hal.OpenDigitalIn(b, 0); return err }, "system_server` is off"},
		{"analog in", func() error { _, err := hal.OpenAnalogIn(b, 0, 0, 0); return err }, "system_server` is off"},
		{"imu", func() error { _, err := hal.OpenBuiltInIMU(b); return err }, "system_server` is off"},
		{"encoder", func() error { _, err := hal.OpenEncoder(b, 0, 1, hal.Encoding(4)); return err }, "no quadrature encoder mode"},
		{"relay", func() error { _, err := hal.OpenRelay(b, 0); return err }, "no relay ports"},
		{"analog out", func() error { _, err := hal.OpenAnalogOut(b, 0); return err }, "analog outputs"},
		{"rio ports", func() error { _, err := hal.OpenRIOPorts(b); return err }, "no roboRIO SPI"},
		{"vin", func() error { _, err := b.Vin(); return err }, "battery voltage"},
	}
	for _, c := range cases {
		err := c.open()
		if !errors.Is(err, hal.ErrUnsupported) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrUnsupported saying %q", c.name, err, c.want)
		}
	}
	for _, c := range []hal.Caps{hal.CapAnalogOut, hal.CapEncoder, hal.CapRelay, hal.CapCANMotor, hal.CapPigeon, hal.CapRIOPorts, hal.CapLinuxBuses} {
		if Lacks(c) == "" {
			t.Errorf("Lacks(%s) gives no reason", c)
		}
	}
	for _, c := range []hal.Caps{hal.CapPWM, hal.CapDIO, hal.CapAnalogIn, hal.CapDutyCycle, hal.CapIMU, hal.CapCAN} {
		if Lacks(c) != "" || Caps&c == 0 {
			t.Errorf("%s: Lacks %q, in Caps %v", c, Lacks(c), Caps&c != 0)
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
