package ros2bridge

import (
	"slices"
	"testing"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/internal/bounds"
)

// writeSwitch encodes a SwitchController request in Jazzy's layout, or
// Humble's with the controllers as its activate_ and
// deactivate_controllers and none deprecated.
func writeSwitch(activate, deactivate []string, strictness int32, humble bool) []byte {
	var e cdr.Encoder
	e.Reset(nil, cdr.CDRLE)
	e.Strings(activate)
	e.Strings(deactivate)
	if humble {
		e.Strings(nil)
		e.Strings(nil)
	}
	e.Int32(strictness)
	if humble {
		e.Bool(false)
	}
	e.Bool(true)
	e.Int32(1)
	e.Uint32(0)
	return e.Bytes()
}

// FuzzReadSwitch: no switch_controller request, in either layout, makes
// readSwitch panic or take more than bounds.Slow, and what it reads
// re-encodes to a request it reads the same.
func FuzzReadSwitch(f *testing.F) {
	f.Add(writeSwitch([]string{"a"}, []string{"b", "c"}, 2, false), false)
	f.Add(writeSwitch(nil, []string{"turret_position"}, 1, true), true)
	f.Add([]byte{0, 1, 0, 0, 0xff, 0xff, 0xff, 0x7f}, true)
	f.Fuzz(func(t *testing.T, b []byte, humble bool) {
		defer bounds.Slow(t)()
		d, err := cdr.NewDecoder(b)
		if err != nil {
			return
		}
		act, deact, strict, err := readSwitch(d, humble)
		if err != nil {
			return
		}
		d2, err := cdr.NewDecoder(writeSwitch(act, deact, strict, humble))
		if err != nil {
			t.Fatal(err)
		}
		act2, deact2, strict2, err := readSwitch(d2, humble)
		if err != nil || !slices.Equal(act, act2) || !slices.Equal(deact, deact2) || strict != strict2 {
			t.Fatalf("%v %v %d re-read as %v %v %d: %v", act, deact, strict, act2, deact2, strict2, err)
		}
	})
}

// TestReadSwitchHumble: Humble's deprecated start_ and stop_controllers
// are added to activate_ and deactivate_controllers.
func TestReadSwitchHumble(t *testing.T) {
	var e cdr.Encoder
	e.Reset(nil, cdr.CDRLE)
	e.Strings([]string{"a"})
	e.Strings([]string{"b"})
	e.Strings([]string{"c"})
	e.Strings([]string{"d", "e"})
	e.Int32(2)
	e.Bool(true)
	e.Bool(false)
	e.Int32(0)
	e.Uint32(5)
	d, err := cdr.NewDecoder(e.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	act, deact, strict, err := readSwitch(d, true)
	if err != nil || !slices.Equal(act, []string{"a", "c"}) || !slices.Equal(deact, []string{"b", "d", "e"}) || strict != 2 || d.Remaining() != 0 {
		t.Fatalf("%v %v %d %v, %d left", act, deact, strict, err, d.Remaining())
	}
}
