package hal

// Phoenix6 is a backend with CTRE's Phoenix 6 devices (Talon FX, CANcoder,
// Pigeon 2): package hal/ctre over CTRE's C interface on hardware, the sim
// behind the same interfaces. bus is the CAN bus's name, "" the default.
type Phoenix6 interface {
	OpenTalonFX(bus string, id int) (TalonFX, error)
	OpenCANcoder(bus string, id int) (CANcoder, error)
	OpenPigeon2(bus string, id int) (Pigeon, error)
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

// FXStatus is what a Talon FX reports: its rotor sensor (rotations and
// rotations/s, before any gear ratio), supply and stator current, supply
// voltage, temperature and its fault bits (AllFaults).
type FXStatus struct {
	Position, Velocity                          float64
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
}

// CANcoder is a CTRE CANcoder: position and velocity in rotations and
// rotations/s, the absolute position in rotations (0-1), fault bits.
type CANcoder interface {
	Read() (pos, vel, abs float64, faults uint32, err error)
}

// OpenPhoenix6 returns b's Phoenix 6 devices, or says b has none.
func OpenPhoenix6(b Backend) (Phoenix6, error) {
	if p, ok := provider[Phoenix6](b); ok {
		return p, nil
	}
	return nil, lacks(b, CapPhoenix6)
}
