package config_test

import (
	"strings"
	"testing"

	. "github.com/frcd/frcd/config"
)

// The op_modes: section: names per robot mode, read in order; every bad
// name found with its position, all at once.
func TestOpModesSection(t *testing.T) {
	const head = "joints:\n  - {name: arm, type: talon, id: 3}\n"
	f, list := Parse("r.yaml", []byte(head+"op_modes:\n  autonomous: [Two Piece, Taxi]\n  teleop: [Drive]\n"))
	if len(list) != 0 {
		t.Fatalf("findings: %v", list)
	}
	if got := f.OpModes.List("autonomous"); strings.Join(got, "|") != "Two Piece|Taxi" {
		t.Errorf("autonomous: %q", got)
	}
	if got := f.OpModes.List("test"); len(got) != 0 {
		t.Errorf("test: %q", got)
	}
	long := strings.Repeat("x", MaxOpModeName+1)
	got := findings(t, head+"op_modes:\n  autonomous: [Taxi, Taxi]\n  teleop: ['', ' Drive', \"a\\tb\", "+long+"]\n  tset: [x]\n")
	want := []string{
		`r.yaml:4:22: error: op_modes: autonomous: "Taxi" is listed twice (first at line 4)`,
		`r.yaml:5:11: error: op_modes: teleop: " Drive" starts or ends with spaces`,
		`r.yaml:5:11: error: op_modes: teleop: "a\tb" has control characters`,
		`r.yaml:5:11: error: op_modes: teleop: "` + long + `" is 65 bytes, 64 is the limit`,
		`r.yaml:5:11: error: op_modes: teleop: an op mode's name is blank`,
		`r.yaml:6:3: error: op_modes: unknown key "tset" for type op_modes (did you mean "test"?)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	if Describable("op_modes") == nil {
		t.Error("frcd describe op_modes: unknown")
	}
}
