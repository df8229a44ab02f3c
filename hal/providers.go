package hal

import (
	"fmt"
	"strings"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"
)

// The providers a backend may implement besides Backend, one per kind of
// hardware. Devices reach them through the Open helpers below, which say
// clearly what a backend lacks.

// PWMs is a backend with PWM outputs (the roboRIO's header and MXP).
type PWMs interface {
	OpenPWM(channel int) (PWM, error)
}

// DigitalIOs is a backend with DIO channels by number.
type DigitalIOs interface {
	OpenDigitalIn(channel int) (DigitalIn, error)
	OpenDigitalOut(channel int) (DigitalOut, error)
}

// DutyCycleOuts is a backend that can generate a PWM signal on a DIO
// channel.
type DutyCycleOuts interface {
	OpenDutyCycleOut(channel int) (DutyCycleOut, error)
}

// DutyCycleIns is a backend that measures a PWM signal's duty cycle on a
// channel.
type DutyCycleIns interface {
	OpenDutyCycleIn(channel int) (DutyCycleIn, error)
}

// AddressableLEDs is a backend that drives addressable LEDs on a channel:
// length LEDs from start in a buffer all channels share, in order.
type AddressableLEDs interface {
	OpenAddressableLED(channel, start, length int, order LEDOrder) (AddressableLED, error)
}

// AnalogIns is a backend with analog inputs.
type AnalogIns interface {
	// OpenAnalogIn opens an analog input, averaging 2^averageBits samples
	// and oversampling 2^oversampleBits (the FPGA's accumulator settings).
	OpenAnalogIn(channel, averageBits, oversampleBits int) (AnalogIn, error)
}

// AnalogOuts is a backend with analog outputs.
type AnalogOuts interface {
	OpenAnalogOut(channel int) (AnalogOut, error)
}

// Encoders is a backend that counts quadrature edges on two DIO channels.
type Encoders interface {
	OpenEncoder(channelA, channelB int, enc Encoding) (Encoder, error)
}

// Relays is a backend with relay channels.
type Relays interface {
	OpenRelay(channel int) (Relay, error)
}

// CANBuses is a backend with a CAN bus; it is shared, so it is not
// opened. A backend with more than one is also a NamedCAN.
type CANBuses interface {
	CAN() CANBus
}

// CANMotors is a backend that drives CAN motor controllers without a
// public wire protocol (CTRE's, through a vendor library on a robot).
type CANMotors interface {
	// OpenCANMotor opens a motor controller by CAN id; model names the
	// controller to the vendor library.
	OpenCANMotor(model string, id int) (CANMotor, error)
}

// Pigeons is a backend that reads CTRE Pigeon IMUs.
type Pigeons interface {
	// OpenPigeon opens a Pigeon IMU by CAN id, or, when talonID is 0 or
	// more, the Pigeon cabled to that Talon SRX.
	OpenPigeon(id, talonID int) (Pigeon, error)
}

// RIOPorts is a backend with the roboRIO's SPI and I2C ports by WPILib
// number.
type RIOPorts interface {
	// SPI returns an SPI port: 0-3 onboard chip selects, 4 the MXP.
	SPI(port int) (spi.Port, error)
	// I2C returns an I2C bus: 0 onboard, 1 the MXP.
	I2C(port int) (i2c.Bus, error)
}

// VendorLibs is implemented by backends that reach some providers through
// vendor libraries loaded at run time (hal/ctre's CTRE Phoenix): Vendor
// returns the object providing them, or nil when none loaded (the
// backend's Lacks then says why). The Open helpers and CapsOf look there
// too.
type VendorLibs interface {
	Vendor() any
}

// ProviderOf is b, or its vendor libraries, as the provider P: how a
// provider package outside hal (hal/phoenix6) finds its interface.
func ProviderOf[P any](b any) (P, bool) {
	if p, ok := b.(P); ok {
		return p, true
	}
	if v, ok := b.(VendorLibs); ok {
		if p, ok := v.Vendor().(P); ok {
			return p, true
		}
	}
	var zero P
	return zero, false
}

// Caps is a set of providers, for saying before a robot is built what a
// backend can run: a device type needs some (devices.Driver.Needs), a
// backend has some (CapsOf).
type Caps uint32

// The providers as Caps.
const (
	CapPWM            Caps = 1 << iota // PWMs
	CapDIO                             // DigitalIOs
	CapDutyCycle                       // DutyCycleOuts
	CapAnalogIn                        // AnalogIns
	CapAnalogOut                       // AnalogOuts
	CapEncoder                         // Encoders
	CapRelay                           // Relays
	CapCAN                             // CANBuses
	CapCANMotor                        // CANMotors
	CapPigeon                          // Pigeons
	CapRIOPorts                        // RIOPorts
	CapLinuxBuses                      // LinuxBuses
	CapAccel                           // BuiltInAccelerometer
	CapIMU                             // BuiltInIMUs
	CapDutyCycleIn                     // DutyCycleIns
	CapAddressableLED                  // AddressableLEDs
)

// capNames names each provider bit in order: hal's own, then those
// RegisterCap added.
var capNames = []string{
	"PWM outputs", "DIO channels", "DIO duty-cycle outputs", "analog inputs", "analog outputs", "quadrature encoders",
	"relay channels", "a CAN bus", "vendor-library CAN motor controllers", "vendor-library Pigeon IMUs",
	"roboRIO SPI or I2C ports", "Linux SPI or I2C buses by number", "a built-in accelerometer",
	"a built-in IMU", "duty-cycle inputs", "addressable LEDs",
}

// registeredCap is a provider another package declared (RegisterCap):
// its bit and how to tell a provider of it.
type registeredCap struct {
	c   Caps
	has func(p any) bool
}

// registered are the providers other packages declared, in the order
// they did. Written only while packages initialize.
var registered []registeredCap

// RegisterCap declares a provider that a package outside hal defines (a
// vendor's devices: hal/phoenix6's Provider), so that hal names no vendor:
// CapsOf then finds P in a backend or its vendor libraries as it finds
// hal's own. name says what it is in messages ("CTRE Phoenix 6 devices").
// It returns the provider's bit, the next free one. Call it once, from a
// variable of the providing package, which Go sets before any importer's:
//
//	var Cap = hal.RegisterCap[Provider]("CTRE Phoenix 6 devices")
//
// Which bit that is depends on the providers a binary links and the order
// Go initializes their packages (by import path: a provider package whose
// path sorts before hal/phoenix6 takes the bit Phoenix 6 has now), so a Caps value
// holding registered bits means something only in the process that made
// it: never store or send one, and never compute a set from AllCaps in a
// package variable (it holds only those registered so far; the sim's entry
// is hal.CapsOf of the Sim instead). It panics on a name given twice or
// past 32 providers, as a program that cannot start.
func RegisterCap[P any](name string) Caps {
	for _, n := range capNames {
		if n == name {
			panic("hal: provider " + name + " registered twice")
		}
	}
	if len(capNames) == 32 {
		panic("hal: more than 32 providers")
	}
	c := Caps(1) << len(capNames)
	capNames = append(capNames, name)
	registered = append(registered, registeredCap{c, func(p any) bool { _, ok := p.(P); return ok }})
	return c
}

// AllCaps is every provider, hal's own and those registered (the sim's
// set).
func AllCaps() Caps { return Caps(1)<<len(capNames) - 1 }

// String names the providers: "PWM outputs, a CAN bus".
func (c Caps) String() string {
	var parts []string
	for i, n := range capNames {
		if c&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, ", ")
}

// Lacked names the providers of c as "has no ..." takes them: "no CAN
// bus", not "no a CAN bus".
func (c Caps) Lacked() string {
	var parts []string
	for i, n := range capNames {
		if c&(1<<i) != 0 {
			parts = append(parts, strings.TrimPrefix(n, "a "))
		}
	}
	return strings.Join(parts, ", ")
}

// CapsOf is the set of providers b implements.
func CapsOf(b any) Caps {
	var c Caps
	has := func(ok bool, cap Caps) {
		if ok {
			c |= cap
		}
	}
	_, ok := b.(PWMs)
	has(ok, CapPWM)
	_, ok = b.(DigitalIOs)
	has(ok, CapDIO)
	_, ok = b.(DutyCycleOuts)
	has(ok, CapDutyCycle)
	_, ok = b.(AnalogIns)
	has(ok, CapAnalogIn)
	_, ok = b.(AnalogOuts)
	has(ok, CapAnalogOut)
	_, ok = b.(Encoders)
	has(ok, CapEncoder)
	_, ok = b.(Relays)
	has(ok, CapRelay)
	_, ok = b.(CANBuses)
	has(ok, CapCAN)
	_, ok = b.(CANMotors)
	has(ok, CapCANMotor)
	_, ok = b.(Pigeons)
	has(ok, CapPigeon)
	_, ok = b.(RIOPorts)
	has(ok, CapRIOPorts)
	_, ok = b.(LinuxBuses)
	has(ok, CapLinuxBuses)
	_, ok = b.(BuiltInAccelerometer)
	has(ok, CapAccel)
	_, ok = b.(BuiltInIMUs)
	has(ok, CapIMU)
	_, ok = b.(DutyCycleIns)
	has(ok, CapDutyCycleIn)
	_, ok = b.(AddressableLEDs)
	has(ok, CapAddressableLED)
	for _, r := range registered {
		has(r.has(b), r.c)
	}
	if v, ok := b.(VendorLibs); ok && v.Vendor() != nil {
		c |= CapsOf(v.Vendor())
	}
	return c
}

// Lacker is implemented by backends that can say what to use instead of
// a provider they lack ("drive motors over CAN").
type Lacker interface {
	// Lacks returns advice for the providers c, or "".
	Lacks(c Caps) string
}

// LackError is the error of backend b without provider c: the backend's
// advice (Lacker) when it has some. A provider package outside hal
// returns it from its Open.
func LackError(b Backend, c Caps) error {
	if l, ok := b.(Lacker); ok {
		if why := l.Lacks(c); why != "" {
			return fmt.Errorf("this backend has no %s: %s: %w", c.Lacked(), why, ErrUnsupported)
		}
	}
	switch c {
	case CapLinuxBuses:
		return fmt.Errorf("this backend has no %s (on a roboRIO, give the port as id): %w", c.Lacked(), ErrUnsupported)
	case CapRIOPorts:
		return fmt.Errorf("this backend has no %s (on a Linux coprocessor, give the bus): %w", c.Lacked(), ErrUnsupported)
	}
	return fmt.Errorf("this backend has no %s: %w", c.Lacked(), ErrUnsupported)
}

// OpenPWM opens b's PWM output, or says b has none.
func OpenPWM(b Backend, channel int) (PWM, error) {
	if p, ok := b.(PWMs); ok {
		return p.OpenPWM(channel)
	}
	return nil, LackError(b, CapPWM)
}

// OpenDigitalIn opens b's DIO channel as an input, or says b has none.
func OpenDigitalIn(b Backend, channel int) (DigitalIn, error) {
	if p, ok := b.(DigitalIOs); ok {
		return p.OpenDigitalIn(channel)
	}
	return nil, LackError(b, CapDIO)
}

// OpenDigitalOut opens b's DIO channel as an output, or says b has none.
func OpenDigitalOut(b Backend, channel int) (DigitalOut, error) {
	if p, ok := b.(DigitalIOs); ok {
		return p.OpenDigitalOut(channel)
	}
	return nil, LackError(b, CapDIO)
}

// OpenDutyCycleOut opens b's DIO channel as a duty-cycle output, or says
// b has none.
func OpenDutyCycleOut(b Backend, channel int) (DutyCycleOut, error) {
	if p, ok := b.(DutyCycleOuts); ok {
		return p.OpenDutyCycleOut(channel)
	}
	return nil, LackError(b, CapDutyCycle)
}

// OpenDutyCycleIn opens b's channel as a duty-cycle input, or says b has
// none.
func OpenDutyCycleIn(b Backend, channel int) (DutyCycleIn, error) {
	if p, ok := b.(DutyCycleIns); ok {
		return p.OpenDutyCycleIn(channel)
	}
	return nil, LackError(b, CapDutyCycleIn)
}

// OpenAddressableLED opens b's channel as addressable LEDs, or says b
// has none.
func OpenAddressableLED(b Backend, channel, start, length int, order LEDOrder) (AddressableLED, error) {
	if p, ok := b.(AddressableLEDs); ok {
		return p.OpenAddressableLED(channel, start, length, order)
	}
	return nil, LackError(b, CapAddressableLED)
}

// OpenAnalogIn opens b's analog input, or says b has none.
func OpenAnalogIn(b Backend, channel, averageBits, oversampleBits int) (AnalogIn, error) {
	if p, ok := b.(AnalogIns); ok {
		return p.OpenAnalogIn(channel, averageBits, oversampleBits)
	}
	return nil, LackError(b, CapAnalogIn)
}

// OpenAnalogOut opens b's analog output, or says b has none.
func OpenAnalogOut(b Backend, channel int) (AnalogOut, error) {
	if p, ok := b.(AnalogOuts); ok {
		return p.OpenAnalogOut(channel)
	}
	return nil, LackError(b, CapAnalogOut)
}

// OpenEncoder opens b's quadrature encoder, or says b has none.
func OpenEncoder(b Backend, channelA, channelB int, enc Encoding) (Encoder, error) {
	if p, ok := b.(Encoders); ok {
		return p.OpenEncoder(channelA, channelB, enc)
	}
	return nil, LackError(b, CapEncoder)
}

// OpenRelay opens b's relay channel, or says b has none.
func OpenRelay(b Backend, channel int) (Relay, error) {
	if p, ok := b.(Relays); ok {
		return p.OpenRelay(channel)
	}
	return nil, LackError(b, CapRelay)
}

// OpenAccelerometer opens b's built-in accelerometer at a range of 2, 4
// or 8 g, or says b has none.
func OpenAccelerometer(b Backend, rangeG int) (Accelerometer, error) {
	if p, ok := b.(BuiltInAccelerometer); ok {
		return p.OpenAccelerometer(rangeG)
	}
	return nil, LackError(b, CapAccel)
}

// BuiltInIMUs is implemented by backends whose controller has an IMU of
// its own (Systemcore's).
type BuiltInIMUs interface {
	// OpenBuiltInIMU opens it; it can be opened once. Its Read gives what
	// a Pigeon's does: the orientation as a quaternion (w, x, y, z),
	// rad/s and m/s².
	OpenBuiltInIMU() (Pigeon, error)
}

// OpenBuiltInIMU opens b's built-in IMU, or says b has none.
func OpenBuiltInIMU(b Backend) (Pigeon, error) {
	if p, ok := b.(BuiltInIMUs); ok {
		return p.OpenBuiltInIMU()
	}
	return nil, LackError(b, CapIMU)
}

// OpenRIOPorts returns b's roboRIO SPI and I2C ports, or says b has none.
func OpenRIOPorts(b Backend) (RIOPorts, error) {
	if p, ok := b.(RIOPorts); ok {
		return p, nil
	}
	return nil, LackError(b, CapRIOPorts)
}
