package sim

import (
	"errors"
	"fmt"
	"math"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/hal"
)

type pwmPin struct {
	open  bool
	width time.Duration
}

type dioUse uint8

const (
	dioFree dioUse = iota
	dioIn
	dioOut
	dioDuty
	dioEncoder
	dioDutyIn
	dioLED
)

type dioPin struct {
	use     dioUse
	level   bool    // written by an output
	duty    float64 // written by a duty-cycle output
	dutySet bool
	in      *digitalSensor   // what drives the pin, or nil
	abs     *dutyCycleSensor // the absolute encoder whose PWM output drives it, or nil
}

type aiPin struct {
	open bool
	in   *analogSensor
}

type aoPin struct {
	open  bool
	volts float64
}

type relayPin struct {
	open     bool
	fwd, rev bool
}

var (
	errNotFinite = errors.New("sim: value is not a finite number")
	errNoAck     = fmt.Errorf("sim: I2C: no device acknowledged: %w", hal.ErrNoDevice)
)

type pwmOut struct {
	s  *Sim
	ch int
}

// SetPulse sets the pulse width; 0 (or less) disables the output.
func (p *pwmOut) SetPulse(w time.Duration) error {
	p.s.mu.Lock()
	p.s.pwm[p.ch].width = max(w, 0)
	p.s.mu.Unlock()
	return nil
}

type dioInput struct {
	s    *Sim
	ch   int
	last bool // the last level read
}

// Get reads the level the sensor wired to the channel drives (low when
// none is), through the sensor's faults.
func (d *dioInput) Get() (bool, error) {
	d.s.mu.Lock()
	defer d.s.mu.Unlock()
	d.last = d.s.dioLevel(d.ch, &d.last)
	return d.last, nil
}

type dioOutput struct {
	s  *Sim
	ch int
}

func (d *dioOutput) Set(high bool) error {
	d.s.mu.Lock()
	d.s.dio[d.ch].level = high
	d.s.mu.Unlock()
	return nil
}

type dutyOutput struct {
	s  *Sim
	ch int
}

// SetDutyCycle sets the duty, 0 to 1 (clamped).
func (d *dutyOutput) SetDutyCycle(duty float64) error {
	if math.IsNaN(duty) || math.IsInf(duty, 0) {
		return errNotFinite
	}
	d.s.mu.Lock()
	p := &d.s.dio[d.ch]
	p.duty, p.dutySet = max(0, min(1, duty)), true
	d.s.mu.Unlock()
	return nil
}

type aiInput struct {
	s    *Sim
	ch   int
	last float64 // the last voltage read
}

// Voltage reads the sensor wired to the input, 0-5 V (0 when none is),
// through the sensor's faults.
func (a *aiInput) Voltage() (float64, error) {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	a.last = a.s.aiVolts(a.ch, &a.last)
	return a.last, nil
}

type aoOutput struct {
	s  *Sim
	ch int
}

// SetVoltage drives the output, clamped to 0-5 V.
func (a *aoOutput) SetVoltage(v float64) error {
	if math.IsNaN(v) {
		return errNotFinite
	}
	a.s.mu.Lock()
	a.s.ao[a.ch].volts = max(0, min(5, v))
	a.s.mu.Unlock()
	return nil
}

type relayOut struct {
	s  *Sim
	ch int
}

func (r *relayOut) Set(fwd, rev bool) error {
	r.s.mu.Lock()
	r.s.relay[r.ch].fwd, r.s.relay[r.ch].rev = fwd, rev
	r.s.mu.Unlock()
	return nil
}

type encoderIn struct {
	s    *Sim
	src  *encoderSensor // nil: nothing wired, counts 0
	sign float64        // -1: counts down when the joint turns positive
	enc  float64        // edges per pulse
	base int64          // the raw count when opened
	last int64          // the last count read
	a, b int            // its DIO channels, as opened
	ovr  *int64         // the count OverrideEncoder holds, if any
}

// raw is the edge count at the position q: trunc(q / dpp × enc).
func (e *encoderIn) raw(q float64) int64 {
	if e.src == nil || e.src.j == nil {
		return 0
	}
	x := math.Trunc(e.sign * q / e.src.dpp * e.enc)
	switch {
	case x != x:
		return 0
	case x >= math.MaxInt64:
		return math.MaxInt64
	case x <= math.MinInt64:
		return math.MinInt64
	}
	return int64(x)
}

// Count is the edges counted since the encoder was opened, through the
// sensor's faults.
func (e *encoderIn) Count() (int64, error) {
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	e.last = e.count(&e.last)
	return e.last, nil
}

// emptySPI is an SPI port with no device: MISO reads zeros.
type emptySPI struct{}

func (emptySPI) String() string { return "sim-spi-empty" }

func (emptySPI) Connect(physic.Frequency, spi.Mode, int) (spi.Conn, error) {
	return emptySPI{}, nil
}

func (emptySPI) Tx(w, r []byte) error {
	clear(r)
	return nil
}

func (emptySPI) Duplex() conn.Duplex { return conn.Full }

func (emptySPI) TxPackets(p []spi.Packet) error {
	for i := range p {
		clear(p[i].R)
	}
	return nil
}

// emptyI2C is an I2C bus where no device acknowledges.
type emptyI2C struct{}

func (emptyI2C) String() string { return "sim-i2c-empty" }

func (emptyI2C) Tx(uint16, []byte, []byte) error { return errNoAck }

func (emptyI2C) SetSpeed(physic.Frequency) error { return nil }
