//go:build systemcore && cgo && !roborio

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/hal/linux"
	"github.com/frcd/frcd/hal/systemcore"
	"github.com/frcd/frcd/internal/fakehal"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
)

// An addressable_led on the systemcore backend over the fake 2027 HAL,
// the daemon's loop stepped by the test: once the Driver Station enables,
// the LEDColorController's colour lights the string's window of the
// HAL's shared buffer; disable, a stale Driver Station, a stale command,
// e-stop, and the final halt and Close each leave the whole buffer zero.
func TestAddressableLEDOnFakeHAL(t *testing.T) {
	tooltest.Require(t, tooltest.CC)
	lib, f := fakehal.Setup(t, "2027")
	dir := t.TempDir()
	yaml := "joints:\n  - {name: underglow, type: addressable_led, dio_channel: 4, start: 100, length: 3}\n" +
		"controllers:\n  underglow: {type: frcd_controllers/LEDColorController, joint: underglow}\n" +
		"loop: {rate_hz: 100, command_timeout: 0.5}\n"
	if err := os.WriteFile(filepath.Join(dir, "robot.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	r, list, err := robot.Load("../../examples/systemcore_io/robot.urdf", filepath.Join(dir, "robot.yaml"))
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	o := systemcore.OptionsFrom(r.Config)
	o.HALLibrary = lib
	b, err := systemcore.New(o, linux.Parts{}, map[string]bool{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.New(r, b, daemon.Options{Rate: 100, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()

	vt := time.Duration(0)
	colour, fresh := 0x00FF80, true
	buffer := func() [1024 * 3]byte {
		calls, err := f.Calls()
		if err != nil {
			t.Fatal(err)
		}
		return fakehal.LEDBuffer(calls)
	}
	step := func() {
		if fresh {
			d.Loop.Controller("underglow").Command(float64(colour), vt+d.Loop.Period())
		}
		vt += d.Loop.Period()
		d.Step()
	}
	var lit [1024 * 3]byte
	copy(lit[300:], []byte{0, 255, 128, 0, 255, 128, 0, 255, 128})
	off := func() bool { return buffer() == [1024 * 3]byte{} }
	on := func() bool { return buffer() == lit }
	within := func(what string, n int, ok func() bool) int {
		t.Helper()
		for i := 0; i <= n; i++ {
			if ok() {
				return i
			}
			step()
		}
		buf := buffer()
		calls, _ := f.Calls()
		for _, c := range calls {
			if strings.Contains(c, "LED") {
				t.Log(c)
			}
		}
		t.Fatalf("%s: not within %d cycles (LEDs 100-102 %x; DS %+v)", what, n, buf[300:309], b.DS())
		return 0
	}
	within("off while disabled", 3, off)
	if calls, _ := f.Calls(); !strings.Contains(strings.Join(calls, "\n"), "HAL_InitializeAddressableLED channel=4") {
		t.Error("SmartIO 4 not opened as addressable LEDs")
	}
	f.Set("cw 1 2 0 0 1")
	within("lit once enabled", 3, on)
	for _, c := range []struct{ name, off, on string }{
		{"disabled", "cw 0 2 0 0 1", "cw 1 2 0 0 1"},
		{"the Driver Station stale", "stale 1", "stale 0"},
		{"outputs disabled", "outputs 0", "outputs 1"},
	} {
		f.Set(c.off)
		n := within(c.name+": every LED off", 1, off)
		t.Logf("%s: every LED off after %d cycle(s)", c.name, n)
		f.Set(c.on)
		within(c.name+": lit again", 3, on)
	}
	// A stale command (none for longer than command_timeout).
	fresh = false
	within("a stale command: every LED off", 60, off)
	fresh = true
	within("lit again", 3, on)
	f.Set("cw 1 2 1 0 1")
	within("e-stopped: every LED off", 1, off)
	f.Set("cw 1 2 0 0 1")
	for range 10 {
		step()
		if !off() {
			t.Fatal("e-stop did not latch: LEDs lit")
		}
	}
	d.Halt()
	if err := b.Close(); err != nil {
		t.Error(err)
	}
	if !off() {
		t.Error("LEDs lit after Close")
	}
}
