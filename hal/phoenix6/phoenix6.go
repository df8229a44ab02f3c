// Package phoenix6 declares CTRE's Phoenix 6 devices (Talon FX, CANcoder,
// Pigeon 2) as a provider a backend may implement, outside the core hal
// package, which names no vendor: hal/ctre provides them over CTRE's C
// interface on hardware, the sim behind the same interfaces, and the
// devices talon_fx, cancoder and pigeon2 open them through Open. Cap is
// the provider's bit in hal.Caps, registered with hal.RegisterCap.
package phoenix6

import "github.com/frcd/frcd/hal"

// Cap is Provider as a hal.Caps bit (a device type's Needs, a backend's
// Caps).
var Cap = hal.RegisterCap[Provider]("CTRE Phoenix 6 devices")

// Provider is a backend (or its vendor libraries, hal.VendorLibs) with
// CTRE's Phoenix 6 devices. bus is the CAN bus's name, "" the default.
type Provider interface {
	OpenTalonFX(bus string, id int) (TalonFX, error)
	OpenCANcoder(bus string, id int) (CANcoder, error)
	OpenPigeon2(bus string, id int) (Pigeon2, error)
}

// Fault is a set of the Phoenix 6 faults frcd reads by name (each is a
// signal of its own).
type Fault uint16

// The named faults. Severe are those a team stops for (an error on
// /diagnostics); the rest warn.
const (
	Hardware         Fault = 1 << iota // a hardware failure
	ProcTemp                           // the processor over temperature
	DeviceTemp                         // the device over temperature
	Undervoltage                       // the supply under its minimum (a brown-out)
	BootDuringEnable                   // the device rebooted while enabled
	BridgeBrownout                     // Talon FX: its bridge browned out
	BadMagnet                          // CANcoder: the magnet too weak or too strong to measure
	BootupSensors                      // Pigeon 2: an accelerometer or gyro failed its boot check
	BootIntoMotion                     // Pigeon 2: it booted while moving
	Saturated                          // Pigeon 2: a gyro saturated

	Severe = Hardware | ProcTemp | DeviceTemp | BadMagnet | BootupSensors
)

var faultNames = [...]string{"hardware", "processor over temperature", "device over temperature", "undervoltage",
	"rebooted while enabled", "bridge brown-out", "bad magnet", "sensor failed at boot", "booted while moving", "gyro saturated"}

// Names lists the faults in f, separated by ", ".
func (f Fault) Names() string {
	s := ""
	for i, n := range faultNames {
		if f&(1<<i) != 0 {
			if s != "" {
				s += ", "
			}
			s += n
		}
	}
	return s
}

// Health is a Phoenix 6 device's health: its temperature and supply
// (NaN where the device has no such signal), its fault fields
// (AllFaults and AllStickyFaults: the bits' meanings are not published)
// and the named faults active.
type Health struct {
	TempC, SupplyV       float64
	Faults, StickyFaults uint32
	Active               Fault
}

// Healthy is a Phoenix 6 device whose health can be read. Health reads
// signals of its own, apart from the loop's, and is safe from another
// goroutine than the loop's (/diagnostics calls it once a second).
type Healthy interface {
	Health() (Health, error)
}

// Rates is a Phoenix 6 device that can be told how often to send the
// signals the loop reads (CTRE's update frequencies), rather than relying
// on its defaults. The device's driver calls it once, after opening it;
// a backend without it (the sim) sends at the rate it has.
type Rates interface {
	SetSignalRates() error
}

// SetSignalRates sets a Phoenix 6 device's signal rates when it can be
// told them (Rates); nil otherwise.
func SetSignalRates(dev any) error {
	if r, ok := dev.(Rates); ok {
		return r.SetSignalRates()
	}
	return nil
}

// Pigeon2 is a CTRE Pigeon 2: an IMU with its health.
type Pigeon2 interface {
	hal.Pigeon
	Healthy
}

// FXMode is a Talon FX control request.
type FXMode int

// The control requests frcd sends (Phoenix 6's DutyCycleOut, VoltageOut,
// PositionVoltage, VelocityVoltage and NeutralOut).
const (
	FXNeutral  FXMode = iota
	FXDuty            // Value: duty cycle, -1 to 1
	FXVoltage         // Value: V
	FXPosition        // Value: rotor rotations, closed in the device (a slot's gains)
	FXVelocity        // Value: rotor rotations/s, closed in the device
)

// FXControl is one control request. Position and velocity requests carry
// a feed forward in volts and the gain slot (0-2).
type FXControl struct {
	Mode        FXMode
	Value       float64
	FeedForward float64
	Slot        int
}

// FXGains are one slot of the Talon FX's closed loop, in Phoenix 6's
// units (V per rotation, per rotation/s...).
type FXGains struct{ P, I, D, V, S float64 }

// FXConfig is a Talon FX's neutral mode and current limits, in Phoenix
// 6's terms (MotorOutputConfigs.NeutralMode, CurrentLimitsConfigs):
// amperes, the lower limit's time in seconds.
type FXConfig struct {
	Brake                             bool // NeutralModeValue Brake; Coast otherwise
	StatorLimit                       float64
	StatorLimitEnable                 bool
	SupplyLimit                       float64
	SupplyLimitEnable                 bool
	SupplyLowerLimit, SupplyLowerTime float64
}

// FXConfigurer is a Talon FX whose neutral mode and current limits can
// be applied (a config apply: at start, never in the loop) and read back.
type FXConfigurer interface {
	ApplyConfig(c FXConfig) error
	Config() (FXConfig, error)
}

// FXStatus is what a Talon FX reports: its rotor sensor (rotations and
// rotations/s, before any gear ratio), the voltage it applies to its
// motor, supply and stator current, supply voltage, temperature and its
// fault bits (AllFaults).
type FXStatus struct {
	Position, Velocity                          float64
	MotorVoltage                                float64
	SupplyVoltage, SupplyCurrent, StatorCurrent float64
	Temperature                                 float64
	Faults                                      uint32
}

// TalonFX is a CTRE Talon FX (Falcon 500, Kraken X60/X44).
type TalonFX interface {
	// Control sends a control request; FXNeutral is neutral.
	Control(c FXControl) error
	// SetGains applies slot's gains (a config apply: at start, never in
	// the loop).
	SetGains(slot int, g FXGains) error
	Status() (FXStatus, error)
	Healthy
}

// CANcoder is a CTRE CANcoder: position and velocity in rotations and
// rotations/s, the absolute position in rotations (0-1), fault bits.
type CANcoder interface {
	Read() (pos, vel, abs float64, faults uint32, err error)
	Healthy
}

// Open returns b's Phoenix 6 devices, or says b has none.
func Open(b hal.Backend) (Provider, error) {
	if p, ok := hal.ProviderOf[Provider](b); ok {
		return p, nil
	}
	return nil, hal.LackError(b, Cap)
}
