package config

import (
	"slices"
	"sort"

	"github.com/frcd/frcd/frc"
)

// Facts are what the layers above config need to know about a device
// type, declared as data in the type's own file (devices/) so that no
// layer switches on a type's name: control merges joint states by Joint,
// robot checks positions and limits by Joint and Speed, wpilibws and the
// sim read PWM, validation finds CAN devices by CAN.
type Facts struct {
	// Roles are the kinds of reference the type answers to (Key.Ref):
	// the controller types that command it, say. Speed and Power add
	// SpeedControllerRole and PowerRole by themselves.
	Roles []Role
	// Joint is what the device contributes to its joint's state.
	Joint JointSource
	// ZeroEffort: the device sets its joint's effort to 0 (the spec's
	// digital inputs and outputs).
	ZeroEffort bool
	// EffortState: the device measures its joint's effort itself, in a
	// name/effort AnalogState (a SPARK's output current × k_eff); its
	// joint takes it when it has no power channel (pdp_ch).
	EffortState bool
	// Speed marks a speed controller: a motor drives its joint, with a
	// voltage, PID or profiled controller; a power channel's current ×
	// k_eff is the joint's effort; a force may push its joint.
	Speed bool
	// Travel names the keys bounding the positions the device commands
	// (a servo's angles), checked against its joint's URDF limits.
	Travel [2]string
	// Pulse names the keys of the shortest and longest pulse, in µs, a
	// positioning PWM output (a servo) sends.
	Pulse [2]string
	// JointOnly: the device measures a joint and nothing else, so in a
	// URDF link it reports nothing (an encoder).
	JointOnly bool
	// PWM is a PWM speed controller's pulse calibration.
	PWM *frc.PWMCalibration
	// DutyDIO names the key of the DIO channel that carries a speed
	// controller's duty cycle while its PWM output only enables it (the
	// Nidec Brushless).
	DutyDIO string
	// Power marks a power distribution device (a PDP or PDH) speed
	// controllers' pdp key may name.
	Power *Power
	// Effort names the keys that give the device's joint its effort from
	// a power channel: a speed controller's pdp, pdp_ch and k_eff.
	Effort *EffortKeys
	// CAN marks a device on the CAN bus: its own frames, or its
	// pneumatics module's. When CANWith is set, only while that key is
	// (a Pigeon with its own id, not one cabled to a Talon).
	CAN     bool
	CANWith string
	// CANSpace names the CAN id space a CANDevice key claims in when
	// several types share one on the wire (the same FRC device type and
	// manufacturer: a SPARK MAX and a SPARK Flex); "" is the type's own.
	CANSpace string
	// Controller is set on controller types (their own file in control/
	// declares them): what validation, robot's checks and the transports
	// read about a controller type instead of switching on its name.
	Controller *ControllerFacts
}

// ControllerFacts are what the layers read about a controller type.
type ControllerFacts struct {
	// JointStates marks the joint state controller: it claims nothing and
	// sets the state topics' rate; at most one.
	JointStates bool
	// Sensor, when set, marks a sensor broadcaster: it claims nothing and
	// publishes the device of this role its sensor_name key names at its
	// own publish_rate, which the state topics then leave to it (an IMU
	// sensor controller: IMURole). The manager lists it; the loop does not
	// run it.
	Sensor Role
	// Measures is what the controller needs measured on its joint: a
	// position PID a position, a velocity PID a velocity (both from an
	// encoder, an analog input or the motor controller's own sensor), an
	// effort PID an effort (a power channel or the device's current).
	Measures Provides
	// DeviceLoop: the set point goes to the joint's device's own closed
	// loop when the device closes it (closed_loop: device), on this
	// JointState field (Position or Velocity); the pid keys then have no
	// effect.
	DeviceLoop Provides
	// VelocityKey names the key giving a velocity limit that the joint's
	// URDF limit stands in for: one of the two is required.
	VelocityKey string
	// HardwareInterface is the hardware interface ros_control's
	// controller of the type claims its joints through
	// ("hardware_interface::EffortJointInterface"); frcd's own types name
	// frcd's ("frcd::voltage_controllers").
	HardwareInterface string
	// Hints are words people write for the type ("position"), for a
	// misspelt type's did-you-mean.
	Hints []string
	// ROS2Type is the ros2_controllers type doing the same job, which
	// ROS 2's list_controllers reports ("joint_state_broadcaster/
	// JointStateBroadcaster" for ros_controllers' joint state
	// controller); "" when ros2_controllers has none, and the type's own
	// name is reported. The YAML takes the type's own name.
	ROS2Type string
}

// Power is what a power distribution device is to the speed controllers
// it powers.
type Power struct {
	// What names it in messages: "PDP", "PDH".
	What string
	// Channels is the number of current channels (pdp_ch 0 to Channels-1).
	Channels int
	// DefaultID is the CAN id a speed controller's pdp defaults to: the
	// first type in order of DefaultID with a device of that id is taken
	// (WPILib's default modules: a PDP's 0, a PDH's 1).
	DefaultID int
}

// EffortKeys name the keys of a power channel's effort: the power
// distribution device (a reference key), its channel, and the current to
// effort scale (effort = current × scale).
type EffortKeys struct {
	Power, Channel, Scale string
}

// JointSource is what a device contributes to its joint's state.
type JointSource int

const (
	// NoJointState: nothing (a speed controller: sensors on its joint
	// measure it; the PDP gives effort).
	NoJointState JointSource = iota
	// RateSource is a Rate state: position and velocity. A sensor's is its
	// joint's position sensor (an encoder, an analog input); an output's
	// is its commanded value (an analog output).
	RateSource
	// SwitchSource is a Binary state read as a limit switch when the
	// device's `limit` is set, else as on: upper limit, off: lower (a
	// digital input).
	SwitchSource
	// BinarySource is a Binary state: on puts the joint at its upper
	// limit, off at its lower (a solenoid, a digital output).
	BinarySource
	// TernarySource is a Ternary state: forward at the upper limit,
	// reverse at the lower, off where it was (a double solenoid, a relay).
	TernarySource
	// PositionSource is a Position state: position only, the position the
	// device was commanded to (a servo).
	PositionSource
)

// NeedsLimits reports whether the source puts its joint at the joint's
// lower or upper limit, so that the joint needs URDF limits.
func (s JointSource) NeedsLimits() bool {
	return s == SwitchSource || s == BinarySource || s == TernarySource
}

// Role is a kind of device a reference key names (Key.Ref).
type Role string

// The roles a type gets from its facts; the controller type names
// (SolenoidController...) are roles too, declared in Facts.Roles by the
// types those controllers command.
const (
	SpeedControllerRole Role = "speed controller"   // Facts.Speed
	PowerRole           Role = "power distribution" // Facts.Power
	// PigeonHostRole is a device a Pigeon IMU may be cabled to.
	PigeonHostRole Role = "pigeon host"
	// IMURole is an IMU: a LinkSensor (a drive base's heading).
	IMURole Role = "IMU"
)

// Is reports whether the type answers to that role.
func (t *Type) Is(r Role) bool {
	switch {
	case r == SpeedControllerRole && t.Speed, r == PowerRole && t.Power != nil, r == IMURole && t.Place == LinkSensor:
		return true
	}
	for _, have := range t.Roles {
		if have == r {
			return true
		}
	}
	return false
}

// isAny reports whether the type answers to any of the roles.
func (t *Type) isAny(roles []Role) bool {
	for _, r := range roles {
		if t.Is(r) {
			return true
		}
	}
	return false
}

// TypesWith returns the names of the registered device types answering
// to any of the roles, sorted.
func TypesWith(roles ...Role) []string {
	return TypesWhere(func(t *Type) bool { return t.isAny(roles) })
}

// TypesWhere returns the names of the registered device types for which
// keep is true, sorted.
func TypesWhere(keep func(*Type) bool) []string {
	var names []string
	for _, n := range TypeNames() {
		if keep(types[n]) {
			names = append(names, n)
		}
	}
	return names
}

// OnCAN reports whether a device is on the CAN bus (Facts.CAN and
// CANWith).
func OnCAN(d *Device) bool {
	return d.Type != nil && d.Type.CAN && (d.Type.CANWith == "" || d.Has(d.Type.CANWith))
}

// powers are the registered power distribution types in order of their
// DefaultID, then name (Register keeps it): a speed controller's default
// pdp is looked up without allocating.
var powers []*Type

// addPower adds a power distribution type to powers, in order.
func addPower(t *Type) {
	i := sort.Search(len(powers), func(i int) bool {
		p := powers[i].Power.DefaultID
		return p > t.Power.DefaultID || p == t.Power.DefaultID && powers[i].Name > t.Name
	})
	powers = slices.Insert(powers, i, t)
}
