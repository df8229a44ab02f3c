package config

import "sort"

// frcd's own sections beside the spec's `joints:` list. They are decoded
// with the same Key tables as devices, so `frcd describe`, the docs and the
// schema cover them too.
//
//	loop:        {rate_hz: 100, command_timeout: 0.5}
//	controllers:
//	  - {name: shoulder_position, type: position, joint: shoulder_joint, p: 40, i: 5, d: 1}
//	sim:
//	  battery_voltage: 12.8
//	  joints:
//	    - {name: shoulder_joint, motor: 775pro, gearing: 600}

// Loop is the type of the `loop:` section.
var Loop = &Type{
	Name: "loop", Group: "section", Class: "-",
	Summary: "The control loop's rate and command timeout.",
	Doc: "The loop reads every device, merges joint states, runs the controllers and safety, and writes every output, " +
		"rate_hz times a second. A controller's command older than its timeout is dropped: the output goes neutral.",
	Place: YAMLOnly,
	Keys: []Key{
		{Name: "rate_hz", Kind: Float, Default: 100.0, HasRange: true, Min: 1, Max: 2000, Unit: "Hz", Doc: "How often the loop runs."},
		{Name: "command_timeout", Kind: Float, Default: 0.5, HasRange: true, Min: 0.001, Max: 60, Unit: "s", Doc: "How long a command holds before its output goes neutral, unless a controller sets its own timeout."},
	},
}

// Sim is the type of the `sim:` section's own keys; its `joints:` list
// holds SimJoint entries.
var Sim = &Type{
	Name: "sim", Group: "section", Class: "-",
	Summary: "The simulated robot's battery and air, used by `frcd run --sim`.",
	Doc:     "Only the simulated HAL reads this section. Its joints: list overrides each joint's plant (sim_joint).",
	Place:   YAMLOnly,
	Keys: []Key{
		{Name: "battery_voltage", Kind: Float, Default: 12.8, HasRange: true, Min: 6, Max: 16, Unit: "V", Doc: "The battery's open-circuit voltage."},
		{Name: "battery_resistance", Kind: Float, Default: 0.02, HasRange: true, Min: 0, Max: 1, Unit: "Ω", Doc: "The battery's internal resistance plus wiring: the bus sags by this times the total current."},
		{Name: "pressure", Kind: Float, Default: 120.0, HasRange: true, Min: 0, Max: 120, Unit: "psi", Doc: "The tanks' pressure at start."},
	},
}

// SimMotors are the motor models of the sim.
var SimMotors = []string{"cim", "mini_cim", "bag", "775pro", "rs775", "am9015", "neo", "neo550", "falcon500", "window"}

// SimJoint is the type of an entry of `sim: joints:`: the plant of one URDF
// joint.
var SimJoint = &Type{
	Name: "sim_joint", Group: "section", Class: "-",
	Summary: "The simulated plant of one URDF joint: motor, gearbox, inertia, friction.",
	Doc: "Named after a movable URDF joint. Keys left out take defaults: a CIM, the gearing that makes PDP current × k_eff " +
		"the joint's torque (or its free speed the URDF velocity limit), the child link's inertia.",
	Place: DrivesJoint,
	Keys: []Key{
		{Name: "motor", Kind: String, Enum: SimMotors, DefaultDoc: "cim", Doc: "The motor model."},
		{Name: "motors", Kind: Int, Default: 1, HasRange: true, Min: 1, Max: 8, Doc: "How many motors drive the gearbox."},
		{Name: "gearing", Kind: Float, HasRange: true, Min: 1e-6, Max: 1e6, DefaultDoc: "k_eff / motor torque per amp", Unit: "motor rad per rad or m", Doc: "The reduction from motor to joint."},
		{Name: "inertia", Kind: Float, HasRange: true, Min: 1e-9, Max: 1e6, DefaultDoc: "from the URDF child link", Unit: "kg·m² or kg", Doc: "The moving inertia (or mass) seen at the joint."},
		{Name: "damping", Kind: Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "N·m·s/rad or N·s/m", Doc: "Viscous friction."},
		{Name: "friction", Kind: Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "N·m or N", Doc: "Coulomb friction."},
		{Name: "load", Kind: Float, Default: 0.0, HasRange: true, Min: -1e6, Max: 1e6, Unit: "N·m or N", Doc: "A constant load pushing toward negative positions, such as gravity on an elevator."},
		{Name: "travel", Kind: Float, Default: 0.25, HasRange: true, Min: 0.001, Max: 60, Unit: "s", Doc: "Pistons, relays and digital outputs: the time to cross the joint's whole range."},
	},
}

// Controller types: ros_control-style controllers that take commands and
// claim a joint's command interface. Each has one joint; two controllers
// on one joint are refused.

var controllerJointKey = func(doc string, refs ...string) Key {
	return Key{Name: "joint", Kind: String, Required: true, Ref: refs, Doc: doc}
}

var controllerTimeoutKey = Key{Name: "timeout", Kind: Float, HasRange: true, Min: 0.001, Max: 60, Unit: "s",
	DefaultDoc: "loop's command_timeout", Doc: "How long a command holds before the output goes neutral."}

// SpeedControllerTypes are the device types a voltage, position, velocity
// or effort controller may drive.
var SpeedControllerTypes = []string{"dmc60", "jaguar", "pwm_talon_srx", "pwm_victor_spx", "sd540", "spark", "talon", "victor", "victor_sp", "nidec", "can_victor_spx", "talon_srx"}

func pidKeys(feedforward string) []Key {
	keys := []Key{
		{Name: "p", Kind: Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "V per unit of error", Doc: "Proportional gain."},
		{Name: "i", Kind: Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "V per unit·s", Doc: "Integral gain."},
		{Name: "d", Kind: Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "V per unit/s", Doc: "Derivative gain (on the measurement, so a step in the command does not kick)."},
		{Name: "i_clamp", Kind: Float, HasRange: true, Min: 0, Max: 24, Unit: "V", DefaultDoc: "max_voltage", Doc: "The largest voltage the integral term may contribute."},
		{Name: "max_voltage", Kind: Float, Default: 12.0, HasRange: true, Min: 0.1, Max: 24, Unit: "V", Doc: "The output limit."},
	}
	if feedforward != "" {
		keys = append(keys, Key{Name: "f", Kind: Float, Default: 0.0, HasRange: true, Min: -1e6, Max: 1e6, Unit: "V per " + feedforward, Doc: "Feedforward gain: volts per unit of command."})
	}
	return keys
}

func controllerType(name, summary, doc string, joint Key, extra ...Key) *Type {
	return &Type{Name: name, Group: "controller", Class: "-", Summary: summary, Doc: doc, Place: YAMLOnly,
		Keys: append([]Key{joint, controllerTimeoutKey}, extra...), Check: checkController}
}

var controllerTypes = []*Type{
	controllerType("voltage", "Forwards a voltage command to a speed controller.",
		"Command: std_msgs/Float64 in V. The speed controller scales it by the measured bus voltage.",
		controllerJointKey("The speed controller's joint.", SpeedControllerTypes...)),
	controllerType("position", "Holds a joint at a commanded position: a PID on the roboRIO, or a servo's own.",
		"Command: std_msgs/Float64 in rad or m. On a speed controller, a PID from the joint's measured position to "+
			"volts (gains required); on a servo, the angle is forwarded (no gains).",
		controllerJointKey("The joint: a speed controller's or a servo's.", append(append([]string(nil), SpeedControllerTypes...), "servo")...),
		pidKeys("")...),
	controllerType("velocity", "Holds a joint at a commanded velocity: a PID plus feedforward on the roboRIO.",
		"Command: std_msgs/Float64 in rad/s or m/s. Needs a measured velocity (an encoder or analog input).",
		controllerJointKey("The speed controller's joint.", SpeedControllerTypes...), pidKeys("rad/s or m/s")...),
	controllerType("effort", "Holds a joint at a commanded effort: a PID on the PDP-measured effort.",
		"Command: std_msgs/Float64 in N·m or N. Needs the speed controller's pdp_ch (effort = current × k_eff).",
		controllerJointKey("The speed controller's joint.", SpeedControllerTypes...), pidKeys("N·m or N")...),
	controllerType("binary", "Forwards an on/off command: a solenoid, a digital output or a compressor's closed loop.",
		"Command: std_msgs/Bool.", controllerJointKey("The device's name.", "solenoid", "digital_output", "compressor")),
	controllerType("ternary", "Forwards a reverse/off/forward command to a double solenoid or a relay.",
		"Command: std_msgs/Int8: -1 reverse, 0 off, 1 forward.", controllerJointKey("The device's name.", "double_solenoid", "relay")),
	controllerType("analog", "Forwards a value to an analog output.",
		"Command: std_msgs/Float64 in the output's units (scale and offset).", controllerJointKey("The device's name.", "analog_output")),
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

// checkController claims the controller's joint (one controller per
// joint) and checks its gains.
func checkController(d *Device, c *Checker) {
	target := d.Ref("joint")
	if target == nil {
		return
	}
	c.ClaimName(d, ControllerJoint, target.Name, d.ValuePos("joint"))
	if d.Type.Key("p") == nil || target.Type == nil {
		return
	}
	servo := target.Type.Name == "servo"
	gains := d.Has("p") || d.Has("i") || d.Has("d") || d.Has("f")
	switch {
	case servo:
		for _, k := range []string{"p", "i", "d", "i_clamp", "max_voltage"} {
			if d.Has(k) {
				c.Errorf(d.KeyPos(k), "%s: %s: a servo holds its own position; a position controller on it takes no gains", d, k)
			}
		}
	case !gains || (d.Float("p") == 0 && d.Float("i") == 0 && d.Float("f") == 0):
		others := "i, d"
		if d.Type.Key("f") != nil {
			others += ", f"
		}
		c.Errorf(d.Pos, "%s: a %s controller on %s needs gains: set p (and %s) so the roboRIO's PID can drive it", d, d.Type.Name, target, others)
	}
}
