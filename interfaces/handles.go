package interfaces

import (
	"math"
	"time"
)

// Interface names: the second half of a handle's key.
const (
	Analog     = "analog"     // AnalogState, AnalogCommand
	Binary     = "binary"     // BinaryState, BinaryCommand
	Ternary    = "ternary"    // TernaryState, TernaryCommand
	Rate       = "rate"       // RateState
	PDP        = "pdp"        // PDPState
	IMU        = "imu"        // IMUState
	Joint      = "joint"      // JointState
	Compressor = "compressor" // CompressorState
	Position   = "position"   // JointCommand: rad or m
	Velocity   = "velocity"   // JointCommand: rad/s or m/s
	Effort     = "effort"     // JointCommand: N·m or N
	Voltage    = "voltage"    // JointCommand: V
)

// Key is a handle's registry key, "name/interface".
func Key(name, iface string) string { return name + "/" + iface }

// AnalogState is one float64 reading: a sensor's value or an output's last
// commanded value.
type AnalogState struct{ Value float64 }

// BinaryState is one boolean reading.
type BinaryState struct{ Value bool }

// Tri is the spec's tri-state value: reverse, off or forward, as a double
// solenoid or a relay sees it.
type Tri int8

const (
	Reverse Tri = -1
	Off     Tri = 0
	Forward Tri = 1
)

func (t Tri) String() string {
	switch t {
	case Reverse:
		return "reverse"
	case Forward:
		return "forward"
	case Off:
		return "off"
	}
	return "invalid"
}

// Valid reports whether t is Reverse, Off or Forward.
func (t Tri) Valid() bool { return t >= Reverse && t <= Forward }

// TernaryState is one tri-state reading.
type TernaryState struct{ Value Tri }

// RateState is a position-like value and its rate of change, as an encoder
// or an analog input reports it (the spec's TODO: RateState != AnalogState).
type RateState struct {
	State float64 // rad or m
	Rate  float64 // rad/s or m/s
}

// PDPChannels is the most current channels a power distribution device
// has: a REV PDH's 24 (a CTRE PDP has 16).
const PDPChannels = 24

// PDPState is a power distribution panel's (CTRE PDP) or hub's (REV PDH)
// state. A PDH reports no temperature, power or energy: they stay 0.
type PDPState struct {
	Voltage      float64              // bus voltage, V
	Temperature  float64              // °C
	TotalCurrent float64              // A
	TotalPower   float64              // W
	TotalEnergy  float64              // J since the last reset
	Channels     int                  // how many of Current the device has: 16 (PDP) or 24 (PDH)
	Current      [PDPChannels]float64 // per channel, A
}

// IMUState is an IMU's state, as sensor_msgs/Imu carries it. A covariance
// whose first element is -1 means "not provided", as in that message.
type IMUState struct {
	Orientation                  [4]float64 // quaternion x, y, z, w
	OrientationCovariance        [9]float64
	AngularVelocity              [3]float64 // rad/s about x, y, z
	AngularVelocityCovariance    [9]float64
	LinearAcceleration           [3]float64 // m/s² along x, y, z
	LinearAccelerationCovariance [9]float64
}

// CompressorState is a compressor's state, as its PCM reports it (the
// spec's TODO: current pressure switch and current draw).
type CompressorState struct {
	ClosedLoop bool    // closed-loop control is enabled
	Running    bool    // the compressor is on
	Full       bool    // the pressure switch reads full (open at about 120 psi)
	Current    float64 // A
}

// Fields says which of a JointState's values are present.
type Fields uint8

const (
	HasPosition Fields = 1 << iota
	HasVelocity
	HasEffort
)

// JointState is a joint's position, velocity and effort, each of which may
// be absent: a joint that nothing measures has no state, not a zero one.
type JointState struct {
	Position float64 // rad or m
	Velocity float64 // rad/s or m/s
	Effort   float64 // N·m or N
	Has      Fields
}

// Clear marks every value absent, as at the start of each merge.
func (j *JointState) Clear() { *j = JointState{} }

// SetPosition sets the position and marks it present.
func (j *JointState) SetPosition(p float64) { j.Position, j.Has = p, j.Has|HasPosition }

// SetVelocity sets the velocity and marks it present.
func (j *JointState) SetVelocity(v float64) { j.Velocity, j.Has = v, j.Has|HasVelocity }

// SetEffort sets the effort and marks it present.
func (j *JointState) SetEffort(e float64) { j.Effort, j.Has = e, j.Has|HasEffort }

// Command is a command handle's value, with when it was last set so that a
// stale command can be made neutral. The zero value holds no command.
type Command[T any] struct {
	Value T
	Stamp time.Duration // when Put was last called
	Set   bool          // a command has been set since start or Reset
}

// Put sets the command at time now.
func (c *Command[T]) Put(v T, now time.Duration) { c.Value, c.Stamp, c.Set = v, now, true }

// Reset drops the command: a neutral output follows.
func (c *Command[T]) Reset() { var zero T; c.Value, c.Set = zero, false }

// Fresh reports whether a command is set and no older than timeout at now.
// A timeout of 0 or less never expires.
func (c *Command[T]) Fresh(now, timeout time.Duration) bool {
	return c.Set && (timeout <= 0 || now-c.Stamp <= timeout)
}

// AnalogCommand is a float64 command (an analog output's value).
type AnalogCommand = Command[float64]

// BinaryCommand is a boolean command (a solenoid, a digital output, a
// compressor's closed-loop enable).
type BinaryCommand = Command[bool]

// TernaryCommand is a tri-state command (a double solenoid, a relay).
type TernaryCommand = Command[Tri]

// JointCommand is a joint command on the Position, Velocity, Effort or
// Voltage interface.
type JointCommand = Command[float64]

// Finite reports whether v is a number a command may carry: not NaN and not
// infinite. Commands that are not are refused and counted by the loop.
func Finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
