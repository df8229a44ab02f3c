package config

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Kind is the YAML type of a key's value.
type Kind int

const (
	Int Kind = iota
	Float
	Bool
	String
	// StringList is a list of names (a group controller's joints).
	StringList
)

func (k Kind) String() string {
	switch k {
	case Int:
		return "int"
	case Float:
		return "float"
	case Bool:
		return "bool"
	case StringList:
		return "[string]"
	default:
		return "string"
	}
}

// article names a kind for messages: "an integer", "a number"...
func (k Kind) article() string {
	switch k {
	case Int:
		return "an integer"
	case Float:
		return "a number"
	case Bool:
		return "true or false"
	case StringList:
		return "a list of names"
	default:
		return "a string"
	}
}

// Resource is a kind of hardware channel that a key claims. Two devices may
// not claim the same channel of the same resource (within the same scope: a
// PCM channel is per pcm_id, a PDP channel per PDP).
type Resource int

const (
	NoResource    Resource = iota
	PWM                    // roboRIO PWM header, 0-9 onboard, 10-19 on the MXP
	DIO                    // roboRIO DIO, 0-9 onboard, 10-25 on the MXP
	AnalogIn               // roboRIO analog input, 0-3 onboard, 4-7 on the MXP
	AnalogOut              // roboRIO analog output (MXP), 0-1
	RelayChannel           // roboRIO relay header, 0-3
	PCMChannel             // solenoid channel on one PCM (0-7) or PH (0-15), scoped by the module
	PDPChannel             // PDP (0-15) or PDH (0-23) current channel, scoped by the PDP
	CANMotor               // CAN id of a CTRE motor controller (Talon SRX, Victor SPX), scoped by can_bus
	CANGyro                // CAN id of a CTRE Pigeon IMU, scoped by can_bus
	CANPower               // CAN id of a power distribution panel or hub, scoped by can_bus
	CANPneumatics          // CAN id of a REV Pneumatic Hub entry, scoped by can_bus
	// CANDevice is the CAN id of a device of a type with an id space of
	// its own (its FRC device type and manufacturer), scoped by can_bus:
	// two devices of one type may not share it, devices of two types may.
	CANDevice
	PCMCompressor   // the one compressor output of a PCM or PH, scoped by the module
	NavXPort        // the SPI, I2C or serial port a navX sits on
	ControllerJoint // a joint's command interfaces, claimed by one controller
	onceOnly        // something a file has at most one of
)

type resourceInfo struct {
	what     string // for messages: "PWM channel"
	min, max int
}

var resources = map[Resource]resourceInfo{
	PWM:             {"PWM channel", 0, 19},
	DIO:             {"DIO channel", 0, 25},
	AnalogIn:        {"analog input channel", 0, 7},
	AnalogOut:       {"analog output channel", 0, 1},
	RelayChannel:    {"relay channel", 0, 3},
	PCMChannel:      {"pneumatics channel", 0, 15},
	PDPChannel:      {"PDP channel", 0, 23},
	CANMotor:        {"CAN id (motor controllers)", 0, 62},
	CANGyro:         {"CAN id (Pigeon IMUs)", 0, 62},
	CANPower:        {"CAN id (power distribution)", 0, 62},
	CANPneumatics:   {"CAN id (pneumatics hubs)", 0, 62},
	CANDevice:       {"CAN id", 0, 62},
	PCMCompressor:   {"PCM compressor output", 0, 62},
	NavXPort:        {"navX port", 0, 4},
	ControllerJoint: {"joint", 0, 0},
}

// String names the resource for messages, e.g. "PWM channel".
func (r Resource) String() string { return resources[r].what }

// Range is the valid channel range of a resource.
func (r Resource) Range() (min, max int) { i := resources[r]; return i.min, i.max }

// Place says what a device's name must refer to in the URDF.
type Place int

const (
	// YAMLOnly devices (pdp, compressor) have no URDF element.
	YAMLOnly Place = iota
	// DrivesJoint devices are actuators named after the URDF joint they drive.
	DrivesJoint
	// JointSensor devices are named after a URDF <sensor>; it measures the
	// joint it sits in, or senses the environment from a link.
	JointSensor
	// LinkSensor devices (IMUs) are named after a URDF <sensor> that sits in
	// a link; they cannot measure a joint.
	LinkSensor
	// Output devices drive a URDF joint when their name is one; otherwise
	// they are standalone outputs (an LED) and get no joint state.
	Output
)

// Provides says which JointState fields a device fills for its joint.
type Provides uint8

const (
	Position Provides = 1 << iota
	Velocity
	Effort
)

// Key describes one YAML key of a device type. The table of Keys of a Type
// is the single source of truth for decoding, validation, `frcd describe`,
// docs/devices.md and the JSON Schema.
type Key struct {
	Name     string
	Kind     Kind
	Required bool
	// Default is the value used when the key is absent: an int, float64,
	// bool or string matching Kind, or nil for "no default".
	Default any
	// DefaultDoc describes a default that is not a constant (e.g. "the PDP
	// with id 0"); it is used instead of Default in docs.
	DefaultDoc string
	// Min and Max bound numeric values when HasRange is set.
	Min, Max float64
	HasRange bool
	// NonZero refuses 0 for numbers.
	NonZero bool
	// Enum lists the allowed values (as strings for string keys; ints are
	// written in decimal).
	Enum []string
	// Resource is the hardware channel this key claims; its range applies.
	Resource Resource
	// Scope names the key whose value scopes the resource (pcm_id for a
	// PCM channel), "" for a global resource.
	Scope string
	// Ref lists the roles (Role) of the device types a string key may
	// name: any registered type with one of them. A role is a fact a type
	// declares, never a type's name, so a new type is found by the keys
	// that refer to its kind.
	Ref []Role
	// Unit of a numeric value, for docs: "rad", "m", "s"...
	Unit string
	Doc  string
}

// Type describes one device type of the YAML `joints:` list.
type Type struct {
	Name    string // the YAML `type`, snake_case WPILib class name
	Class   string // the WPILib or vendor class
	Group   string // "sensor", "actuator", "speed controller", "special"
	Summary string // one line
	Doc     string // what state and command handles it has, how it merges
	Place   Place
	// OptionalName makes the entries' name an optional label.
	OptionalName bool
	// Provides lists the JointState fields the device fills for its joint.
	Provides Provides
	Keys     []Key
	// Example is a YAML entry for docs; when empty one is made from the
	// required keys.
	Example string
	// Aliases are other names files use for the type (frc_control's
	// can_talon_srx): read as the type, with a note naming it.
	Aliases []string
	// Schema adds JSON Schema keywords to the type's schema (e.g. oneOf).
	Schema map[string]any
	// Check runs type-specific rules after the keys decoded (e.g. "id xor
	// talon"). It may add findings and claim resources.
	Check func(d *Device, c *Checker)

	// Facts are what the other layers read about the type instead of
	// switching on its name (facts.go).
	Facts
}

// Key returns the key of that name, or nil.
func (t *Type) Key(name string) *Key {
	for i := range t.Keys {
		if t.Keys[i].Name == name {
			return &t.Keys[i]
		}
	}
	return nil
}

// KeyNames lists the type's keys, name and type first. A nested mapping's
// keys ("pid.p") are listed once, by the mapping's name ("pid").
func (t *Type) KeyNames() []string {
	names := []string{"name", "type"}
	for _, k := range t.Keys {
		n, _, nested := strings.Cut(k.Name, ".")
		if nested && slices.Contains(names, n) {
			continue
		}
		names = append(names, n)
	}
	return names
}

// SubKeys returns the keys nested under a mapping key ("pid" gives pid.p,
// pid.i...), with their full names, or nil when the type has none.
func (t *Type) SubKeys(group string) []Key {
	var out []Key
	for _, k := range t.Keys {
		if strings.HasPrefix(k.Name, group+".") {
			out = append(out, k)
		}
	}
	return out
}

// types is every registered device type, keyed by name: each devices/
// file registers its own (Register).
var types = map[string]*Type{}

// Register adds a device type. Its driver's file calls it, through
// devices.MustRegister, from a one-line init; a duplicate, unnamed or
// ungrouped type panics (a programming error, found by any test).
func Register(t *Type) {
	switch {
	case t == nil || t.Name == "":
		panic("config: a device type needs a name")
	case types[t.Name] != nil:
		panic(fmt.Sprintf("config: device type %q registered twice", t.Name))
	case groupOrder(t.Group) > 3:
		panic(fmt.Sprintf("config: device type %q: unknown group %q", t.Name, t.Group))
	}
	types[t.Name] = t
	for _, a := range t.Aliases {
		if types[a] != nil || aliases[a] != nil {
			panic(fmt.Sprintf("config: alias %q of device type %q is taken", a, t.Name))
		}
		aliases[a] = t
	}
	if t.Power != nil {
		addPower(t)
	}
}

// aliases are the types by their other names (Type.Aliases).
var aliases = map[string]*Type{}

// Lookup returns the device type of that name, or nil.
func Lookup(name string) *Type { return types[name] }

// Types returns every device type, sorted by group then name.
func Types() []*Type {
	out := make([]*Type, 0, len(types))
	for _, t := range types {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool {
		if gi, gj := groupOrder(out[i].Group), groupOrder(out[j].Group); gi != gj {
			return gi < gj
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// TypeNames returns every device type's name, sorted.
func TypeNames() []string {
	names := make([]string, 0, len(types))
	for n := range types {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func groupOrder(g string) int {
	switch g {
	case "sensor":
		return 0
	case "actuator":
		return 1
	case "speed controller":
		return 2
	case "special":
		return 3
	default:
		return 4
	}
}
