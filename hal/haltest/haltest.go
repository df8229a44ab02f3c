package haltest

import (
	"fmt"
	"github.com/frcd/frcd/frc"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/hal"
)

// Channel counts of a roboRIO, MXP included.
const (
	NumPWM       = 20 // PWM 0-9 onboard, 10-19 on the MXP
	NumDIO       = 26 // DIO 0-9 onboard, 10-25 on the MXP
	NumAnalogIn  = 8  // analog inputs 0-3 onboard, 4-7 on the MXP
	NumAnalogOut = 2  // analog outputs on the MXP
	NumRelay     = 4  // relay header
)

// NominalVin is the Vin a new Backend reports, V.
const NominalVin = 12.0

// Backend is a fake hal.Backend. The zero value is not usable; call New.
type Backend struct {
	// Time is what Now returns; tests advance it (Advance) between cycles.
	Time time.Duration
	// VinVolts and VinErr are what Vin returns.
	VinVolts float64
	VinErr   error
	// DSState is what DS returns.
	DSState hal.DSState

	PWM       [NumPWM]PWM
	DIO       [NumDIO]DIO
	AnalogIn  [NumAnalogIn]AnalogIn
	AnalogOut [NumAnalogOut]AnalogOut
	// DutyCycleIn is indexed by the DIO channel it is opened on.
	DutyCycleIn [NumDIO]DutyCycleIn
	// AddressableLED is indexed by the DIO channel it is opened on.
	AddressableLED [NumDIO]AddressableLED
	// Encoder is indexed by the encoder's channel A.
	Encoder [NumDIO]Encoder
	Relay   [NumRelay]Relay
	// Bus is the CAN bus CAN returns.
	Bus CAN
	// Motors holds the CAN motor controllers by CAN id. A test may add one
	// before a driver opens it (to set its Status); OpenCANMotor adds one
	// otherwise.
	Motors map[int]*Motor
	// Pigeons holds the Pigeon IMUs on the CAN bus by CAN id, and
	// TalonPigeons those cabled to a Talon SRX by the Talon's CAN id; like
	// Motors, a test may add one before it is opened.
	Pigeons      map[int]*Pigeon
	TalonPigeons map[int]*Pigeon
	// Accel is the built-in accelerometer (accel.go).
	Accel Accelerometer
	// TalonFXs, CANcoders and Pigeon2s hold the Phoenix 6 devices by CAN
	// id (phoenix6.go); like Motors, a test may add one before it is
	// opened.
	TalonFXs  map[int]*TalonFX
	CANcoders map[int]*CANcoder
	Pigeon2s  map[int]*Pigeon2
	// SPIPorts and I2CBuses are what SPI and I2C return (periph's
	// conntest, spitest and i2ctest fakes fit); a missing port is
	// ErrNoDevice.
	SPIPorts map[int]spi.Port
	I2CBuses map[int]i2c.Bus

	open map[resource]bool
}

type resource struct {
	kind string
	n    int
}

var _ hal.Backend = (*Backend)(nil)

// New returns a Backend at time 0 with Vin at NominalVin, the Driver
// Station attached and disabled, and nothing open.
func New() *Backend {
	b := &Backend{
		VinVolts:     NominalVin,
		DSState:      hal.DSState{Attached: true},
		Motors:       map[int]*Motor{},
		Pigeons:      map[int]*Pigeon{},
		TalonPigeons: map[int]*Pigeon{},
		TalonFXs:     map[int]*TalonFX{},
		CANcoders:    map[int]*CANcoder{},
		Pigeon2s:     map[int]*Pigeon2{},
		SPIPorts:     map[int]spi.Port{},
		I2CBuses:     map[int]i2c.Bus{},
		open:         map[resource]bool{},
	}
	b.Bus = *NewCAN()
	for i := range b.PWM {
		b.PWM[i].Channel = i
	}
	return b
}

// Advance moves the clock on by d.
func (b *Backend) Advance(d time.Duration) { b.Time += d }

// Now returns Time.
func (b *Backend) Now() time.Duration { return b.Time }

// DS returns DSState.
func (b *Backend) DS() hal.DSState { return b.DSState }

// Vin returns VinVolts, VinErr.
func (b *Backend) Vin() (float64, error) { return b.VinVolts, b.VinErr }

// IsOpen reports whether a channel of that kind ("pwm", "dio", "ain",
// "aout", "relay channel", "can motor", "pigeon", "talon pigeon") is open.
func (b *Backend) IsOpen(kind string, n int) bool { return b.open[resource{kind, n}] }

func (b *Backend) claim(kind string, n, count int) error {
	if n < 0 || n >= count {
		return fmt.Errorf("haltest: %s %d: %w", kind, n, hal.ErrNoDevice)
	}
	r := resource{kind, n}
	if b.open[r] {
		return fmt.Errorf("haltest: %s %d: %w", kind, n, hal.ErrInUse)
	}
	b.open[r] = true
	return nil
}

// OpenPWM opens PWM[channel].
func (b *Backend) OpenPWM(channel int) (hal.PWM, error) {
	if err := b.claim("pwm", channel, NumPWM); err != nil {
		return nil, err
	}
	return &b.PWM[channel], nil
}

// OpenDigitalIn opens DIO[channel] as an input.
func (b *Backend) OpenDigitalIn(channel int) (hal.DigitalIn, error) {
	if err := b.claim("dio", channel, NumDIO); err != nil {
		return nil, err
	}
	b.DIO[channel].Mode = DIOIn
	return &b.DIO[channel], nil
}

// OpenDigitalOut opens DIO[channel] as an output.
func (b *Backend) OpenDigitalOut(channel int) (hal.DigitalOut, error) {
	if err := b.claim("dio", channel, NumDIO); err != nil {
		return nil, err
	}
	b.DIO[channel].Mode = DIOOut
	return &b.DIO[channel], nil
}

// OpenDutyCycleOut opens DIO[channel] as a duty-cycle output.
func (b *Backend) OpenDutyCycleOut(channel int) (hal.DutyCycleOut, error) {
	if err := b.claim("dio", channel, NumDIO); err != nil {
		return nil, err
	}
	b.DIO[channel].Mode = DIODutyCycle
	return &b.DIO[channel], nil
}

// OpenDutyCycleIn opens DutyCycleIn[channel], claiming DIO channel
// channel.
func (b *Backend) OpenDutyCycleIn(channel int) (hal.DutyCycleIn, error) {
	if err := b.claim("dio", channel, NumDIO); err != nil {
		return nil, err
	}
	return &b.DutyCycleIn[channel], nil
}

// OpenAddressableLED opens AddressableLED[channel], claiming DIO
// channel channel.
func (b *Backend) OpenAddressableLED(channel, start, length int, order hal.LEDOrder) (hal.AddressableLED, error) {
	if err := b.claim("dio", channel, NumDIO); err != nil {
		return nil, err
	}
	l := &b.AddressableLED[channel]
	l.Start, l.Length, l.Order = start, length, order
	return l, nil
}

// OpenAnalogIn opens AnalogIn[channel], recording its bits.
func (b *Backend) OpenAnalogIn(channel, averageBits, oversampleBits int) (hal.AnalogIn, error) {
	if err := b.claim("ain", channel, NumAnalogIn); err != nil {
		return nil, err
	}
	a := &b.AnalogIn[channel]
	a.AverageBits, a.OversampleBits = averageBits, oversampleBits
	return a, nil
}

// OpenAnalogOut opens AnalogOut[channel].
func (b *Backend) OpenAnalogOut(channel int) (hal.AnalogOut, error) {
	if err := b.claim("aout", channel, NumAnalogOut); err != nil {
		return nil, err
	}
	return &b.AnalogOut[channel], nil
}

// OpenEncoder opens Encoder[channelA], claiming both DIO channels.
func (b *Backend) OpenEncoder(channelA, channelB int, enc hal.Encoding) (hal.Encoder, error) {
	if enc != hal.X1 && enc != hal.X2 && enc != hal.X4 {
		return nil, fmt.Errorf("haltest: encoder %d/%d: encoding %d: %w", channelA, channelB, enc, hal.ErrUnsupported)
	}
	if err := b.claim("dio", channelA, NumDIO); err != nil {
		return nil, err
	}
	if err := b.claim("dio", channelB, NumDIO); err != nil {
		delete(b.open, resource{"dio", channelA})
		return nil, err
	}
	e := &b.Encoder[channelA]
	e.ChannelB, e.Encoding = channelB, enc
	return e, nil
}

// OpenRelay opens Relay[channel].
func (b *Backend) OpenRelay(channel int) (hal.Relay, error) {
	if err := b.claim("relay channel", channel, NumRelay); err != nil {
		return nil, err
	}
	return &b.Relay[channel], nil
}

// CAN returns &Bus.
func (b *Backend) CAN() hal.CANBus { return &b.Bus }

// OpenCANMotor opens Motors[id], adding it when missing, and records the
// model.
func (b *Backend) OpenCANMotor(model string, id int) (hal.CANMotor, error) {
	if model != frc.TalonSRX && model != frc.VictorSPX {
		return nil, fmt.Errorf("haltest: CAN motor model %q: %w", model, hal.ErrNoDevice)
	}
	if err := b.claim("can motor", id, 63); err != nil {
		return nil, err
	}
	m := b.Motors[id]
	if m == nil {
		m = &Motor{}
		b.Motors[id] = m
	}
	m.Model = model
	return m, nil
}

// OpenPigeon opens Pigeons[id], or TalonPigeons[talonID] when talonID is
// 0 or more, adding it when missing.
func (b *Backend) OpenPigeon(id, talonID int) (hal.Pigeon, error) {
	kind, n, m := "pigeon", id, b.Pigeons
	if talonID >= 0 {
		kind, n, m = "talon pigeon", talonID, b.TalonPigeons
	}
	if err := b.claim(kind, n, 63); err != nil {
		return nil, err
	}
	p := m[n]
	if p == nil {
		p = &Pigeon{Q: [4]float64{1, 0, 0, 0}}
		m[n] = p
	}
	return p, nil
}

// SPI returns SPIPorts[port].
func (b *Backend) SPI(port int) (spi.Port, error) {
	if p, ok := b.SPIPorts[port]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("haltest: SPI port %d: %w", port, hal.ErrNoDevice)
}

// I2C returns I2CBuses[port].
func (b *Backend) I2C(port int) (i2c.Bus, error) {
	if p, ok := b.I2CBuses[port]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("haltest: I2C port %d: %w", port, hal.ErrNoDevice)
}
