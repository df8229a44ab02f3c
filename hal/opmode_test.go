package hal

import "testing"

// Op mode ids as WPILib 2027 lays them out: the robot mode (HAL_RobotMode
// 1 autonomous, 2 teleoperated, 3 utility) in bits 56-57, a nonzero hash
// below; one name in two modes gets two ids; the control word's op mode
// is its bits 0-57, none when the hash bits are 0.
func TestOpModeIDs(t *testing.T) {
	ops := NewOpModes([]Mode{Autonomous, Teleop, Test, Autonomous}, []string{"Drive", "Drive", "Drive", "Taxi"})
	seen := map[int64]bool{}
	for i, want := range []int64{1, 2, 3, 1} {
		id := ops[i].ID
		if id>>56 != want || id&opModeHashMask == 0 || seen[id] {
			t.Errorf("op mode %d: id %#x, want robot mode %d above a nonzero hash, unique", i, id, want)
		}
		seen[id] = true
		if OpModeMode(id) != ops[i].Mode || ops.Name(id) != ops[i].Name {
			t.Errorf("op mode %d: id %#x reads back as %v %q", i, id, OpModeMode(id), ops.Name(id))
		}
	}
	if o, ok := ops.Find(Test, "Drive"); !ok || o.ID != ops[2].ID {
		t.Errorf("Find(Test, Drive) = %+v, %v", o, ok)
	}
	if _, ok := ops.Find(Test, "Taxi"); ok {
		t.Error("Find(Test, Taxi) found an autonomous op mode")
	}
	if got := ops.Of(Autonomous); len(got) != 2 || got[0] != "Drive" || got[1] != "Taxi" {
		t.Errorf("Of(Autonomous) = %q", got)
	}
	// A control word: enabled and DS attached bits above the id.
	word := ops[3].ID | 1<<58 | 1<<61
	if got := ControlWordOpMode(word); got != ops[3].ID {
		t.Errorf("ControlWordOpMode(%#x) = %#x, want %#x", word, got, ops[3].ID)
	}
	if got := ControlWordOpMode(1<<56 | 1<<58); got != 0 {
		t.Errorf("a word with no hash: op mode %#x, want 0", got)
	}
	if ops.Name(0) != "" {
		t.Error("id 0 has a name")
	}
}
