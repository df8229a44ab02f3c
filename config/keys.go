package config

import (
	"math"
	"strconv"
)

// Keys that several device types share; each type's own keys are in its
// file in devices/.

// PCMIDKey and ModuleTypeKey are the pneumatics module a solenoid or
// compressor sits on: WPILib's PneumaticsModuleType and module number.
var (
	PCMIDKey = Key{Name: "pcm_id", Kind: Int, HasRange: true, Min: 0, Max: 62, DefaultDoc: "0 for a ctre_pcm, 1 for a rev_ph",
		Doc: "The CAN id of the pneumatics module (PCM or PH) the device is connected to."}
	ModuleTypeKey = Key{Name: "module_type", Kind: String, Enum: []string{ModuleCTREPCM, ModuleREVPH}, Default: ModuleCTREPCM,
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

// ModuleLabel names a device's pneumatics module for messages and claim
// scopes: "PCM 0", "PH 1 on CAN bus \"can1\"".
func ModuleLabel(d *Device) string {
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

// CheckModuleChannels refuses channels the device's module does not have.
func CheckModuleChannels(d *Device, c *Checker, keys ...string) {
	t, _ := PneumaticsModule(d)
	n := ModuleChannels(t)
	for _, k := range keys {
		if d.Has(k) && d.Int(k) >= n {
			c.Errorf(d.ValuePos(k), "%s: %s: channel %d is out of range 0-%d of a %s", d, k, d.Int(k), n-1, t)
		}
	}
}

// CANBusKey and RequiredKey go on every device on the CAN bus.
var (
	CANBusKey = Key{Name: "can_bus", Kind: String, Default: "", DefaultDoc: "the backend's default bus (can0 on Linux)",
		Doc: "The CAN bus the device is on, by name (can0, can1), for robots with more than one."}
	RequiredKey = Key{Name: "required", Kind: Bool, Default: false,
		Doc: "frcd refuses to enable the robot while this device is not heard on its CAN bus, or (a CTRE motor controller) has not taken its configuration; frcd runs all the same, and a device that is not required only shows as missing or configuring."}
)

// JointKey is the spec's `joint` key of the standard joint sensors: it is
// optional now, since the URDF says which joint a sensor measures, and is
// accepted only when it agrees with the URDF.
var JointKey = Key{Name: "joint", Kind: String,
	Doc: "The URDF joint this sensor measures. Optional: the URDF <sensor> placement decides; when given it must agree."}

// FrameIDKey is an IMU's tf2 frame.
var FrameIDKey = Key{Name: "frame_id", Kind: String, Required: true, Doc: "The tf2 frame of the sensor: a URDF link."}

// The sensor keys of a device measuring a joint through a geared sensor
// (a Talon FX's rotor, a CANcoder): the sensor turns
// sensor_to_mechanism_ratio times per turn of the mechanism, and a turn of
// the mechanism is distance_per_rotation of the joint (2π rad for a
// revolute joint; m for a prismatic one). Device.JointPerRotation is the
// one place their formula lives (the drivers and the sim's parts use it).
var (
	SensorRatioKey = Key{Name: "sensor_to_mechanism_ratio", Kind: Float, Default: 1.0, NonZero: true,
		Doc: "Sensor rotations per rotation of the mechanism (Phoenix 6's SensorToMechanismRatio): the gear reduction between the sensor and the joint."}
	DistancePerRotationKey = Key{Name: "distance_per_rotation", Kind: Float, Default: 2 * math.Pi, NonZero: true, Unit: "rad or m",
		Doc: "The joint's travel per rotation of the mechanism: 2π rad for a revolute joint, the travel in m for a prismatic one."}
)

// JointPerRotation is the joint distance of one sensor rotation of an
// entry with SensorRatioKey and DistancePerRotationKey: distance /
// ratio, negated when its `inverted` key is true.
func (d *Device) JointPerRotation() float64 {
	k := d.Float(DistancePerRotationKey.Name) / d.Float(SensorRatioKey.Name)
	if d.Bool("inverted") {
		k = -k
	}
	return k
}

// ClosedLoopKey goes on a speed controller with a closed loop of its own
// (a Talon FX, a SPARK): it chooses where position and velocity commands
// are closed. Its gain keys are the type's own (their units differ), and
// CheckDeviceGains refuses them unless the key is device.
var ClosedLoopKey = Key{Name: "closed_loop", Kind: String, Default: "roborio", Enum: []string{"roborio", "device"},
	Doc: "Where position and velocity controllers on this joint close their loop: roborio (the controller's PID, on the robot controller, through name/voltage) or device (the controller's own loop, through name/position and name/velocity, with this entry's gains, applied at start)."}

// ClosesLoop reports whether d closes position and velocity loops itself:
// its type has ClosedLoopKey and d sets it to device.
func (d *Device) ClosesLoop() bool {
	return d != nil && d.Type != nil && d.Type.Key(ClosedLoopKey.Name) != nil && d.Str(ClosedLoopKey.Name) == "device"
}

// CheckDeviceGains refuses gain keys on an entry that does not close its
// loop itself: they would do nothing.
func CheckDeviceGains(d *Device, c *Checker, gains ...string) {
	if d.ClosesLoop() {
		return
	}
	for _, k := range gains {
		if d.Has(k) {
			c.Errorf(d.KeyPos(k), "%s: %s is a gain of the device's own closed loop, used only with closed_loop: device (the roboRIO's PID takes its gains from the controller's pid)", d, k)
		}
	}
}
