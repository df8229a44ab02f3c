package config

import (
	"slices"
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
	Summary: "A Linux coprocessor's CAN interfaces, CAN heartbeat and GPIO pins, used by `frcd run --hal linux` (and Systemcore's by --hal systemcore).",
	Doc: "Only the Linux and Systemcore backends read this section (Systemcore: can, heartbeat, ros_enable). CAN goes through SocketCAN (USB-CAN adapters, a CAN HAT), DIO " +
		"channels through GPIO pins and the navX through spidev or i2c-dev (its bus and chip_select keys). The robot " +
		"starts disabled; it is enabled over ROS (/frcd/enable) only when ros_enable allows it.",
	Place: YAMLOnly,
	Keys: []Key{
		{Name: "can", Kind: StringList, DefaultDoc: "[can0]", Doc: "The SocketCAN interfaces frcd uses. The first is the default bus, " +
			"of the devices without can_bus; the others are named by the devices' can_bus."},
		{Name: "heartbeat", Kind: String, Default: "auto", Enum: []string{"auto", "on", "off"}, Doc: "Whether frcd sends the FRC universal " +
			"heartbeat on its buses, without which CAN motor controllers and pneumatics stay disabled: auto sends it where no " +
			"roboRIO is heard sending it, on always, off never. On Systemcore the default is off (the OS sends it from the " +
			"Driver Station's state), auto with ros_enable."},
		{Name: "gpio", Kind: StringList, Doc: "The GPIO pins of DIO channels 0, 1, 2... by their Linux names (GPIO17, or a header " +
			"position such as P1_11); - leaves a channel unwired."},
		{Name: "ros_enable", Kind: Bool, Default: false, Doc: "Whether the ROS service /frcd/enable exists on this robot: " +
			"anyone who reaches its ROS master can call it, without authentication, and enable real outputs. Off, the service " +
			"is not offered and nothing enables the robot; turn it on only on a robot whose network you trust. On Systemcore " +
			"(--hal systemcore) it also takes the place of the Driver Station WPILib's HAL reports."},
		{Name: "system_server", Kind: String, Default: "", Doc: "No longer used: frcd reached Systemcore's SmartIO, IMU, " +
			"battery and Driver Station through the NT4 system server of the 2027 alphas 4-6, which images whose WPILib uses " +
			"mrclib do not serve; it now goes through WPILib's HAL (docs/systemcore.md). Accepted so that older files load."},
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
		if !d.Has("can_bus") || slices.Contains(buses, d.Str("can_bus")) {
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
		{Name: "spark_firmware", Kind: String, Default: "26", Enum: []string{"25", "26"},
			Doc: "The firmware major version the emulated SPARKs report: 25 (25.0.4), or 26 (REV's 2026 releases: 26.1.5 on a SPARK MAX, 26.1.6 on a SPARK Flex)."},
	},
}

// SimMotors are the motor models of the sim.
var SimMotors = []string{"cim", "mini_cim", "bag", "775pro", "rs775", "am9015", "neo", "neo550", "neo_vortex", "falcon500", "window"}

// SimJoint is the type of an entry of `sim: joints:`: the plant of one URDF
// joint.
var SimJoint = &Type{
	Name: "sim_joint", Group: "section", Class: "-",
	Summary: "The simulated plant of one URDF joint: motor, gearbox, inertia, friction.",
	Doc: "Named after a movable URDF joint. Keys left out take defaults: a CIM, the gearing that makes PDP current × k_eff " +
		"the joint's torque (or its free speed the URDF velocity limit), the child link's inertia.",
	Place: DrivesJoint,
	Keys: []Key{
		{Name: "motor", Kind: String, Enum: SimMotors, DefaultDoc: "the controller's own (a SPARK MAX's NEO, a SPARK Flex's NEO Vortex), else cim", Doc: "The motor model."},
		{Name: "motors", Kind: Int, Default: 1, HasRange: true, Min: 1, Max: 8, Doc: "How many motors drive the gearbox."},
		{Name: "gearing", Kind: Float, HasRange: true, Min: 1e-6, Max: 1e6, DefaultDoc: "k_eff / motor torque per amp", Unit: "motor rad per rad or m", Doc: "The reduction from motor to joint."},
		{Name: "inertia", Kind: Float, HasRange: true, Min: 1e-9, Max: 1e6, DefaultDoc: "from the URDF child link", Unit: "kg·m² or kg", Doc: "The moving inertia (or mass) seen at the joint."},
		{Name: "damping", Kind: Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "N·m·s/rad or N·s/m", Doc: "Viscous friction."},
		{Name: "friction", Kind: Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "N·m or N", Doc: "Coulomb friction."},
		{Name: "load", Kind: Float, Default: 0.0, HasRange: true, Min: -1e6, Max: 1e6, Unit: "N·m or N", Doc: "A constant load pushing toward negative positions, such as gravity on an elevator."},
		{Name: "travel", Kind: Float, Default: 0.25, HasRange: true, Min: 0.001, Max: 60, Unit: "s", Doc: "Pistons, relays and digital outputs: the time to cross the joint's whole range."},
		{Name: "jumper", Kind: String, Enum: []string{"coast", "brake"}, Default: "coast",
			Doc: "A PWM motor controller's brake/coast jumper (or B/C CAL button), as set on the robot: PWM cannot set it, " +
				"so the sim is told. At zero output, disabled included, brake shorts the motor. (A CAN controller's is its entry's neutral_mode.)"},
	},
}

// SimSensorTypes are the device types a `sim: sensors:` entry may name:
// the sensors.
func SimSensorTypes() []string { return TypesWhere(func(t *Type) bool { return t.Group == "sensor" }) }

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
// name: those on the CAN bus (Facts.CAN; OnCAN says whether an entry is).
func SimCANFaultTypes() []string { return TypesWhere(func(t *Type) bool { return t.CAN }) }

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
		{Name: "left", Kind: StringList, Ref: SpeedRef, Doc: "tank: the left side's wheel joints."},
		{Name: "right", Kind: StringList, Ref: SpeedRef, Doc: "tank: the right side's wheel joints."},
		{Name: "front_left", Kind: String, Ref: SpeedRef, Doc: "mecanum: the front left wheel joint."},
		{Name: "front_right", Kind: String, Ref: SpeedRef, Doc: "mecanum: the front right wheel joint."},
		{Name: "rear_left", Kind: String, Ref: SpeedRef, Doc: "mecanum: the rear left wheel joint."},
		{Name: "rear_right", Kind: String, Ref: SpeedRef, Doc: "mecanum: the rear right wheel joint."},
		{Name: "drive", Kind: StringList, Ref: SpeedRef, Doc: "swerve: the four modules' drive wheel joints."},
		{Name: "steer", Kind: StringList, Ref: []Role{SpeedControllerRole, Role(ServoPositionController)}, Doc: "swerve: the four modules' steering joints, in the order of drive; the wheel rolls along its steering angle."},
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
		if k.Ref != nil && d.Has(k.Name) && !slices.Contains(allowed, k.Name) {
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
