package hal

import "testing"

func TestJoystickButton(t *testing.T) {
	j := JoystickState{Buttons: 0b1000_0101, NumButtons: 8}
	want := map[int]bool{0: false, 1: true, 2: false, 3: true, 4: false, 8: true, 9: false, 33: false, -1: false}
	for i, w := range want {
		if got := j.Button(i); got != w {
			t.Errorf("Button(%d) = %v, want %v", i, got, w)
		}
	}
	// A bit set beyond NumButtons is not a button.
	j = JoystickState{Buttons: 1 << 5, NumButtons: 4}
	if j.Button(6) {
		t.Error("Button(6) of a 4-button joystick is true")
	}
	j = JoystickState{Buttons: 1 << 31, NumButtons: 32}
	if !j.Button(32) {
		t.Error("Button(32) of a 32-button joystick with bit 31 set is false")
	}
}
