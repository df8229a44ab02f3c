package config

import (
	"strings"
	"testing"

	"github.com/frcd/frcd/diag"
)

// A CANDevice id is one type's: two devices of one type on one bus may not
// share it, devices of two types may, and so may one type on two buses.
func TestCANDeviceClaimsByType(t *testing.T) {
	a, b := &Type{Name: "enc_a"}, &Type{Name: "enc_b"}
	var list diag.List
	c := &Checker{list: &list, claims: map[claimKey]*Device{}}
	pos := diag.Pos{File: "r.yaml", Line: 3, Col: 5}
	c.Claim(&Device{Name: "x", TypeName: a.Name, Type: a, Pos: pos}, CANDevice, "", 3, pos)
	c.Claim(&Device{Name: "z", TypeName: b.Name, Type: b, Pos: pos}, CANDevice, "", 3, pos)
	c.Claim(&Device{Name: "w", TypeName: a.Name, Type: a, Pos: pos}, CANDevice, "can1", 3, pos)
	if list.Errors() != 0 {
		t.Fatalf("distinct claims refused: %v", list)
	}
	c.Claim(&Device{Name: "y", TypeName: a.Name, Type: a, Pos: pos}, CANDevice, "", 3, pos)
	var out strings.Builder
	list.WriteText(&out)
	if list.Errors() != 1 || !strings.Contains(out.String(), `CAN id 3 of a enc_a is already used by enc_a "x"`) {
		t.Errorf("a shared id of one type: %s", out.String())
	}
}
