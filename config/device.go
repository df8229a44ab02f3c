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
	// values are the keys written in the file, decoded: a few per device,
	// in a slice (a map's buckets cost a file at the size limit ~100 MB).
	values []keyValue
	// noDefault holds the keys with a default that are written but did not
	// decode (or are misspelt as): they take no default. Usually nil.
	noDefault map[string]bool
	refs      []keyRef // few: a slice, as values
	refLists  map[string][]*Device
	kind      string // "controller": String names the entry by it, not by its long type; sectionKind: by its name alone
	label     string // an entry with no name: what String calls it ("sim disturbance 2")
	bus       string // CANBus: "" the default bus
}

// keyValue is a written key and its decoded value.
type keyValue struct {
	key string
	Value
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
func (d *Device) Has(key string) bool { v, ok := d.written(key); return ok && v.Set }

// written returns the value decoded for a key written in the file.
func (d *Device) written(key string) (Value, bool) {
	for i := range d.values {
		if d.values[i].key == key {
			return d.values[i].Value, true
		}
	}
	return Value{}, false
}

// set keeps a written key's decoded value.
func (d *Device) set(key string, v Value) {
	for i := range d.values {
		if d.values[i].key == key {
			d.values[i].Value = v
			return
		}
	}
	d.values = append(d.values, keyValue{key, v})
}

// setRef keeps the device a reference key names.
func (d *Device) setRef(key string, target *Device) {
	for i := range d.refs {
		if d.refs[i].key == key {
			d.refs[i].target = target
			return
		}
	}
	d.refs = append(d.refs, keyRef{key, target})
}

// keyRef is a reference key and the device it names.
type keyRef struct {
	key    string
	target *Device
}

// Value returns the key's value, written or default. A default is made
// from the type's table when asked for, not stored per device: a file at
// the size limit holds some 190k devices with a few dozen defaults each.
func (d *Device) Value(key string) (Value, bool) {
	if v, ok := d.written(key); ok {
		return v, true
	}
	if d.Type == nil || d.noDefault[key] {
		return Value{}, false
	}
	k := d.Type.Key(key)
	if k == nil || k.Default == nil {
		return Value{}, false
	}
	return defaultValue(*k, d.Pos), true
}

// Int returns an int key's value (written or default), or 0.
func (d *Device) Int(key string) int { v, _ := d.Value(key); return v.Int }

// Float returns a float key's value (written or default), or 0.
func (d *Device) Float(key string) float64 { v, _ := d.Value(key); return v.Float }

// Bool returns a bool key's value (written or default), or false.
func (d *Device) Bool(key string) bool { v, _ := d.Value(key); return v.Bool }

// String returns a string key's value (written or default), or "".
func (d *Device) Str(key string) string { v, _ := d.Value(key); return v.Str }

// KeyPos is where the key is written, or the entry's position.
func (d *Device) KeyPos(key string) diag.Pos {
	if v, ok := d.written(key); ok && v.Set {
		return v.KeyPos
	}
	return d.Pos
}

// ValuePos is where the key's value is written, or the entry's position.
func (d *Device) ValuePos(key string) diag.Pos {
	if v, ok := d.written(key); ok && v.Set {
		return v.Pos
	}
	return d.Pos
}

// Ref returns the device a reference key names (after defaults: a speed
// controller's pdp is the PDP with id 0 when not written), or nil.
func (d *Device) Ref(key string) *Device {
	for _, r := range d.refs {
		if r.key == key {
			return r.target
		}
	}
	return nil
}

// List returns a StringList key's names, or nil.
func (d *Device) List(key string) []string { v, _ := d.Value(key); return v.List }

// RefList returns the devices a StringList reference key names, in order,
// or nil when any of them is not a device of the allowed types.
func (d *Device) RefList(key string) []*Device { return d.refLists[key] }
