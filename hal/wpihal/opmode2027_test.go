//go:build cgo && systemcore && !roborio

package wpihal

import (
	"strings"
	"testing"

	"github.com/frcd/frcd/hal"
)

// Op modes through the 2027 HAL: registered with HAL_SetOpModeOptions
// (ids with the robot mode in bits 56-57, names as passed, no group or
// description, default colours), the one the fake Driver Station selects
// read back from the control word, in the robot mode it belongs to; none
// while the DS selects nothing or is detached; cleared with no options.
func TestOpModes2027(t *testing.T) {
	f := open(t, "cw 1 2 0 0 1")
	f.calls()
	ops := hal.NewOpModes([]hal.Mode{hal.Autonomous, hal.Autonomous, hal.Teleop, hal.Test},
		[]string{"Two Piece", "Taxi", "Drive", "Pit Check"})
	if err := f.b.SetOpModes(ops); err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_SetOpModeOptions count=4 [mode=1 Two Piece group=0 desc=0 colours=-1,-1] [mode=1 Taxi group=0 desc=0 colours=-1,-1]" +
		" [mode=2 Drive group=0 desc=0 colours=-1,-1] [mode=3 Pit Check group=0 desc=0 colours=-1,-1]")
	if ds := f.b.DS(); ds.OpMode != 0 {
		t.Errorf("nothing selected: op mode %#x", ds.OpMode)
	}
	for _, c := range []struct {
		in   string
		name string
		mode hal.Mode
	}{
		{"opmode Taxi", "Taxi", hal.Autonomous},
		{"opmode Pit Check", "Pit Check", hal.Test},
		{"opmode Drive", "Drive", hal.Teleop},
		{"opmode Nothing", "", hal.Teleop}, // not registered: none
	} {
		f.set(c.in)
		ds := f.b.DS()
		if got := ops.Name(ds.OpMode); got != c.name || ds.Mode != c.mode || !ds.Enabled {
			t.Errorf("%s: op mode %#x (%q), mode %v, enabled %v; want %q in %v, enabled", c.in, ds.OpMode, got, ds.Mode, ds.Enabled, c.name, c.mode)
		}
	}
	f.set("opmode Two Piece", "cw 1 2 0 0 0") // the DS detached
	if ds := f.b.DS(); ds.OpMode != 0 {
		t.Errorf("detached: op mode %#x", ds.OpMode)
	}
	f.set("cw 1 2 0 0 1")
	if ds := f.b.DS(); ops.Name(ds.OpMode) != "Two Piece" {
		t.Errorf("attached again: op mode %#x", ds.OpMode)
	}
	f.calls()
	if err := f.b.SetOpModes(nil); err != nil {
		t.Fatal(err)
	}
	f.expect("HAL_SetOpModeOptions count=0")
	if ds := f.b.DS(); ds.OpMode != 0 {
		t.Errorf("cleared: op mode %#x", ds.OpMode)
	}
	f.set("fail HAL_SetOpModeOptions -1028")
	if err := f.b.SetOpModes(ops); err == nil || !strings.Contains(err.Error(), "HAL_SetOpModeOptions") {
		t.Errorf("a failed call: %v", err)
	}
}
