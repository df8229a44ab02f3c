package haltest

import (
	"time"

	"github.com/frcd/frcd/hal"
)

// PWM is a fake PWM output.
type PWM struct {
	Channel int
	// Pulse is the last width set: 0 disabled, hal.AlwaysHigh held high.
	Pulse time.Duration
	// Writes counts SetPulse calls.
	Writes int
	Err    error
}

// SetPulse records the width.
func (p *PWM) SetPulse(width time.Duration) error {
	if p.Err != nil {
		return p.Err
	}
	p.Pulse = width
	p.Writes++
	return nil
}

// DIOMode is how a DIO channel was opened.
type DIOMode int

// The modes of a DIO channel.
const (
	DIOClosed DIOMode = iota
	DIOIn
	DIOOut
	DIODutyCycle
)

// DIO is a fake DIO channel: an input whose High a test sets, an output
// whose High a driver sets, or a duty-cycle output.
type DIO struct {
	Mode DIOMode
	// High is the electrical level: true is high.
	High bool
	// Duty is the last duty cycle set, 0 to 1.
	Duty float64
	// Writes counts Set and SetDutyCycle calls.
	Writes int
	Err    error
}

// Get reads High.
func (d *DIO) Get() (bool, error) { return d.High, d.Err }

// Set records the level.
func (d *DIO) Set(high bool) error {
	if d.Err != nil {
		return d.Err
	}
	d.High = high
	d.Writes++
	return nil
}

// SetDutyCycle records the duty cycle.
func (d *DIO) SetDutyCycle(duty float64) error {
	if d.Err != nil {
		return d.Err
	}
	d.Duty = duty
	d.Writes++
	return nil
}

// DutyCycleIn is a fake duty-cycle input.
type DutyCycleIn struct {
	Duty, Hz float64 // what Output and Frequency return
	Err      error
}

// Output returns Duty.
func (d *DutyCycleIn) Output() (float64, error) { return d.Duty, d.Err }

// Frequency returns Hz.
func (d *DutyCycleIn) Frequency() (float64, error) { return d.Hz, d.Err }

// AddressableLED is a fake string of addressable LEDs: what was written.
type AddressableLED struct {
	Start, Length int
	Order         hal.LEDOrder
	RGB           []byte // the last colours written, r, g, b per LED
	Writes        int
	Err           error
}

// SetColors records rgb.
func (l *AddressableLED) SetColors(rgb []byte) error {
	if len(rgb) != 3*l.Length {
		return hal.ErrUnsupported
	}
	l.RGB = append(l.RGB[:0], rgb...)
	l.Writes++
	return l.Err
}

// AnalogIn is a fake analog input.
type AnalogIn struct {
	Volts                       float64
	AverageBits, OversampleBits int // as opened
	Err                         error
}

// Voltage returns Volts.
func (a *AnalogIn) Voltage() (float64, error) { return a.Volts, a.Err }

// AnalogOut is a fake analog output.
type AnalogOut struct {
	// Volts is the last voltage set, clamped to 0-5 V as hardware does.
	Volts  float64
	Writes int
	Err    error
}

// SetVoltage records v, clamped to 0-5 V.
func (a *AnalogOut) SetVoltage(v float64) error {
	if a.Err != nil {
		return a.Err
	}
	a.Volts = max(0, min(5, v))
	a.Writes++
	return nil
}

// Encoder is a fake quadrature counter.
type Encoder struct {
	// Edges is what Count returns: edges counted per the encoding.
	Edges    int64
	ChannelB int
	Encoding hal.Encoding
	Err      error
}

// Count returns Edges.
func (e *Encoder) Count() (int64, error) { return e.Edges, e.Err }

// Relay is a fake relay channel.
type Relay struct {
	Forward, Reverse bool
	Writes           int
	Err              error
}

// Set records the contacts.
func (r *Relay) Set(forward, reverse bool) error {
	if r.Err != nil {
		return r.Err
	}
	r.Forward, r.Reverse = forward, reverse
	r.Writes++
	return nil
}

// Motor is a fake CAN motor controller.
type Motor struct {
	Model string // frc.TalonSRX or frc.VictorSPX, as opened
	// Duty is the last duty set.
	Duty   float64
	Writes int
	// Reported is what Status returns, with StatusErr.
	Reported  hal.MotorStatus
	StatusErr error
	Err       error // fails SetDuty
	// Applied is the configuration last applied (Applies counts them);
	// Config reads back Holds when set, else Applied.
	Applied hal.CANMotorConfig
	Applies int
	Holds   *hal.CANMotorConfig
}

// ApplyConfig records the configuration.
func (m *Motor) ApplyConfig(c hal.CANMotorConfig) error {
	m.Applied = c
	m.Applies++
	return nil
}

// Config reads back Holds, or what was applied; the neutral mode is
// known, as in the sim (Phoenix 5 itself cannot read it).
func (m *Motor) Config() (hal.CANMotorConfig, bool, error) {
	if m.Holds != nil {
		return *m.Holds, true, nil
	}
	return m.Applied, true, nil
}

// SetDuty records the duty.
func (m *Motor) SetDuty(duty float64) error {
	if m.Err != nil {
		return m.Err
	}
	m.Duty = duty
	m.Writes++
	return nil
}

// Status returns Reported, StatusErr.
func (m *Motor) Status() (hal.MotorStatus, error) { return m.Reported, m.StatusErr }

// Pigeon is a fake Pigeon IMU.
type Pigeon struct {
	Q           [4]float64 // w, x, y, z
	Gyro, Accel [3]float64 // rad/s, m/s²
	Err         error
}

// Read returns the fields.
func (p *Pigeon) Read() (q [4]float64, gyro, accel [3]float64, err error) {
	return p.Q, p.Gyro, p.Accel, p.Err
}

// Received is a frame on the fake bus with its arrival time.
type Received struct {
	Frame hal.Frame
	At    time.Duration
}

// CAN is a fake CAN bus. Sent frames are appended to Sent (tests may
// truncate it between cycles to keep its capacity) and kept per id in Last
// and Count; received frames are injected with Inject.
type CAN struct {
	Sent  []hal.Frame
	Last  map[uint32]hal.Frame
	Count map[uint32]int
	// Err fails Send.
	Err error
	rx  map[uint32]Received
}

// NewCAN returns an empty fake bus.
func NewCAN() *CAN {
	return &CAN{rx: map[uint32]Received{}, Last: map[uint32]hal.Frame{}, Count: map[uint32]int{}}
}

// Send records f.
func (c *CAN) Send(f hal.Frame) error {
	if c.Err != nil {
		return c.Err
	}
	c.Sent = append(c.Sent, f)
	c.Last[f.ID] = f
	c.Count[f.ID]++
	return nil
}

// Inject makes f the newest frame of its id, received at time at.
func (c *CAN) Inject(f hal.Frame, at time.Duration) { c.rx[f.ID] = Received{f, at} }

// Forget drops the received frame of that id, as if none had arrived.
func (c *CAN) Forget(id uint32) { delete(c.rx, id) }

// Latest returns the newest injected frame of that id.
func (c *CAN) Latest(id uint32) (hal.Frame, time.Duration, bool) {
	r, ok := c.rx[id]
	return r.Frame, r.At, ok
}
