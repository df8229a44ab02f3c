package config

import (
	"sort"
	"strings"

	"github.com/frcd/frcd/diag"
)

// The controller type names. Each is also the Role of the device types
// it commands (Facts.Roles).
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
)

// ProfiledPositionController is the type name of frcd's profiled position
// controller (WPILib's ProfiledPIDController).
const ProfiledPositionController = "frcd_controllers/ProfiledPositionController"

func controllerJointKey(doc string, refs ...Role) Key {
	return Key{Name: "joint", Kind: String, Required: true, Ref: refs, Doc: doc}
}

var controllerTimeoutKey = Key{Name: "timeout", Kind: Float, HasRange: true, Min: 0.001, Max: 60, Unit: "s",
	DefaultDoc: "loop's command_timeout", Doc: "How long a command holds before the output goes neutral."}

// speedRef refers to speed controllers: what a voltage, position,
// velocity or effort controller and a drivetrain's wheels name.
var speedRef = []Role{SpeedControllerRole}

// pidKeys are a PID controller's `pid:` gains (as control_toolbox names
// them) and its output limit.
func pidKeys(feedforward string) []Key {
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

func controllerType(name, summary, doc string, joint Key, extra ...Key) *Type {
	return &Type{Name: name, Group: "controller", Class: "-", Summary: summary, Doc: doc, Place: YAMLOnly,
		Keys: append([]Key{joint, controllerTimeoutKey}, extra...), Check: checkController}
}

var controllerTypes = []*Type{
	{Name: JointStateController, Group: "controller", Class: "-", Place: YAMLOnly, Check: checkStateController,
		Summary: "Publishes every measured joint on /joint_states, with the IMUs, PDPs and compressors.",
		Doc: "ros_controllers' joint state controller. frcd publishes /joint_states (sensor_msgs/JointState), /NAME/imu " +
			"(sensor_msgs/Imu) per IMU, /NAME/battery (sensor_msgs/BatteryState) and /NAME/currents (std_msgs/Float64MultiArray) " +
			"per PDP, and /NAME/state (frcd's CompressorState) per compressor at publish_rate; without this controller, at " +
			"the default rate. At most one.",
		Keys: []Key{{Name: "publish_rate", Kind: Float, HasRange: true, Min: 0.1, Max: 1000, Unit: "Hz",
			DefaultDoc: "the loop's rate_hz, at most 100", Doc: "How often the state topics are published."}}},
	controllerType(JointVoltageController, "Forwards a voltage command to a speed controller.",
		"frcd's own. Command: std_msgs/Float64 in V on /NAME/command. The speed controller scales it by the measured bus voltage.",
		controllerJointKey("The speed controller's joint.", SpeedControllerRole)),
	{Name: JointGroupVoltage, Group: "controller", Class: "-", Place: YAMLOnly, Check: checkController,
		Summary: "Forwards one voltage per joint to several speed controllers.",
		Doc: "frcd's own, like forward_command_controller's group controllers. Command: std_msgs/Float64MultiArray on " +
			"/NAME/command, one value in V per joint in the order of joints; a message of another length is refused.",
		Keys: []Key{{Name: "joints", Kind: StringList, Required: true, Ref: speedRef, Doc: "The speed controllers' joints."}, controllerTimeoutKey}},
	controllerType(JointPositionController, "Holds a joint at a commanded position: a PID on the roboRIO, output in volts.",
		"As ros_controllers' effort_controllers/JointPositionController, with the PID's output in volts. Command: "+
			"std_msgs/Float64 in rad or m on /NAME/command. Needs the joint's measured position, and gains.",
		controllerJointKey("The speed controller's joint.", SpeedControllerRole), pidKeys("")...),
	controllerType(JointVelocityController, "Holds a joint at a commanded velocity: a PID plus feedforward, output in volts.",
		"As ros_controllers' effort_controllers/JointVelocityController, with the PID's output in volts. Command: "+
			"std_msgs/Float64 in rad/s or m/s on /NAME/command. Needs a measured velocity (an encoder or analog input), and gains.",
		controllerJointKey("The speed controller's joint.", SpeedControllerRole), pidKeys("rad/s or m/s")...),
	controllerType(JointEffortController, "Holds a joint at a commanded effort: a PID on the PDP-measured effort.",
		"As ros_controllers' effort_controllers/JointEffortController; a speed controller has no effort input, so a PID "+
			"closes the loop on the effort the PDP measures (current × k_eff; needs pdp_ch), and gains. Command: "+
			"std_msgs/Float64 in N·m or N on /NAME/command.",
		controllerJointKey("The speed controller's joint.", SpeedControllerRole), pidKeys("N·m or N")...),
	controllerType(ServoPositionController, "Forwards a position command to a servo.",
		"ros_controllers' position_controllers/JointPositionController: the servo holds the angle itself. Command: "+
			"std_msgs/Float64 in rad on /NAME/command.",
		controllerJointKey("The servo's joint.", ServoPositionController)),
	controllerType(SolenoidController, "Opens and closes a single solenoid.",
		"frcd's own. Command: std_msgs/Bool on /NAME/command: true energises the solenoid.",
		controllerJointKey("The solenoid.", SolenoidController)),
	controllerType(DoubleSolenoidController, "Sets a double solenoid forward, off or reverse.",
		"frcd's own. Command: std_msgs/Int8 on /NAME/command: -1 reverse, 0 off, 1 forward; other values are refused.",
		controllerJointKey("The double solenoid.", DoubleSolenoidController)),
	controllerType(RelayController, "Sets a relay forward, off or reverse.",
		"frcd's own. Command: std_msgs/Int8 on /NAME/command: -1 reverse, 0 off, 1 forward; other values are refused.",
		controllerJointKey("The relay.", RelayController)),
	controllerType(DigitalOutputController, "Sets a digital output high or low.",
		"frcd's own. Command: std_msgs/Bool on /NAME/command. It also switches a REV PDH's switchable channel.",
		controllerJointKey("The digital output, or a rev_pdh (its switchable channel).", DigitalOutputController)),
	controllerType(CompressorController, "Turns a compressor's closed-loop control on or off.",
		"frcd's own. Command: std_msgs/Bool on /NAME/command: true lets the PCM or PH run the compressor until the pressure switch reads full.",
		controllerJointKey("The compressor.", CompressorController)),
	controllerType(AnalogOutputController, "Forwards a value to an analog output.",
		"frcd's own. Command: std_msgs/Float64 on /NAME/command in the output's units (scale and offset).",
		controllerJointKey("The analog output.", AnalogOutputController)),
	{Name: ProfiledPositionController, Group: "controller", Class: "-", Place: YAMLOnly, Check: checkController,
		Summary: "Moves a joint to a goal along a trapezoidal motion profile: a PID on the roboRIO plus velocity feedforward, output in volts.",
		Doc: "frcd's own, as WPILib's ProfiledPIDController. Command: std_msgs/Float64 goal in rad or m on /NAME/command. " +
			"A new goal plans a trapezoidal (or, for a short move, triangular) profile from where the profile is, or from the " +
			"measured position and velocity when idle, within max_velocity and max_acceleration, even when the joint is " +
			"already moving; each cycle the setpoint advances along it and the PID drives the measured position to it, plus " +
			"pid.f × the profile's velocity. The same goal again changes nothing. Continuous joints go the shortest way round. " +
			"A goal is not a stream: it holds until replaced (or for timeout, when set). A goal that is not finite or is " +
			"outside the joint's URDF limits is refused and counted. Disabled or e-stopped, the output is neutral and the " +
			"goal is dropped, like any command: nothing moves on re-enable until a new goal arrives, and that goal's profile " +
			"starts from the measured position and velocity, so the joint does not jump. Needs the joint's measured " +
			"position, gains, and a velocity limit (max_velocity or the URDF's).",
		Keys:    append([]Key{controllerJointKey("The speed controller's joint.", SpeedControllerRole)}, profiledKeys()...),
		Example: "{name: arm_controller, type: " + ProfiledPositionController + ", joint: arm_joint, pid: {p: 10, d: 0.5, f: 1.2}, max_acceleration: 6, tolerance: 0.02}"},
}

// profiledKeys are a profiled position controller's own keys beside its
// PID's: its limits, its tolerance, and a timeout that is off by default.
func profiledKeys() []Key {
	keys := []Key{{Name: "timeout", Kind: Float, HasRange: true, Min: 0.001, Max: 3600, Unit: "s",
		DefaultDoc: "none: a goal holds until replaced", Doc: "How long a goal holds before the output goes neutral; by default it holds until another goal replaces it."}}
	for _, k := range pidKeys("rad/s or m/s") {
		switch k.Name {
		case "pid.d":
			k.Doc = "Derivative gain, on the error's rate: the profile's velocity less the measured one."
		case "pid.f":
			k.Doc = "Feedforward gain: volts per unit of the profile's velocity."
		}
		keys = append(keys, k)
	}
	return append(keys,
		Key{Name: "max_velocity", Kind: Float, HasRange: true, Min: 1e-6, Max: 1e6, Unit: "rad/s or m/s",
			DefaultDoc: "the URDF joint limit's velocity", Doc: "The profile's velocity limit; required when the URDF joint has no velocity limit."},
		Key{Name: "max_acceleration", Kind: Float, Required: true, HasRange: true, Min: 1e-6, Max: 1e6, Unit: "rad/s² or m/s²",
			Doc: "The profile's acceleration limit."},
		Key{Name: "tolerance", Kind: Float, HasRange: true, Min: 0, Max: 1e6, Unit: "rad or m",
			DefaultDoc: "none: reached when the profile ends", Doc: "The goal counts as reached (list_controllers, /diagnostics) once the profile has ended and the measured position is within this of it."})
}

var controllerTypeMap = func() map[string]*Type {
	m := map[string]*Type{}
	for _, t := range controllerTypes {
		m[t.Name] = t
	}
	return m
}()

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

// shortControllerTypes maps the words people write for a controller type to
// its name, for hints.
var shortControllerTypes = map[string]string{
	"voltage": JointVoltageController, "position": JointPositionController, "velocity": JointVelocityController,
	"effort": JointEffortController, "group": JointGroupVoltage, "binary": SolenoidController,
	"ternary": DoubleSolenoidController, "analog": AnalogOutputController,
	"joint_state": JointStateController, "state": JointStateController,
	"profiled": ProfiledPositionController, "profiled_position": ProfiledPositionController, "profile": ProfiledPositionController,
}

// controllerWords is shortControllerTypes plus, for each controller, the
// names of the device types it commands (Facts.Roles): a servo's type name
// finds the servo's position controller.
func controllerWords() map[string]string {
	words := make(map[string]string, len(shortControllerTypes))
	for w, c := range shortControllerTypes {
		words[w] = c
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

// checkStateController allows one joint state controller.
func checkStateController(d *Device, c *Checker) {
	c.Once(d, "joint state controller", d.TypePos)
}

// checkController claims the controller's joints (one controller per
// joint) and checks its gains.
func checkController(d *Device, c *Checker) {
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
	if target.ClosesLoop() && (d.Type.Name == JointPositionController || d.Type.Name == JointVelocityController) {
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
