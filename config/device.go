package config

import (
	"fmt"

	"github.com/frcd/frcd/diag"
)

// Value is one key's decoded value.
type Value struct {
	Kind   Kind
	Int    int
	Float  float64
	Bool   bool
	Str    string
	List   []string   // a StringList's names
	ListAt []diag.Pos // where each name is written
	KeyPos diag.Pos   // where the key is written (the entry's position for a default)
	Pos    diag.Pos   // where the value is written (the entry's position for a default)
	Set    bool       // written in the file; false for a default
}

// Device is one entry of the `joints:` list, decoded and checked against
// its Type, with defaults applied.
type Device struct {
	Name     string
	TypeName string
	Type     *Type    // nil when the type is unknown
	Pos      diag.Pos // the entry
	NamePos  diag.Pos
	TypePos  diag.Pos
	values   map[string]Value
	refs     map[string]*Device
	refLists map[string][]*Device
	kind     string // "controller": String names the entry by it, not by its long type; sectionKind: by its name alone
	label    string // an entry with no name: what String calls it ("sim disturbance 2")
	bus      string // CANBus: "" the default bus
}

// sectionKind marks a section decoded as one entry (sim: drivetrain):
// String is its name.
const sectionKind = "section"

// String names the device for messages: `talon "shoulder_joint"`, or
// `controller "arm"`.
func (d *Device) String() string {
	if d.kind == sectionKind {
		return d.Name
	}
	if d.Name == "" && d.label != "" {
		return d.label
	}
	if d.kind != "" {
		return fmt.Sprintf("%s %q", d.kind, d.Name)
	}
	if d.TypeName == "" {
		return fmt.Sprintf("%q", d.Name)
	}
	return fmt.Sprintf("%s %q", d.TypeName, d.Name)
}

// Has reports whether the key is written in the file.
func (d *Device) Has(key string) bool { v, ok := d.values[key]; return ok && v.Set }

// Value returns the key's value, written or default.
func (d *Device) Value(key string) (Value, bool) { v, ok := d.values[key]; return v, ok }

// Int returns an int key's value (written or default), or 0.
func (d *Device) Int(key string) int { return d.values[key].Int }

// Float returns a float key's value (written or default), or 0.
func (d *Device) Float(key string) float64 { return d.values[key].Float }

// Bool returns a bool key's value (written or default), or false.
func (d *Device) Bool(key string) bool { return d.values[key].Bool }

// String returns a string key's value (written or default), or "".
func (d *Device) Str(key string) string { return d.values[key].Str }

// KeyPos is where the key is written, or the entry's position.
func (d *Device) KeyPos(key string) diag.Pos {
	if v, ok := d.values[key]; ok && v.Set {
		return v.KeyPos
	}
	return d.Pos
}

// ValuePos is where the key's value is written, or the entry's position.
func (d *Device) ValuePos(key string) diag.Pos {
	if v, ok := d.values[key]; ok && v.Set {
		return v.Pos
	}
	return d.Pos
}

// Ref returns the device a reference key names (after defaults: a speed
// controller's pdp is the PDP with id 0 when not written), or nil.
func (d *Device) Ref(key string) *Device { return d.refs[key] }

// List returns a StringList key's names, or nil.
func (d *Device) List(key string) []string { return d.values[key].List }

// RefList returns the devices a StringList reference key names, in order,
// or nil when any of them is not a device of the allowed types.
func (d *Device) RefList(key string) []*Device { return d.refLists[key] }
