// Package hal declares the hardware abstraction layer: the small
// capability interfaces through which devices reach the hardware. It holds
// no implementation; backends live elsewhere (the simulated HAL in package
// sim; real backends under hal/...).
//
// Everything here is at the level the hardware works at, so that a driver
// runs unchanged on the sim and on a robot: PWM pulse widths, DIO levels,
// encoder edge counts, analog volts, relay contacts, raw CAN frames, SPI
// and I2C transfers. Units are in the names or the docs.
//
// Conventions every backend keeps (the sim emulates the real parts):
//   - A PWM pulse width of 0 means the output is disabled: no pulses,
//     which every PWM speed controller reads as neutral. Speed controllers
//     map widths to duty with their own calibration (center, deadband,
//     full-scale widths); a servo maps widths to angle linearly.
//   - An encoder counts edges of its A and B signals as the FPGA does in
//     its encoding: 1x counts one edge per pulse, 2x two, 4x four. The
//     count grows when A leads B.
//   - Analog inputs read 0-5 V, analog outputs write 0-5 V.
//   - DIO levels are electrical (true = high); inverting is the device's
//     business.
//   - CAN frames use 29-bit FRC identifiers (PROTOCOLS.md).
//   - A backend's Clock is the one the loop runs on; CAN receive stamps
//     are on the same clock.
//
// Errors: ErrNoDevice when a channel or device does not exist, ErrInUse
// when it is already open, ErrTimeout when data is too old, ErrClosed when
// the backend was closed, ErrConfiguring while a device is still being
// configured at start-up; all are wrapped, check with errors.Is.
//
// hal imports only the standard library and periph.io/x/conn/v3. The wire
// facts of FRC devices (CAN ids, calibrations) are in package frc.
package hal

import (
	"errors"
	"time"
)

// Sentinel errors, wrapped by backends and checked with errors.Is.
var (
	ErrNoDevice    = errors.New("no such device or channel")
	ErrInUse       = errors.New("already in use")
	ErrTimeout     = errors.New("timed out")
	ErrClosed      = errors.New("closed")
	ErrUnsupported = errors.New("not supported by this backend")
	// ErrConfiguring is a device's Read while it is starting up within
	// its normal time (a SPARK not yet answering its version request or
	// acknowledging its configuration): no error, a state of its own. Its
	// readings are absent meanwhile, as after a failed Read, and the
	// device decides what it may drive (a SPARK with its own loop gets no
	// set point). A device returns it only within its own bound, and
	// ErrTimeout after; the loop counts it as a failure anyway once a
	// device has been configuring for MaxConfiguring.
	ErrConfiguring = errors.New("starting up")
)

// MaxConfiguring is the longest a device may go on configuring (Reads
// failing with ErrConfiguring, without a pause) before the loop counts
// each such Read as a failure whatever the device says.
const MaxConfiguring = 10 * time.Second

// Clock is the time the loop runs on: a monotonic duration since the
// backend started. The sim's advances only when stepped.
type Clock interface {
	Now() time.Duration
}

// PWM is one PWM output channel (the roboRIO's PWM header and the MXP).
type PWM interface {
	// SetPulse sets the width of the pulse sent every period. 0 disables
	// the output: no pulses at all.
	SetPulse(width time.Duration) error
}

// DigitalIn is one DIO channel used as an input.
type DigitalIn interface {
	// Get reads the electrical level: true is high.
	Get() (bool, error)
}

// DigitalOut is one DIO channel used as an output.
type DigitalOut interface {
	// Set drives the level: true is high.
	Set(high bool) error
}

// DutyCycleOut is a DIO output generating a PWM signal, as the Nidec
// Brushless's direction/speed line wants. Duty is 0 to 1; a backend found
// to support it returns one from Digital's OpenDutyCycleOut.
type DutyCycleOut interface {
	SetDutyCycle(duty float64) error
}

// DutyCycleIn is one channel measuring a PWM signal: how much of each
// period it is high, as an absolute encoder (REV's Through Bore, CTRE's
// CANcoder's PWM output) gives its angle.
type DutyCycleIn interface {
	// Output is the fraction of each period the signal is high, 0 to 1.
	Output() (float64, error)
	// Frequency is the signal's frequency, Hz; 0 when none is seen (no
	// sensor plugged in).
	Frequency() (float64, error)
}

// AddressableLED is one channel's string of addressable LEDs (WS2812B
// and the like): a window of LEDs the backend drives.
type AddressableLED interface {
	// SetColors writes every LED of the window: rgb holds red, green and
	// blue, 0-255, for each LED in turn, 3 × the window's length bytes.
	SetColors(rgb []byte) error
}

// LEDOrder is the order an LED string takes its colours in, as the 2027
// HAL's HAL_AddressableLEDColorOrder numbers them.
type LEDOrder int

// The colour orders.
const (
	LEDRGB LEDOrder = iota
	LEDRBG
	LEDBGR
	LEDBRG
	LEDGBR
	LEDGRB
)

// LEDOrders names the colour orders, indexed by LEDOrder.
var LEDOrders = []string{"rgb", "rbg", "bgr", "brg", "gbr", "grb"}

// AnalogIn is one analog input channel.
type AnalogIn interface {
	// Voltage reads the input, 0-5 V. A backend that averages or
	// oversamples does so as configured when the channel was opened.
	Voltage() (float64, error)
}

// AnalogOut is one analog output channel (MXP).
type AnalogOut interface {
	// SetVoltage drives the output, 0-5 V; values beyond are clamped.
	SetVoltage(v float64) error
}

// Encoding is an encoder's decoding: how many edges it counts per pulse.
type Encoding int

const (
	X1 Encoding = 1
	X2 Encoding = 2
	X4 Encoding = 4
)

// Encoder is a quadrature counter on two DIO channels.
type Encoder interface {
	// Count is the number of edges counted since the encoder was opened,
	// per its encoding; negative when it has turned backwards (B leads A).
	Count() (int64, error)
}

// Relay is one relay channel (a Spike): two contacts, forward and reverse.
type Relay interface {
	Set(forward, reverse bool) error
}

// Frame is one CAN frame with a 29-bit extended identifier.
type Frame struct {
	ID   uint32
	Len  uint8
	Data [8]byte
	// RTR makes it a remote frame: a request for the data frame of the
	// same id, Len its data length code (the length asked for), no data
	// sent. A REV SPARK's firmware version is asked so.
	RTR bool
}

// CANBus sends frames and keeps the newest frame received per id, as the
// WPILib HAL does: a driver polls for the frames it wants each cycle and
// never blocks.
type CANBus interface {
	// Send queues a frame for transmission.
	Send(f Frame) error
	// Latest returns the newest frame received with that id, and when it
	// arrived (on the backend's Clock). ok is false when none has arrived.
	Latest(id uint32) (f Frame, at time.Duration, ok bool)
}

// CANMotor is a CAN motor controller without a public wire protocol (CTRE
// Talon SRX and Victor SPX, driven through a vendor library on a robot).
// The sim emulates it behind this interface.
type CANMotor interface {
	// SetDuty sets the output, -1 to 1 of the bus voltage; 0 is neutral.
	SetDuty(duty float64) error
	// Status reads the controller's own measurements.
	Status() (MotorStatus, error)
}

// NeutralMode is what a motor controller does with its motor at zero
// output (neutral, disabled): coast leaves the windings open, brake
// shorts them, so the motor's back-EMF brakes it.
type NeutralMode uint8

const (
	NeutralDevice NeutralMode = iota // leave the controller's saved setting (Phoenix 5's EEPROMSetting)
	NeutralCoast
	NeutralBrake
)

func (m NeutralMode) String() string {
	switch m {
	case NeutralCoast:
		return "coast"
	case NeutralBrake:
		return "brake"
	}
	return "device"
}

// CANMotorConfig is a CTRE Phoenix 5 motor controller's neutral mode and
// (Talon SRX only) current limit, in Phoenix 5's terms: once the current
// exceeds PeakA for PeakMs, it is held to ContinuousA, while
// CurrentLimit is on (ConfigPeakCurrentLimit, ConfigPeakCurrentDuration,
// ConfigContinuousCurrentLimit, EnableCurrentLimit).
type CANMotorConfig struct {
	Neutral                    NeutralMode
	CurrentLimit               bool
	PeakA, PeakMs, ContinuousA int
	HasCurrentLimit            bool // a Talon SRX: the limit applies; a Victor SPX has none
}

// CANMotorConfigurer is a CANMotor whose neutral mode and current limit
// can be applied (at start, never in the loop) and read back: Config
// gives what the controller holds, ok false for what it cannot say
// (Phoenix 5 has no getter for the neutral mode).
type CANMotorConfigurer interface {
	ApplyConfig(c CANMotorConfig) error
	Config() (c CANMotorConfig, neutralKnown bool, err error)
}

// MotorStatus is what a smart motor controller reports about itself.
type MotorStatus struct {
	BusVoltage    float64 // V at its input
	OutputCurrent float64 // A, magnitude
	Temperature   float64 // °C
}

// Pigeon is a CTRE Pigeon IMU, on the CAN bus or cabled to a Talon SRX;
// like CANMotor it needs a vendor library on a robot.
type Pigeon interface {
	// Read returns the fused orientation as a quaternion (w, x, y, z), the
	// angular velocity in rad/s about x, y, z and the acceleration in
	// m/s² along x, y, z.
	Read() (q [4]float64, gyro, accel [3]float64, err error)
}

// Mode is the Driver Station's robot mode.
type Mode int

const (
	Teleop Mode = iota
	Autonomous
	Test
)

func (m Mode) String() string {
	switch m {
	case Autonomous:
		return "autonomous"
	case Test:
		return "test"
	}
	return "teleop"
}

// DSState is the Driver Station's control word.
type DSState struct {
	Enabled bool
	EStop   bool
	Mode    Mode
	// Attached is false when no Driver Station is connected (always
	// disabled then).
	Attached bool
	// FMS: the Driver Station says the field's management system is
	// attached (the control word's fmsAttached bit, in both WPILib HALs).
	FMS bool
	// OpMode is the op mode selected (OpMode.ID; opmode.go): by the 2027
	// Driver Station in its control word, by the sim's WebSocket Driver
	// Station, or by the daemon's dashboard chooser; 0 when none.
	OpMode int64
}

// DriverStation reports whether the robot may move.
type DriverStation interface {
	DS() DSState
}

// Backend is what every backend has: its Clock, the Driver Station and
// its input voltage. Everything else a backend can do it offers as small
// providers (providers.go), found by type assertion: a backend implements
// the providers its hardware has, and a device its backend lacks is
// refused with ErrUnsupported when the robot is built (the Open helpers).
// The daemon owns the backend; devices borrow what they open and never
// close it. Each Open* refuses a channel that is already open with
// ErrInUse.
type Backend interface {
	Clock
	DriverStation
	Power
}

// Power is the roboRIO's own measurement of its input.
type Power interface {
	// Vin is the voltage at the controller's power input (the battery
	// less the wiring's drop), V.
	Vin() (float64, error)
}

// AlwaysHigh, given to PWM.SetPulse, holds the line high all period, as
// the Nidec Brushless's enable line wants.
const AlwaysHigh = time.Duration(1<<63 - 1)
