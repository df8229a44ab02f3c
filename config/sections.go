package config

import (
	"sort"
	"strings"

	"github.com/frcd/frcd/diag"
)

// frcd's own sections beside the spec's `joints:` list. They are decoded
// with the same Key tables as devices, so `frcd describe`, the docs and the
// schema cover them too.
//
//	loop:        {rate_hz: 100, command_timeout: 0.5}
//	controllers:
//	  shoulder_controller:
//	    type: effort_controllers/JointPositionController
//	    joint: shoulder_joint
//	    pid: {p: 40, i: 5, d: 1}
//	sim:
//	  battery_voltage: 12.8
//	  joints:
//	    - {name: shoulder_joint, motor: 775pro, gearing: 600}
//	  sensors:
//	    - {name: left_drive_encoder, noise: {sigma: 0.002}, dropout: 0.05}
//	  disturbances:
//	    - {joint: shoulder_joint, kind: force, magnitude: 5, update_period: 1}
//	  can_faults:
//	    - {name: arm_joint, from: 2.0, until: 3.5}
//	  drivetrain:
//	    type: tank
//	    left: [left_front_wheel_joint, left_rear_wheel_joint]
//	    right: [right_front_wheel_joint, right_rear_wheel_joint]
//	linux:
//	  can: [can0, can1]
//	  heartbeat: auto
//	  gpio: [GPIO17, GPIO27]
//	  ros_enable: true

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

// Linux is the type of the `linux:` section: the Linux coprocessor
// backend's wiring.
var Linux = &Type{
	Name: "linux", Group: "section", Class: "-",
	Summary: "A Linux coprocessor's CAN interfaces, CAN heartbeat and GPIO pins, used by `frcd run --hal linux`.",
	Doc: "Only the Linux backend reads this section. CAN goes through SocketCAN (USB-CAN adapters, a CAN HAT), DIO " +
		"channels through GPIO pins and the navX through spidev or i2c-dev (its bus and chip_select keys). The robot " +
		"starts disabled; it is enabled over ROS (/frcd/enable) only when ros_enable allows it.",
	Place: YAMLOnly,
	Keys: []Key{
		{Name: "can", Kind: StringList, DefaultDoc: "[can0]", Doc: "The SocketCAN interfaces frcd uses. The first is the default bus, " +
			"of the devices without can_bus; the others are named by the devices' can_bus."},
		{Name: "heartbeat", Kind: String, Default: "auto", Enum: []string{"auto", "on", "off"}, Doc: "Whether frcd sends the FRC universal " +
			"heartbeat on its buses, without which CAN motor controllers and pneumatics stay disabled: auto sends it where no " +
			"roboRIO is heard sending it, on always, off never."},
		{Name: "gpio", Kind: StringList, Doc: "The GPIO pins of DIO channels 0, 1, 2... by their Linux names (GPIO17, or a header " +
			"position such as P1_11); - leaves a channel unwired."},
		{Name: "ros_enable", Kind: Bool, Default: false, Doc: "Whether the ROS service /frcd/enable exists on this robot: " +
			"anyone who reaches its ROS master can call it, without authentication, and enable real outputs. Off, the service " +
			"is not offered and nothing enables the robot; turn it on only on a robot whose network you trust."},
	},
	Check: checkLinux,
}

// checkLinux checks the `linux:` section's interface names are ones Linux
// takes (the list decoder refuses one listed twice).
func checkLinux(d *Device, c *Checker) {
	for _, name := range d.List("can") {
		if name == "" || len(name) > 15 || strings.ContainsAny(name, "/ \t:") || name == "." || name == ".." || name == "-" {
			c.Errorf(d.ValuePos("can"), "linux: can: %q is not a network interface name (at most 15 characters, no /, : or spaces)", name)
		}
	}
}

// checkCANBuses checks, when the file has a `linux:` section, that every
// device's can_bus is one of its interfaces.
func (p *parser) checkCANBuses() {
	l := p.file.Linux
	if l == nil || l.Pos.Line == 0 {
		return
	}
	buses := l.List("can")
	if len(buses) == 0 {
		buses = []string{"can0"}
	}
	for _, d := range p.file.Devices {
		if !d.Has("can_bus") || contains(buses, d.Str("can_bus")) {
			continue
		}
		p.list.Errorf(d.ValuePos("can_bus"), "%s: can_bus %s is not one of linux: can [%s]%s", d, d.Str("can_bus"),
			strings.Join(buses, ", "), diag.DidYouMean(d.Str("can_bus"), buses))
	}
}

// Sim is the type of the `sim:` section's own keys; its `joints:` list
// holds SimJoint entries.
var Sim = &Type{
	Name: "sim", Group: "section", Class: "-",
	Summary: "The simulated robot's battery and air, used by `frcd run --sim`.",
	Doc: "Only the simulated HAL reads this section. Its joints: list overrides each joint's plant (sim_joint), its " +
		"sensors: list gives sensors faults (sim_sensor), its disturbances: list pushes joints or the base (sim_disturbance), " +
		"its drivetrain: mapping makes wheel joints drive a base around the field (sim_drivetrain) and its can_faults: " +
		"list silences CAN devices for a while (sim_can_fault).",
	Place: YAMLOnly,
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

// SimSensorTypes are the device types a `sim: sensors:` entry may name.
var SimSensorTypes = []string{"encoder", "analog_input", "digital_input", "navx", "pigeon_imu"}

// SimSensor is the type of an entry of `sim: sensors:`: the faults of one
// YAML sensor.
var SimSensor = &Type{
	Name: "sim_sensor", Group: "section", Class: "-",
	Summary: "The simulated faults of one sensor: noise, drift, dropout, stuck or disconnected.",
	Doc: "Named after a YAML encoder, analog_input, digital_input, navx or pigeon_imu. Noise and drift are in the units " +
		"the sensor measures: its joint's rad or m for an encoder or analog input (before counts or volts), rad of yaw " +
		"for an IMU; a digital input takes dropout, stuck and disconnected only. Drift is a random walk that grows with " +
		"sim time whether or not anything reads. A dropped reading stays stale (encoder, analog and digital inputs) or " +
		"fails (navX: a garbled response; Pigeon: no frame). Stuck freezes the reading at fault_at; disconnected stops an " +
		"encoder counting, reads 0 V on an analog input and high on a digital input (the pull-up), and silences an IMU. " +
		"Every draw comes from the seed of `frcd run --sim --seed`.",
	Place:   YAMLOnly,
	Example: "{name: left_drive_encoder, noise: {mu: 0, sigma: 0.002}, drift: {mu: 0.001, sigma: 0.0005}, dropout: 0.05}",
	Keys: []Key{
		{Name: "noise.mu", Kind: Float, Default: 0.0, HasRange: true, Min: -1e6, Max: 1e6, Unit: "rad or m", Doc: "The mean of the noise added to each reading."},
		{Name: "noise.sigma", Kind: Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "rad or m", Doc: "The standard deviation of the noise added to each reading."},
		{Name: "drift.mu", Kind: Float, Default: 0.0, HasRange: true, Min: -1e6, Max: 1e6, Unit: "rad or m per s", Doc: "The mean drift per second: after t s the readings are off by mu × t on average."},
		{Name: "drift.sigma", Kind: Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "rad or m per √s", Doc: "The spread of the drift: after t s its standard deviation is sigma × √t."},
		{Name: "dropout", Kind: Float, Default: 0.0, HasRange: true, Min: 0, Max: 1, Doc: "The probability that one reading is lost."},
		{Name: "stuck", Kind: Bool, Default: false, Doc: "The reading freezes at its value at fault_at."},
		{Name: "disconnected", Kind: Bool, Default: false, Doc: "The cable is pulled at fault_at."},
		{Name: "fault_at", Kind: Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "s", Doc: "The sim time when stuck or disconnected begins."},
	},
}

// SimCANFaultTypes are the device types a `sim: can_faults:` entry may
// name: those on the CAN bus (a pigeon_imu only with its own id).
var SimCANFaultTypes = []string{"pdp", "rev_pdh", "rev_ph", "compressor", "solenoid", "double_solenoid", "talon_srx", "can_victor_spx", "pigeon_imu"}

// SimCANFault is the type of an entry of `sim: can_faults:`: a CAN device
// falling silent for a while.
var SimCANFault = &Type{
	Name: "sim_can_fault", Group: "section", Class: "-",
	Summary: "A simulated CAN device falling silent (a cut CAN cable) from one time until another.",
	Doc: "Named after a YAML device on the CAN bus: a pdp, rev_pdh or rev_ph, a talon_srx, can_victor_spx or pigeon_imu " +
		"(on CAN), or a solenoid, double_solenoid or compressor (its PCM or PH falls silent, for every device on it). " +
		"While silent the device sends no frame and hears none: its status goes stale within 100 ms (its joints' " +
		"effort from a PDP or PDH channel goes absent), what it drives goes neutral on its own timeout, and the loop " +
		"and the other devices go on.",
	Place:   YAMLOnly,
	Example: "{name: arm_joint, from: 2.0, until: 3.5}",
	Keys: []Key{
		{Name: "from", Kind: Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "s", Doc: "The sim time when it falls silent."},
		{Name: "until", Kind: Float, HasRange: true, Min: 0, Max: 1e6, Unit: "s", DefaultDoc: "for good", Doc: "The sim time when it is heard again."},
	},
}

// Disturbance kinds.
var disturbanceKinds = []string{"velocity", "force"}

// SimDisturbance is the type of an entry of `sim: disturbances:`: a random
// push on a joint or the drive base.
var SimDisturbance = &Type{
	Name: "sim_disturbance", Group: "section", Class: "-",
	Summary: "A random push on a joint or the drive base, redrawn every update_period (Gazebo's RandomVelocityPlugin).",
	Doc: "Until the first update_period has passed it holds initial_x (and initial_y); then every update_period it " +
		"draws a new direction (each axis uniform in -1 to 1, normalized: a random sign for a joint), scales it to " +
		"magnitude and clamps each axis to min and max. A velocity carries the joint (or base) along; a force adds to " +
		"its dynamics (joints with a motor or none). The base's axes are the field's x and y, and the drivetrain moves it.",
	Place: YAMLOnly, OptionalName: true,
	Example: "{name: shove, joint: shoulder_joint, kind: force, magnitude: 5, update_period: 1, min_x: -3, max_x: 3}",
	Keys: []Key{
		{Name: "joint", Kind: String, Doc: "The movable URDF joint pushed."},
		{Name: "base", Kind: Bool, Default: false, Doc: "Push the drive base instead of a joint."},
		{Name: "kind", Kind: String, Enum: disturbanceKinds, Default: "velocity", Doc: "What is pushed: a velocity, or a force added to the dynamics."},
		{Name: "magnitude", Kind: Float, Default: 1.0, HasRange: true, Min: 0, Max: 1e6, Unit: "rad/s, m/s, N·m or N", Doc: "The size of each draw, before clamping."},
		{Name: "update_period", Kind: Float, Default: 10.0, HasRange: true, Min: 0.001, Max: 1e6, Unit: "s", Doc: "The time between draws."},
		{Name: "initial_x", Kind: Float, Default: 0.0, HasRange: true, Min: -1e6, Max: 1e6, Doc: "The value before the first draw."},
		{Name: "initial_y", Kind: Float, Default: 0.0, HasRange: true, Min: -1e6, Max: 1e6, Doc: "The base's y value before the first draw."},
		{Name: "min_x", Kind: Float, HasRange: true, Min: -1e6, Max: 1e6, DefaultDoc: "unbounded", Doc: "The smallest x a draw may take."},
		{Name: "max_x", Kind: Float, HasRange: true, Min: -1e6, Max: 1e6, DefaultDoc: "unbounded", Doc: "The largest x a draw may take."},
		{Name: "min_y", Kind: Float, HasRange: true, Min: -1e6, Max: 1e6, DefaultDoc: "unbounded", Doc: "The base: the smallest y a draw may take."},
		{Name: "max_y", Kind: Float, HasRange: true, Min: -1e6, Max: 1e6, DefaultDoc: "unbounded", Doc: "The base: the largest y a draw may take."},
	},
	Check: checkDisturbance,
}

// checkDisturbance: a joint or the base, exactly one; the base's y axis
// only on the base; clamps in order.
func checkDisturbance(d *Device, c *Checker) {
	switch {
	case d.Has("joint") && d.Bool("base"):
		c.Errorf(d.KeyPos("base"), "%s: push a joint or the base, not both", d)
	case !d.Has("joint") && !d.Bool("base"):
		c.Errorf(d.Pos, "%s: needs joint (a URDF joint) or base: true", d)
	case d.Has("joint"):
		for _, k := range []string{"initial_y", "min_y", "max_y"} {
			if d.Has(k) {
				c.Errorf(d.KeyPos(k), "%s: a joint has one axis, x: %s applies to the base", d, k)
			}
		}
	}
	for _, axis := range []string{"x", "y"} {
		lo, hi := "min_"+axis, "max_"+axis
		if d.Has(lo) && d.Has(hi) && d.Float(lo) > d.Float(hi) {
			c.Errorf(d.ValuePos(lo), "%s: %s %v is above %s %v", d, lo, d.Float(lo), hi, d.Float(hi))
		}
	}
}

// Drivetrain types of `sim: drivetrain:`.
const (
	DrivetrainTank    = "tank"
	DrivetrainMecanum = "mecanum"
	DrivetrainSwerve  = "swerve"
)

// mecanumWheels are a mecanum drivetrain's wheel keys, in the sim's order.
var mecanumWheels = []string{"front_left", "front_right", "rear_left", "rear_right"}

// SimDrivetrain is the type of `sim: drivetrain:`: the wheel joints that
// drive the simulated base around the field.
var SimDrivetrain = &Type{
	Name: "sim_drivetrain", Group: "section", Class: "-",
	Summary: "The simulated drive base: which wheel joints drive it, and how (tank, mecanum or swerve).",
	Doc: "The wheels keep their motor plants; each wheel's traction on the floor (at most friction × its share of the weight; " +
		"beyond, it slips) moves the base in x, y and yaw, and reacts on the wheel. Wheel positions come from the URDF origins of " +
		"the wheel joints relative to the root link. tank: left and right lists of wheel joints; mecanum: front_left, front_right, " +
		"rear_left and rear_right (rollers at 45°); swerve: drive and steer lists of four joints each, in the same order. " +
		"Wheel joints are continuous joints driven by speed controllers.",
	Place: YAMLOnly,
	Keys: []Key{
		{Name: "type", Kind: String, Required: true, Enum: []string{DrivetrainTank, DrivetrainMecanum, DrivetrainSwerve}, Doc: "The kind of drive base."},
		{Name: "left", Kind: StringList, Ref: SpeedControllerTypes, Doc: "tank: the left side's wheel joints."},
		{Name: "right", Kind: StringList, Ref: SpeedControllerTypes, Doc: "tank: the right side's wheel joints."},
		{Name: "front_left", Kind: String, Ref: SpeedControllerTypes, Doc: "mecanum: the front left wheel joint."},
		{Name: "front_right", Kind: String, Ref: SpeedControllerTypes, Doc: "mecanum: the front right wheel joint."},
		{Name: "rear_left", Kind: String, Ref: SpeedControllerTypes, Doc: "mecanum: the rear left wheel joint."},
		{Name: "rear_right", Kind: String, Ref: SpeedControllerTypes, Doc: "mecanum: the rear right wheel joint."},
		{Name: "drive", Kind: StringList, Ref: SpeedControllerTypes, Doc: "swerve: the four modules' drive wheel joints."},
		{Name: "steer", Kind: StringList, Ref: append(append([]string(nil), SpeedControllerTypes...), "servo"), Doc: "swerve: the four modules' steering joints, in the order of drive; the wheel rolls along its steering angle."},
		{Name: "wheel_radius", Kind: Float, HasRange: true, Min: 0.005, Max: 1, Unit: "m", DefaultDoc: "the wheel link's URDF cylinder, else 3 in", Doc: "The wheels' radius."},
		{Name: "mass", Kind: Float, HasRange: true, Min: 0.1, Max: 1000, Unit: "kg", DefaultDoc: "the URDF's total mass, else 50", Doc: "The robot's mass."},
		{Name: "yaw_inertia", Kind: Float, HasRange: true, Min: 1e-3, Max: 1000, Unit: "kg·m²", DefaultDoc: "the URDF's, about the root link's z axis, else mass × (track / 2)²", Doc: "The robot's moment of inertia about its vertical axis."},
		{Name: "friction", Kind: Float, Default: 1.0, HasRange: true, Min: 0.01, Max: 5, Doc: "Tire-floor friction coefficient: a wheel's traction is at most friction × its share of the weight; beyond, it slips."},
	},
	Check: checkDrivetrain,
}

// checkDrivetrain checks that the keys written fit the type, the counts
// are right and each joint is named once.
func checkDrivetrain(d *Device, c *Checker) {
	typ := d.Str("type")
	if typ == "" {
		return
	}
	allowed := map[string][]string{
		DrivetrainTank:    {"left", "right"},
		DrivetrainMecanum: mecanumWheels,
		DrivetrainSwerve:  {"drive", "steer"},
	}[typ]
	for _, k := range d.Type.Keys {
		if k.Ref != nil && d.Has(k.Name) && !contains(allowed, k.Name) {
			c.Errorf(d.KeyPos(k.Name), "%s: %s is not a key of a %s drivetrain; it takes %s", d, k.Name, typ, strings.Join(allowed, ", "))
		}
	}
	for _, k := range allowed {
		if !d.Has(k) {
			c.Errorf(d.Pos, "%s: a %s drivetrain needs %s", d, typ, k)
		}
	}
	if typ == DrivetrainSwerve && d.Has("drive") && d.Has("steer") {
		for _, k := range []string{"drive", "steer"} {
			if n := len(d.List(k)); n != 4 {
				c.Errorf(d.ValuePos(k), "%s: %s lists %d joints; a swerve drivetrain has 4 modules", d, k, n)
			}
		}
	}
	seen := map[string]string{}
	for _, k := range allowed {
		v, ok := d.Value(k)
		if !ok || !v.Set {
			continue
		}
		names, at := v.List, v.ListAt
		if v.Kind == String {
			names, at = []string{v.Str}, []diag.Pos{v.Pos}
		}
		for i, n := range names {
			if first, dup := seen[n]; dup {
				c.Errorf(at[i], "%s: joint %q is already in %s; each wheel joint is named once", d, n, first)
				continue
			}
			seen[n] = k
		}
	}
}

// Controller types, in ros_control's style: a name, a type, a joint (or
// joints) and gains. ros_controllers' type names are used where one means
// the same thing; the others are frcd's own. Each command controller
// claims its joints' command interfaces; two controllers on one joint are
// refused.

// The controller type names.
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

func controllerJointKey(doc string, refs ...string) Key {
	return Key{Name: "joint", Kind: String, Required: true, Ref: refs, Doc: doc}
}

var controllerTimeoutKey = Key{Name: "timeout", Kind: Float, HasRange: true, Min: 0.001, Max: 60, Unit: "s",
	DefaultDoc: "loop's command_timeout", Doc: "How long a command holds before the output goes neutral."}

// SpeedControllerTypes are the device types a voltage, position, velocity
// or effort controller may drive.
var SpeedControllerTypes = []string{"dmc60", "jaguar", "pwm_talon_srx", "pwm_victor_spx", "sd540", "spark", "talon", "victor", "victor_sp", "nidec", "can_victor_spx", "talon_srx"}

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
		controllerJointKey("The speed controller's joint.", SpeedControllerTypes...)),
	{Name: JointGroupVoltage, Group: "controller", Class: "-", Place: YAMLOnly, Check: checkController,
		Summary: "Forwards one voltage per joint to several speed controllers.",
		Doc: "frcd's own, like forward_command_controller's group controllers. Command: std_msgs/Float64MultiArray on " +
			"/NAME/command, one value in V per joint in the order of joints; a message of another length is refused.",
		Keys: []Key{{Name: "joints", Kind: StringList, Required: true, Ref: SpeedControllerTypes, Doc: "The speed controllers' joints."}, controllerTimeoutKey}},
	controllerType(JointPositionController, "Holds a joint at a commanded position: a PID on the roboRIO, output in volts.",
		"As ros_controllers' effort_controllers/JointPositionController, with the PID's output in volts. Command: "+
			"std_msgs/Float64 in rad or m on /NAME/command. Needs the joint's measured position, and gains.",
		controllerJointKey("The speed controller's joint.", SpeedControllerTypes...), pidKeys("")...),
	controllerType(JointVelocityController, "Holds a joint at a commanded velocity: a PID plus feedforward, output in volts.",
		"As ros_controllers' effort_controllers/JointVelocityController, with the PID's output in volts. Command: "+
			"std_msgs/Float64 in rad/s or m/s on /NAME/command. Needs a measured velocity (an encoder or analog input), and gains.",
		controllerJointKey("The speed controller's joint.", SpeedControllerTypes...), pidKeys("rad/s or m/s")...),
	controllerType(JointEffortController, "Holds a joint at a commanded effort: a PID on the PDP-measured effort.",
		"As ros_controllers' effort_controllers/JointEffortController; a speed controller has no effort input, so a PID "+
			"closes the loop on the effort the PDP measures (current × k_eff; needs pdp_ch), and gains. Command: "+
			"std_msgs/Float64 in N·m or N on /NAME/command.",
		controllerJointKey("The speed controller's joint.", SpeedControllerTypes...), pidKeys("N·m or N")...),
	controllerType(ServoPositionController, "Forwards a position command to a servo.",
		"ros_controllers' position_controllers/JointPositionController: the servo holds the angle itself. Command: "+
			"std_msgs/Float64 in rad on /NAME/command.",
		controllerJointKey("The servo's joint.", "servo")),
	controllerType(SolenoidController, "Opens and closes a single solenoid.",
		"frcd's own. Command: std_msgs/Bool on /NAME/command: true energises the solenoid.",
		controllerJointKey("The solenoid.", "solenoid")),
	controllerType(DoubleSolenoidController, "Sets a double solenoid forward, off or reverse.",
		"frcd's own. Command: std_msgs/Int8 on /NAME/command: -1 reverse, 0 off, 1 forward; other values are refused.",
		controllerJointKey("The double solenoid.", "double_solenoid")),
	controllerType(RelayController, "Sets a relay forward, off or reverse.",
		"frcd's own. Command: std_msgs/Int8 on /NAME/command: -1 reverse, 0 off, 1 forward; other values are refused.",
		controllerJointKey("The relay.", "relay")),
	controllerType(DigitalOutputController, "Sets a digital output high or low.",
		"frcd's own. Command: std_msgs/Bool on /NAME/command. It also switches a REV PDH's switchable channel.",
		controllerJointKey("The digital output, or a rev_pdh (its switchable channel).", "digital_output", "rev_pdh")),
	controllerType(CompressorController, "Turns a compressor's closed-loop control on or off.",
		"frcd's own. Command: std_msgs/Bool on /NAME/command: true lets the PCM or PH run the compressor until the pressure switch reads full.",
		controllerJointKey("The compressor.", "compressor")),
	controllerType(AnalogOutputController, "Forwards a value to an analog output.",
		"frcd's own. Command: std_msgs/Float64 on /NAME/command in the output's units (scale and offset).",
		controllerJointKey("The analog output.", "analog_output")),
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
		Keys:    append([]Key{controllerJointKey("The speed controller's joint.", SpeedControllerTypes...)}, profiledKeys()...),
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
	"effort": JointEffortController, "servo": ServoPositionController, "group": JointGroupVoltage,
	"solenoid": SolenoidController, "binary": SolenoidController, "double_solenoid": DoubleSolenoidController,
	"ternary": DoubleSolenoidController, "relay": RelayController, "digital_output": DigitalOutputController,
	"compressor": CompressorController, "analog": AnalogOutputController, "analog_output": AnalogOutputController,
	"joint_state": JointStateController, "state": JointStateController,
	"profiled": ProfiledPositionController, "profiled_position": ProfiledPositionController, "profile": ProfiledPositionController,
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
	if full, ok := shortControllerTypes[word]; ok {
		return ` (did you mean "` + full + `"?)`
	}
	var words []string
	for w := range shortControllerTypes {
		words = append(words, w)
	}
	sort.Strings(words)
	if s := diag.Suggest(word, words); s != "" {
		return ` (did you mean "` + shortControllerTypes[s] + `"?)`
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
	if d.Float("pid.p") == 0 && d.Float("pid.i") == 0 && d.Float("pid.f") == 0 {
		want := "{p: ..., i: ..., d: ...}"
		if d.Type.Key("pid.f") != nil {
			want = "{p: ..., i: ..., d: ..., f: ...}"
		}
		c.Errorf(d.Pos, "%s: a PID on %s needs gains: set pid: %s so the roboRIO can drive it", d, target, want)
	}
}
