package config

import (
	"math"
	"strconv"
)

// The spec's "Supported WPILib & Vendor actuators", less the speed
// controllers (devices_speed.go).

// The pneumatics module a solenoid or compressor sits on: WPILib's
// PneumaticsModuleType and module number.
var (
	pcmIDKey = Key{Name: "pcm_id", Kind: Int, HasRange: true, Min: 0, Max: 62, DefaultDoc: "0 for a ctre_pcm, 1 for a rev_ph",
		Doc: "The CAN id of the pneumatics module (PCM or PH) the device is connected to."}
	moduleTypeKey = Key{Name: "module_type", Kind: String, Enum: []string{ModuleCTREPCM, ModuleREVPH}, Default: ModuleCTREPCM,
		Doc: "The pneumatics module: a CTRE PCM (channels 0-7) or a REV Pneumatic Hub (channels 0-15), as WPILib's PneumaticsModuleType CTREPCM and REVPH."}
)

// Pneumatics module types.
const (
	ModuleCTREPCM = "ctre_pcm"
	ModuleREVPH   = "rev_ph"
)

// PneumaticsModule is the module a solenoid, double solenoid or
// compressor sits on: its module_type and CAN id (pcm_id, defaulting to 0
// for a PCM and 1 for a PH, as WPILib's modules do).
func PneumaticsModule(d *Device) (moduleType string, id int) {
	moduleType = d.Str("module_type")
	if moduleType == "" {
		moduleType = ModuleCTREPCM
	}
	switch {
	case d.Has("pcm_id"):
		id = d.Int("pcm_id")
	case moduleType == ModuleREVPH:
		id = 1
	}
	return moduleType, id
}

// ModuleChannels is the number of solenoid channels of a pneumatics
// module type.
func ModuleChannels(moduleType string) int {
	if moduleType == ModuleREVPH {
		return 16
	}
	return 8
}

// moduleLabel names a device's pneumatics module for messages and claim
// scopes: "PCM 0", "PH 1 on CAN bus \"can1\"".
func moduleLabel(d *Device) string {
	t, id := PneumaticsModule(d)
	s := "PCM " + strconv.Itoa(id)
	if t == ModuleREVPH {
		s = "PH " + strconv.Itoa(id)
	}
	if b := d.CANBus(); b != "" {
		s += " on CAN bus " + strconv.Quote(b)
	}
	return s
}

// checkModuleChannels refuses channels the device's module does not have.
func checkModuleChannels(d *Device, c *Checker, keys ...string) {
	t, _ := PneumaticsModule(d)
	n := ModuleChannels(t)
	for _, k := range keys {
		if d.Has(k) && d.Int(k) >= n {
			c.Errorf(d.ValuePos(k), "%s: %s: channel %d is out of range 0-%d of a %s", d, k, d.Int(k), n-1, t)
		}
	}
}

// canBusKey and requiredKey go on every device on the CAN bus.
var (
	canBusKey = Key{Name: "can_bus", Kind: String, Default: "", DefaultDoc: "the backend's default bus (can0 on Linux)",
		Doc: "The CAN bus the device is on, by name (can0, can1), for robots with more than one."}
	requiredKey = Key{Name: "required", Kind: Bool, Default: false,
		Doc: "frcd refuses to enable the robot while this device is not heard on its CAN bus."}
)

var analogOutput = &Type{
	Name: "analog_output", Class: "AnalogOutput", Group: "actuator",
	Summary: "A roboRIO analog output (MXP).",
	Doc: "State: the last commanded value as a RateState; command: an AnalogCommand. Named after a URDF joint, it sets " +
		"that JointState's position and velocity; named otherwise (an LED, say), it gets no joint state.",
	Place: Output, Provides: Position | Velocity,
	Keys: []Key{
		{Name: "aout_channel", Kind: Int, Required: true, Resource: AnalogOut, Doc: "The analog output channel."},
		{Name: "scale", Kind: Float, Required: true, NonZero: true, Unit: "rad or m", Doc: "The full-scale value of the output: the value at 5 V, less the offset."},
		{Name: "offset", Kind: Float, Required: true, Unit: "rad or m", Doc: "The offset value of the output: the value at 0 V."},
	},
}

var digitalOutput = &Type{
	Name: "digital_output", Class: "DigitalOutput", Group: "actuator",
	Summary: "A roboRIO DIO channel used as an output.",
	Doc: "State: the last commanded value as a BinaryState; command: a BinaryCommand. Named after a URDF joint, it sets " +
		"that joint's position to its upper limit when on and lower when off; named otherwise (an LED), it gets no joint state.",
	Place: Output, Provides: Position | Velocity | Effort,
	Keys: []Key{
		{Name: "dio_channel", Kind: Int, Required: true, Resource: DIO, Doc: "The DIO channel of the output."},
		{Name: "inverted", Kind: Bool, Default: false, Doc: "Whether the output should be inverted."},
	},
}

var doubleSolenoid = &Type{
	Name: "double_solenoid", Class: "DoubleSolenoid", Group: "actuator",
	Summary: "A double-acting solenoid valve on two channels of one PCM or PH.",
	Doc: "State: the last commanded value as a TernaryState (reverse, off, forward); command: a TernaryCommand. " +
		"The joint's position is its upper limit after forward, its lower limit after reverse, unchanged after off.",
	Place: DrivesJoint, Provides: Position | Velocity | Effort,
	Keys: []Key{
		{Name: "forward_id", Kind: Int, Required: true, Resource: PCMChannel, Scope: "pcm_id", Doc: "The module channel of the forward direction."},
		{Name: "reverse_id", Kind: Int, Required: true, Resource: PCMChannel, Scope: "pcm_id", Doc: "The module channel of the reverse direction."},
		pcmIDKey, moduleTypeKey, canBusKey, requiredKey,
	},
	Check: func(d *Device, c *Checker) {
		checkModuleChannels(d, c, "forward_id", "reverse_id")
		if d.Has("forward_id") && d.Has("reverse_id") && d.Int("forward_id") == d.Int("reverse_id") {
			c.Errorf(d.ValuePos("reverse_id"), "%s: forward_id and reverse_id are both PCM channel %d", d, d.Int("forward_id"))
		}
	},
}

var relay = &Type{
	Name: "relay", Class: "Relay", Group: "actuator",
	Summary: "A Spike relay on a roboRIO relay channel.",
	Doc: "State: the last commanded value as a TernaryState; command: a TernaryCommand. Named after a URDF joint, forward " +
		"puts the joint at its upper limit and reverse at its lower. A relay driving two separate actuators is not supported.",
	Place: Output, Provides: Position | Velocity | Effort,
	Keys: []Key{
		{Name: "relay_id", Kind: Int, Required: true, Resource: RelayChannel, Doc: "The relay channel."},
		{Name: "direction", Kind: String, Required: true, Enum: []string{"both", "forward", "reverse"}, Doc: "Which directions the relay may drive."},
	},
}

var servo = &Type{
	Name: "servo", Class: "Servo", Group: "actuator",
	Summary: "A hobby servo on a roboRIO PWM channel.",
	Doc: "State: the last commanded position as a JointState (position only); command: a position JointHandle. " +
		"min_angle..max_angle maps linearly onto min_pulse_us..max_pulse_us.",
	Place: DrivesJoint, Provides: Position,
	Keys: []Key{
		{Name: "id", Kind: Int, Required: true, Resource: PWM, Doc: "The PWM channel."},
		{Name: "min_angle", Kind: Float, Default: 0.0, Unit: "rad", Doc: "The joint position at the shortest pulse."},
		{Name: "max_angle", Kind: Float, Default: math.Pi, Unit: "rad", Doc: "The joint position at the longest pulse."},
		{Name: "min_pulse_us", Kind: Int, Default: 600, HasRange: true, Min: 500, Max: 2500, Unit: "µs", Doc: "The shortest pulse the servo accepts."},
		{Name: "max_pulse_us", Kind: Int, Default: 2400, HasRange: true, Min: 500, Max: 2500, Unit: "µs", Doc: "The longest pulse the servo accepts."},
	},
	Check: func(d *Device, c *Checker) {
		if d.Int("min_pulse_us") >= d.Int("max_pulse_us") {
			c.Errorf(d.ValuePos("max_pulse_us"), "%s: max_pulse_us (%d) must be greater than min_pulse_us (%d)", d, d.Int("max_pulse_us"), d.Int("min_pulse_us"))
		}
		if d.Float("min_angle") == d.Float("max_angle") {
			c.Errorf(d.ValuePos("max_angle"), "%s: min_angle and max_angle are equal", d)
		}
	},
}

var solenoid = &Type{
	Name: "solenoid", Class: "Solenoid", Group: "actuator",
	Summary: "A single-acting solenoid valve on one channel of a PCM or PH.",
	Doc: "State: the last commanded value as a BinaryState; command: a BinaryCommand. The joint's position is its " +
		"upper limit when on and its lower limit when off.",
	Place: DrivesJoint, Provides: Position | Velocity | Effort,
	Keys: []Key{
		{Name: "id", Kind: Int, Required: true, Resource: PCMChannel, Scope: "pcm_id", Doc: "The module channel of the solenoid."},
		pcmIDKey, moduleTypeKey, canBusKey, requiredKey,
	},
	Check: func(d *Device, c *Checker) { checkModuleChannels(d, c, "id") },
}

var actuatorTypes = []*Type{analogOutput, digitalOutput, doubleSolenoid, relay, servo, solenoid}
