package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/frcd/frcd/diag"
)

// The names of the controller types that device types name as a Role
// (Facts.Roles: the controller that commands them). Each type is declared
// in its own file in control/, which registers it (RegisterController).
const (
	JointStateController     = "joint_state_controller/JointStateController"
	JointVoltageController   = "voltage_controllers/JointVoltageController"
	JointGroupVoltage        = "voltage_controllers/JointGroupVoltageController"
	JointPositionController  = "effort_controllers/JointPositionController"
	JointVelocityController  = "effort_controllers/JointVelocityController"
	JointEffortController    = "effort_controllers/JointEffortController"
	ServoPositionController  = "position_controllers/JointPositionController"
	SolenoidController       = "frcd_controllers/SolenoidController"
	DoubleSolenoidController = "frcd_controllers/DoubleSolenoidController"
	RelayController          = "frcd_controllers/RelayController"
	DigitalOutputController  = "frcd_controllers/DigitalOutputController"
	CompressorController     = "frcd_controllers/CompressorController"
	AnalogOutputController   = "frcd_controllers/AnalogOutputController"
	LEDColorController       = "frcd_controllers/LEDColorController"
)

// ProfiledPositionController is the type name of frcd's profiled position
// controller (WPILib's ProfiledPIDController).
const ProfiledPositionController = "frcd_controllers/ProfiledPositionController"

// ControllerJointKey is a controller's `joint` key, naming a device of
// one of the roles refs.
func ControllerJointKey(doc string, refs ...Role) Key {
	return Key{Name: "joint", Kind: String, Required: true, Ref: refs, Doc: doc}
}

// ControllerTimeoutKey is a controller's `timeout`, when its commands
// expire after the loop's command_timeout by default.
var ControllerTimeoutKey = Key{Name: "timeout", Kind: Float, HasRange: true, Min: 0.001, Max: 60, Unit: "s",
	DefaultDoc: "loop's command_timeout", Doc: "How long a command holds before the output goes neutral."}

// SpeedRef refers to speed controllers: what a voltage, position,
// velocity or effort controller and a drivetrain's wheels name.
var SpeedRef = []Role{SpeedControllerRole}

// PIDKeys are a PID controller's `pid:` gains (as control_toolbox names
// them) and its output limit; feedforward names the unit of the command
// pid.f multiplies, "" for no pid.f.
func PIDKeys(feedforward string) []Key {
	keys := []Key{
		{Name: "pid.p", Kind: Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "V per unit of error", Doc: "Proportional gain."},
		{Name: "pid.i", Kind: Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "V per unit·s", Doc: "Integral gain."},
		{Name: "pid.d", Kind: Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "V per unit/s", Doc: "Derivative gain (on the measurement, so a step in the command does not kick)."},
		{Name: "pid.i_clamp", Kind: Float, HasRange: true, Min: 0, Max: 24, Unit: "V", DefaultDoc: "max_voltage", Doc: "The largest voltage the integral term may contribute."},
	}
	if feedforward != "" {
		keys = append(keys, Key{Name: "pid.f", Kind: Float, Default: 0.0, HasRange: true, Min: -1e6, Max: 1e6, Unit: "V per " + feedforward, Doc: "Feedforward gain: volts per unit of command."})
	}
	return append(keys, Key{Name: "max_voltage", Kind: Float, Default: 12.0, HasRange: true, Min: 0.1, Max: 24, Unit: "V", Doc: "The output limit."})
}

// JointControllerType declares a controller type of one joint (`joint`
// and `timeout` keys, then extra), checked by CheckController.
func JointControllerType(name, summary, doc string, facts ControllerFacts, joint Key, extra ...Key) *Type {
	return &Type{Name: name, Group: "controller", Class: "-", Summary: summary, Doc: doc, Place: YAMLOnly,
		Keys: append([]Key{joint, ControllerTimeoutKey}, extra...), Check: CheckController, Facts: Facts{Controller: &facts}}
}

// controllerTypes are the registered controller types, in registration
// order (the order of the docs): each control/ file registers its own
// (RegisterController).
var controllerTypes []*Type

// controllerTypeMap is controllerTypes by name.
var controllerTypeMap = map[string]*Type{}

// RegisterController adds a controller type. Its file in control/ calls
// it, through control.MustRegister, from a one-line init; a duplicate or
// unnamed type, or one without ControllerFacts, panics (a programming
// error, found by any test).
func RegisterController(t *Type) {
	switch {
	case t == nil || t.Name == "":
		panic("config: a controller type needs a name")
	case controllerTypeMap[t.Name] != nil || types[t.Name] != nil:
		panic(fmt.Sprintf("config: controller type %q registered twice", t.Name))
	case t.Controller == nil:
		panic(fmt.Sprintf("config: controller type %q: no ControllerFacts", t.Name))
	}
	t.Group, t.Class, t.Place = "controller", "-", YAMLOnly
	controllerTypes = append(controllerTypes, t)
	controllerTypeMap[t.Name] = t
}

// LookupController returns the controller type of that name, or nil.
func LookupController(name string) *Type { return controllerTypeMap[name] }

// ControllerTypes returns the controller types in the order of the docs.
func ControllerTypes() []*Type { return append([]*Type(nil), controllerTypes...) }

// ControllerTypeNames returns the controller types' names, sorted.
func ControllerTypeNames() []string {
	names := make([]string, 0, len(controllerTypes))
	for _, t := range controllerTypes {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	return names
}

// ROS2ControllerType is the name ROS 2's controller_manager reports for
// the controller type of that name: ros2_controllers' type doing the
// same job (ControllerFacts.ROS2Type), else the name itself.
func ROS2ControllerType(name string) string {
	if t := controllerTypeMap[name]; t != nil && t.Controller.ROS2Type != "" {
		return t.Controller.ROS2Type
	}
	return name
}

// ROS2ControllerTypeNames returns the controller types' names as ROS 2's
// controller_manager reports them (ROS2ControllerType), sorted, each
// once.
func ROS2ControllerTypeNames() []string {
	seen := map[string]bool{}
	names := make([]string, 0, len(controllerTypes))
	for _, t := range controllerTypes {
		n := ROS2ControllerType(t.Name)
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// controllerWords maps the words people write for a controller type
// (ControllerFacts.Hints) to its name, plus, for each controller, the
// names of the device types it commands (Facts.Roles): a servo's type name
// finds the servo's position controller.
func controllerWords() map[string]string {
	words := map[string]string{}
	for _, c := range controllerTypes {
		for _, w := range c.Controller.Hints {
			words[w] = c.Name
		}
	}
	for _, c := range controllerTypes {
		for _, name := range TypesWhere(func(t *Type) bool { return !t.Speed && t.Is(Role(c.Name)) }) {
			if _, taken := words[name]; !taken {
				words[name] = c.Name
			}
		}
	}
	return words
}

// controllerHint suggests a controller type for a short or misspelt word:
// "position" or "JointPositionControler" finds its full name.
func controllerHint(name string) string {
	word := strings.ToLower(name)
	if i := strings.LastIndexByte(word, '/'); i >= 0 {
		word = word[i+1:]
	}
	word = strings.TrimSuffix(strings.TrimPrefix(word, "joint"), "controller")
	word = strings.Trim(word, "_")
	short := controllerWords()
	if full, ok := short[word]; ok {
		return ` (did you mean "` + full + `"?)`
	}
	var words []string
	for w := range short {
		words = append(words, w)
	}
	sort.Strings(words)
	if s := diag.Suggest(word, words); s != "" {
		return ` (did you mean "` + short[s] + `"?)`
	}
	var tails []string
	byTail := map[string]string{}
	for _, t := range controllerTypes {
		tail := strings.ToLower(t.Name[strings.LastIndexByte(t.Name, '/')+1:])
		tails = append(tails, tail)
		byTail[tail] = t.Name
	}
	if s := diag.Suggest(strings.ToLower(name[strings.LastIndexByte(name, '/')+1:]), tails); s != "" {
		return ` (did you mean "` + byTail[s] + `"?)`
	}
	return ""
}

// CheckStateController allows one joint state controller.
func CheckStateController(d *Device, c *Checker) {
	c.Once(d, "joint state controller", d.TypePos)
}

// CheckController claims the controller's joints (one controller per
// joint) and checks its gains.
func CheckController(d *Device, c *Checker) {
	if list, _ := d.Value("joints"); list.Set {
		for i, name := range list.List {
			c.ClaimName(d, ControllerJoint, name, list.ListAt[i])
		}
		return
	}
	target := d.Ref("joint")
	if target == nil {
		return
	}
	c.ClaimName(d, ControllerJoint, target.Name, d.ValuePos("joint"))
	if d.Type.Key("pid.p") == nil {
		return
	}
	if target.ClosesLoop() && d.Type.Controller != nil && d.Type.Controller.DeviceLoop != 0 {
		// The device closes the loop with its own gains (its entry's).
		for _, k := range []string{"pid.p", "pid.i", "pid.d", "pid.f", "pid.i_clamp"} {
			if d.Has(k) {
				c.Warnf(d.KeyPos(k), "%s: %s has no effect: %s closes the loop itself (closed_loop: device) with its own gains", d, k, target)
			}
		}
		return
	}
	if d.Float("pid.p") == 0 && d.Float("pid.i") == 0 && d.Float("pid.f") == 0 {
		want := "{p: ..., i: ..., d: ...}"
		if d.Type.Key("pid.f") != nil {
			want = "{p: ..., i: ..., d: ..., f: ...}"
		}
		c.Errorf(d.Pos, "%s: a PID on %s needs gains: set pid: %s so the roboRIO can drive it", d, target, want)
	}
}
