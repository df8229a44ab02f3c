package sim

import (
	"fmt"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

// Now is the time since the Sim was made: the physics' time in manual
// mode, the wall clock's in real-time mode.
func (s *Sim) Now() time.Duration { return s.clk.Now() }

// Epoch is the wall-clock time of Now's zero: when the Sim was made. Time
// stamps for the outside world (ROS headers) are Epoch plus Now.
func (s *Sim) Epoch() time.Time { return s.clk.start }

// DS returns the Driver Station's state; it starts attached and disabled,
// in teleop.
func (s *Sim) DS() hal.DSState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ds
}

// SetDS sets the Driver Station's state.
func (s *Sim) SetDS(st hal.DSState) {
	s.mu.Lock()
	was := s.ds.EStop
	s.ds = st
	holdEStop(&s.ds, was)
	s.mu.Unlock()
}

// Vin is the roboRIO's input voltage: the battery's terminal voltage less
// 0.05 V of wiring.
func (s *Sim) Vin() (float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.vTerm - vinDrop, nil
}

// BrownoutVolts is the input voltage below which a roboRIO 2 is in
// brownout, its outputs disabled: WPILib's default brownout voltage for
// it (RoboRioSim's, 6.75 V; the roboRIO 1's fixed trigger is 6.3 V).
const BrownoutVolts = 6.75

var _ hal.Brownouts = (*Sim)(nil)

// BrownedOut says whether the roboRIO is in brownout: its input voltage
// (Vin) below BrownoutVolts. The sim reports the state; it does not
// disable outputs for it.
func (s *Sim) BrownedOut() (bool, error) {
	v, err := s.Vin()
	return v < BrownoutVolts, err
}

func noChannel(what string, ch, n int) error {
	return fmt.Errorf("sim: %s %d (0-%d): %w", what, ch, n-1, hal.ErrNoDevice)
}

func inUse(what string, ch int) error {
	return fmt.Errorf("sim: %s %d: %w", what, ch, hal.ErrInUse)
}

// OpenPWM opens a PWM output, 0-19.
func (s *Sim) OpenPWM(ch int) (hal.PWM, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch < 0 || ch >= numPWM {
		return nil, noChannel("PWM channel", ch, numPWM)
	}
	if s.pwm[ch].open {
		return nil, inUse("PWM channel", ch)
	}
	s.pwm[ch].open = true
	return &pwmOut{s: s, ch: ch}, nil
}

func (s *Sim) openDIO(ch int, use dioUse) error {
	if ch < 0 || ch >= numDIO {
		return noChannel("DIO channel", ch, numDIO)
	}
	if s.dio[ch].use != dioFree {
		return inUse("DIO channel", ch)
	}
	s.dio[ch].use = use
	return nil
}

// OpenDigitalIn opens a DIO channel, 0-25, as an input.
func (s *Sim) OpenDigitalIn(ch int) (hal.DigitalIn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.openDIO(ch, dioIn); err != nil {
		return nil, err
	}
	d := &dioInput{s: s, ch: ch}
	if in := s.dio[ch].in; in != nil {
		d.last = in.level() // what a dropped first read reads
	}
	return d, nil
}

// OpenDigitalOut opens a DIO channel, 0-25, as an output.
func (s *Sim) OpenDigitalOut(ch int) (hal.DigitalOut, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.openDIO(ch, dioOut); err != nil {
		return nil, err
	}
	return &dioOutput{s: s, ch: ch}, nil
}

// OpenDutyCycleOut opens a DIO channel, 0-25, as a PWM-generating output.
func (s *Sim) OpenDutyCycleOut(ch int) (hal.DutyCycleOut, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.openDIO(ch, dioDuty); err != nil {
		return nil, err
	}
	return &dutyOutput{s: s, ch: ch}, nil
}

// OpenAnalogIn opens an analog input, 0-7. The sim reads the exact
// voltage; averaging and oversampling change nothing.
func (s *Sim) OpenAnalogIn(ch, averageBits, oversampleBits int) (hal.AnalogIn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch < 0 || ch >= numAI {
		return nil, noChannel("analog input", ch, numAI)
	}
	if averageBits < 0 || oversampleBits < 0 {
		return nil, fmt.Errorf("sim: analog input %d: negative average or oversample bits: %w", ch, hal.ErrUnsupported)
	}
	if s.ai[ch].open {
		return nil, inUse("analog input", ch)
	}
	s.ai[ch].open = true
	a := &aiInput{s: s, ch: ch}
	if in := s.ai[ch].in; in != nil {
		a.last = in.volts(in.q()) // what a dropped first read reads
	}
	return a, nil
}

// OpenAnalogOut opens an analog output, 0-1.
func (s *Sim) OpenAnalogOut(ch int) (hal.AnalogOut, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch < 0 || ch >= numAO {
		return nil, noChannel("analog output", ch, numAO)
	}
	if s.ao[ch].open {
		return nil, inUse("analog output", ch)
	}
	s.ao[ch].open = true
	return &aoOutput{s: s, ch: ch}, nil
}

// OpenEncoder opens a quadrature counter on DIO channels a and b. It counts
// the edges of the YAML encoder wired to those channels; opened with A and
// B swapped, it counts the other way.
func (s *Sim) OpenEncoder(a, b int, enc hal.Encoding) (hal.Encoder, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ch := range [2]int{a, b} {
		if ch < 0 || ch >= numDIO {
			return nil, noChannel("DIO channel", ch, numDIO)
		}
		if s.dio[ch].use != dioFree || a == b {
			return nil, inUse("DIO channel", ch)
		}
	}
	switch enc {
	case hal.X1, hal.X2, hal.X4:
	default:
		return nil, fmt.Errorf("sim: encoder on DIO %d/%d: encoding %d is not 1, 2 or 4: %w", a, b, enc, hal.ErrUnsupported)
	}
	e := &encoderIn{s: s, sign: 1, enc: float64(enc)}
	for _, src := range s.encoders {
		if (src.a == a && src.b == b) || (src.a == b && src.b == a) {
			e.src = src
			if src.inv != (src.a == b) {
				e.sign = -1
			}
			break
		}
	}
	if e.src != nil {
		q := e.src.q()
		if e.src.f != nil {
			q += e.src.f.drift
		}
		e.base = e.raw(q)
	}
	e.a, e.b = a, b
	s.dio[a].use, s.dio[b].use = dioEncoder, dioEncoder
	s.ovr.encs = append(s.ovr.encs, e)
	return e, nil
}

// OpenRelay opens a relay channel, 0-3.
func (s *Sim) OpenRelay(ch int) (hal.Relay, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch < 0 || ch >= numRelay {
		return nil, noChannel("relay channel", ch, numRelay)
	}
	if s.relay[ch].open {
		return nil, inUse("relay channel", ch)
	}
	s.relay[ch].open = true
	return &relayOut{s: s, ch: ch}, nil
}

// CAN returns the default CAN bus, with the emulated devices whose YAML
// can_bus is "" on it. It (and CANBus's) is a hal.CANMonitor too.
func (s *Sim) CAN() hal.CANBus { return s.bus }

// OpenCANMotor opens the emulated Talon SRX (frc.TalonSRX) or Victor SPX
// (frc.VictorSPX) of that CAN id, 0-62, on the default bus.
func (s *Sim) OpenCANMotor(model string, id int) (hal.CANMotor, error) {
	return s.OpenCANMotorOn("", model, id)
}

// OpenCANMotorOn is OpenCANMotor on the bus of that name
// (hal.NamedCANDevices).
func (s *Sim) OpenCANMotorOn(bus, model string, id int) (hal.CANMotor, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if model != frc.TalonSRX && model != frc.VictorSPX {
		return nil, fmt.Errorf("sim: CAN motor controller model %q (talon_srx or victor_spx): %w", model, hal.ErrNoDevice)
	}
	if id < 0 || id > maxCANID {
		return nil, noChannel("CAN id", id, maxCANID+1)
	}
	m := s.canMotorFor(bus, model, id)
	if m.model != model {
		return nil, fmt.Errorf("sim: CAN id %d is a %s, not a %s: %w", id, m.model, model, hal.ErrNoDevice)
	}
	if m.open {
		return nil, inUse("CAN motor controller", id)
	}
	m.open = true
	return m, nil
}

// OpenPigeon opens the Pigeon IMU of CAN id id, or, when talonID is 0 or
// more, the one cabled to that Talon SRX, on the default bus.
func (s *Sim) OpenPigeon(id, talonID int) (hal.Pigeon, error) { return s.OpenPigeonOn("", id, talonID) }

// OpenPigeonOn is OpenPigeon on the bus of that name
// (hal.NamedCANDevices).
func (s *Sim) OpenPigeonOn(bus string, id, talonID int) (hal.Pigeon, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := id
	if talonID >= 0 {
		key = 1000 + talonID
		id = talonID
	}
	if id < 0 || id > maxCANID {
		return nil, noChannel("CAN id", id, maxCANID+1)
	}
	if s.pigeonOpen[canKey{bus, key}] {
		return nil, inUse("Pigeon", id)
	}
	p := &pigeon{s: s}
	if talonID >= 0 {
		p.talon = s.canMotors[canKey{bus, talonID}]
	}
	for _, m := range s.imus {
		if m.nav == nil && m.bus == bus && ((talonID >= 0 && m.talonID == talonID) || (talonID < 0 && m.canID == id)) {
			p.imu = m
			break
		}
	}
	s.pigeonOpen[canKey{bus, key}] = true
	return p, nil
}

// SPI returns an SPI port, 0-4: the navX's when one is configured there,
// else a port where nothing answers (reads zeros).
func (s *Sim) SPI(port int) (spi.Port, error) {
	if port < 0 || port >= numSPI {
		return nil, noChannel("SPI port", port, numSPI)
	}
	for _, m := range s.imus {
		if m.nav != nil && m.iface == "spi" && m.port == port {
			return m.nav.spiPort(), nil
		}
	}
	return emptySPI{}, nil
}

// I2C returns an I2C bus, 0-1: the navX's when one is configured there,
// else a bus where no device acknowledges.
func (s *Sim) I2C(port int) (i2c.Bus, error) {
	if port < 0 || port >= numI2C {
		return nil, noChannel("I2C port", port, numI2C)
	}
	for _, m := range s.imus {
		if m.nav != nil && m.iface == "i2c" && m.port == port {
			return m.nav.i2cBus(), nil
		}
	}
	return emptyI2C{}, nil
}
