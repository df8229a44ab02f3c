package wire

import (
	"testing"

	"github.com/tinylib/msgp/msgp"
)

// Text reads a string value, and only a string value.
func TestValueText(t *testing.T) {
	raw := msgp.AppendString(nil, "2027test")
	if s, ok := (Value{Type: TypeString, Raw: raw}).Text(); !ok || s != "2027test" {
		t.Errorf("string: %q, %v", s, ok)
	}
	if s, ok := (Value{Type: TypeRaw, Raw: raw}).Text(); ok {
		t.Errorf("a raw value read as the string %q", s)
	}
	if s, ok := (Value{Type: TypeString, Raw: msgp.AppendFloat64(nil, 1)}).Text(); ok {
		t.Errorf("a double read as the string %q", s)
	}
}
