package devices

import (
	"bytes"
	"strings"
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

// An addressable_led lights every LED in the commanded 0xRRGGBB colour,
// writes only when the colour changes, turns them off for no command, a
// command that is not a colour, and Halt (disable, e-stop, stale DS or
// command, shutdown), and opens its window in the order given.
func TestAddressableLED(t *testing.T) {
	r := bind(t, "joints:\n  - {name: strip, type: addressable_led, dio_channel: 2, length: 3, start: 5, color_order: rgb}\n")
	out := &r.hal.AddressableLED[2]
	if !r.hal.IsOpen("dio", 2) || out.Start != 5 || out.Length != 3 || out.Order != hal.LEDRGB {
		t.Fatalf("opened %+v", out)
	}
	cmd := command[float64](r, "strip", interfaces.Analog)
	val := state[interfaces.AnalogState](r, "strip", interfaces.Analog)
	off := make([]byte, 9)
	for _, tc := range []struct {
		name string
		set  bool
		cmd  float64
		want []byte
	}{
		{"unset: off", false, 0, off},
		{"red", true, 0xFF0000, []byte{255, 0, 0, 255, 0, 0, 255, 0, 0}},
		{"0x102030", true, 0x102030, []byte{16, 32, 48, 16, 32, 48, 16, 32, 48}},
		{"NaN: off", true, nan, off},
		{"-1: off", true, -1, off},
		{"past 0xFFFFFF: off", true, 0x1000000, off},
		{"not whole: off", true, 255.5, off},
		{"blue", true, 255, []byte{0, 0, 255, 0, 0, 255, 0, 0, 255}},
	} {
		cmd.Reset()
		if tc.set {
			cmd.Put(tc.cmd, r.now)
		}
		r.cycle()
		if !bytes.Equal(out.RGB, tc.want) || val.Value != float64(int(tc.want[0])<<16|int(tc.want[1])<<8|int(tc.want[2])) {
			t.Errorf("%s: LEDs %v, state %v; want %v", tc.name, out.RGB, val.Value, tc.want)
		}
	}
	n := out.Writes
	r.cycle()
	if out.Writes != n {
		t.Errorf("the same colour written again: %d writes, want %d", out.Writes, n)
	}
	r.halt()
	if !bytes.Equal(out.RGB, off) || val.Value != 0 || out.Writes != n+1 {
		t.Errorf("after Halt: %v, state %v, %d writes", out.RGB, val.Value, out.Writes-n)
	}
	r.halt() // always written off, even when off already
	if out.Writes != n+2 {
		t.Errorf("a second Halt did not write the LEDs off")
	}
	// Written again after a Halt, though the command is the same.
	r.cycle()
	if !bytes.Equal(out.RGB, []byte{0, 0, 255, 0, 0, 255, 0, 0, 255}) {
		t.Errorf("after Halt and a cycle: %v", out.RGB)
	}
}

// The window must fit the buffer; the order must be one the HAL has; the
// default order is WS2812B's.
func TestAddressableLEDKeys(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"{name: s, type: addressable_led, dio_channel: 0, length: 30, start: 1000}", "beyond the 1024 LEDs"},
		{"{name: s, type: addressable_led, dio_channel: 0, length: 1025}", "length"},
		{"{name: s, type: addressable_led, dio_channel: 0, length: 3, color_order: rgbw}", "color_order"},
	} {
		if _, err := tryBind("joints:\n  - " + c.yaml + "\n"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", c.yaml, err, c.want)
		}
	}
	// Two strings over the same LEDs would repaint each other: refused
	// at the second string's start, naming the first; windows that only
	// touch are fine.
	two := func(a, b string) string {
		return "joints:\n  - {name: a, type: addressable_led, dio_channel: 0, " + a + "}\n  - {name: b, type: addressable_led, dio_channel: 1, " + b + "}\n"
	}
	for _, c := range [][2]string{{"length: 30", "start: 29, length: 10"}, {"start: 100, length: 10", "start: 50, length: 51"}, {"start: 5, length: 1", "length: 1024"}} {
		if _, err := tryBind(two(c[0], c[1])); err == nil || !strings.Contains(err.Error(), `overlap those of addressable_led "a"`) {
			t.Errorf("%v: %v, want the overlap refused", c, err)
		}
	}
	if _, err := tryBind(two("length: 30", "start: 30, length: 994")); err != nil {
		t.Errorf("windows that touch: %v", err)
	}
	r := bind(t, "joints:\n  - {name: s, type: addressable_led, dio_channel: 1, length: 4}\n")
	if l := r.hal.AddressableLED[1]; l.Start != 0 || l.Order != hal.LEDGRB {
		t.Errorf("defaults: start %d, order %v; want 0, grb", l.Start, l.Order)
	}
}
