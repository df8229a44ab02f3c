//go:build cgo && roborio

package wpihal

/*
#include "hal2026.h"
*/
import "C"

import (
	"fmt"
	"math"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/ctre"
)

// The roboRIO's 2026 HAL: what only it has (the FPGA's DIO PWM generators,
// the analog accumulator and outputs, relays, NetComm's CAN, SPI and I2C,
// the accelerometer) and CTRE's libraries under the FRC rules.

var (
	_ hal.Reporter = (*Backend)(nil)
	_ hal.Lacker   = (*Backend)(nil)
)

// ctreOptions are hal/ctre's: the roboRIO loads CTRE's libraries itself.
type ctreOptions = ctre.Options

// initFailure is what a failed HAL_Initialize means on the roboRIO.
const initFailure = "another robot program that would not stop, or no FPGA"

// years are the 2026 backend's own parts.
type years struct {
	ctre    *ctre.Lib // nil when CTRE's libraries did not load: ctreErr says why
	ctreErr error
	bus     canBus
	spi     [numSPI]*spiPort
	i2c     [numI2C]*i2cBus
	// accelOpen: the built-in accelerometer is open (accel2026.go).
	accelOpen bool
}

func (b *Backend) openYear(o Options) error {
	b.bus.init(b)
	co := o.CTRE
	co.FRC = true
	b.ctre, b.ctreErr = ctre.Open(co)
	return nil
}

func (b *Backend) closeYear() { b.bus.close() }

// pwmOpened: the 2026 HAL's PWM period stays its default (5.05 ms).
func pwmOpened(*opening, C.int32_t) {}

// DutyCycleRate is the frequency of the DIO PWM generators, Hz: the Nidec
// Brushless's, as WPILib's NidecBrushless sets it.
const DutyCycleRate = 15625

// OpenDutyCycleOut opens a DIO channel as an output driven by one of the
// FPGA's DIO PWM generators at DutyCycleRate, starting at duty 0.
func (b *Backend) OpenDutyCycleOut(ch int) (hal.DutyCycleOut, error) {
	o := b.opening()
	o.dio(ch, false)
	h := o.handle(fmt.Sprintf("HAL_AllocateDigitalPWM for DIO %d", ch), func() C.frcd_int { return C.frcd_dpwm_alloc() },
		func(h C.int32_t) { C.frcd_dpwm_duty(h, 0); C.frcd_dpwm_free(h) })
	// The rate is the generators' together; setting it again is harmless.
	o.do("HAL_SetDigitalPWMRate", func() C.int32_t { return C.frcd_dpwm_rate(DutyCycleRate) })
	o.do("HAL_SetDigitalPWMDutyCycle", func() C.int32_t { return C.frcd_dpwm_duty(h, 0) })
	o.do("HAL_SetDigitalPWMOutputChannel", func() C.int32_t { return C.frcd_dpwm_channel(h, C.int32_t(ch)) })
	if err := o.done(); err != nil {
		return nil, err
	}
	return &level{b: b, h: h, call: "HAL_SetDigitalPWMDutyCycle", what: "duty cycle", hi: 1,
		set: func(h C.int32_t, v C.double) C.int32_t { return C.frcd_dpwm_duty(h, v) }}, nil
}

// level is an output set to a level clamped to 0-hi: a DIO PWM
// generator's duty cycle, an analog output's volts.
type level struct {
	b          *Backend
	h          C.int32_t
	call, what string
	hi         float64
	set        func(C.int32_t, C.double) C.int32_t
	last       lastWrite[float64]
}

func (l *level) put(v float64) error {
	if l.b.isClosed() {
		return l.b.closedErr()
	}
	if math.IsNaN(v) {
		return fmt.Errorf("wpihal: %s NaN: %w", l.what, hal.ErrUnsupported)
	}
	return l.last.set(max(0, min(l.hi, v)), l.write)
}

func (l *level) write(v float64) error { return l.b.status(l.call, l.set(l.h, C.double(v))) }

// SetDutyCycle sets a duty cycle output, 0-1.
func (l *level) SetDutyCycle(duty float64) error { return l.put(duty) }

// SetVoltage sets an analog output, 0-5 V.
func (l *level) SetVoltage(v float64) error { return l.put(v) }

// OpenAnalogIn opens an analog input (0-3 on the header, 4-7 on the MXP)
// with the FPGA averaging 2^averageBits samples and oversampling
// 2^oversampleBits.
func (b *Backend) OpenAnalogIn(ch, averageBits, oversampleBits int) (hal.AnalogIn, error) {
	if averageBits < 0 || oversampleBits < 0 {
		return nil, fmt.Errorf("wpihal: analog input %d: negative average or oversample bits: %w", ch, hal.ErrUnsupported)
	}
	o := b.opening()
	h := o.handle(fmt.Sprintf("HAL_InitializeAnalogInputPort(%d)", ch), func() C.frcd_int { return C.frcd_ai_init(C.int32_t(ch)) },
		func(h C.int32_t) { C.frcd_ai_free(h) })
	o.do("HAL_SetAnalogAverageBits", func() C.int32_t { return C.frcd_ai_average_bits(h, C.int32_t(averageBits)) })
	o.do("HAL_SetAnalogOversampleBits", func() C.int32_t { return C.frcd_ai_oversample_bits(h, C.int32_t(oversampleBits)) })
	if err := o.done(); err != nil {
		return nil, err
	}
	return &analogIn{b: b, h: h, average: averageBits+oversampleBits > 0}, nil
}

type analogIn struct {
	b       *Backend
	h       C.int32_t
	average bool
}

func (a *analogIn) Voltage() (float64, error) {
	if a.b.isClosed() {
		return 0, a.b.closedErr()
	}
	if a.average {
		r := C.frcd_ai_average_voltage(a.h)
		return float64(r.v), a.b.status("HAL_GetAnalogAverageVoltage", r.status)
	}
	r := C.frcd_ai_voltage(a.h)
	return float64(r.v), a.b.status("HAL_GetAnalogVoltage", r.status)
}

// OpenAnalogOut opens an analog output, 0-1 (MXP).
func (b *Backend) OpenAnalogOut(ch int) (hal.AnalogOut, error) {
	o := b.opening()
	h := o.handle(fmt.Sprintf("HAL_InitializeAnalogOutputPort(%d)", ch), func() C.frcd_int { return C.frcd_ao_init(C.int32_t(ch)) },
		func(h C.int32_t) { C.frcd_ao_set(h, 0); C.frcd_ao_free(h) })
	if err := o.done(); err != nil {
		return nil, err
	}
	return &level{b: b, h: h, call: "HAL_SetAnalogOutput", what: "analog output volts", hi: 5,
		set: func(h C.int32_t, v C.double) C.int32_t { return C.frcd_ao_set(h, v) }}, nil
}

// OpenEncoder opens DIO inputs a and b and routes them to an FPGA
// quadrature counter in the encoding asked for.
func (b *Backend) OpenEncoder(a, bch int, enc hal.Encoding) (hal.Encoder, error) {
	code, ok := encodingType(enc)
	if !ok {
		return nil, fmt.Errorf("wpihal: encoder on DIO %d/%d: encoding %d is not 1, 2 or 4: %w", a, bch, enc, hal.ErrUnsupported)
	}
	if a == bch {
		return nil, fmt.Errorf("wpihal: encoder on DIO %d/%d: one channel for both signals: %w", a, bch, hal.ErrInUse)
	}
	o := b.opening()
	ha := o.dio(a, true)
	hb := o.dio(bch, true)
	h := o.handle(fmt.Sprintf("HAL_InitializeEncoder(DIO %d, DIO %d, %dx)", a, bch, enc),
		func() C.frcd_int { return C.frcd_encoder_init(ha, hb, code) }, func(h C.int32_t) { C.frcd_encoder_free(h) })
	if err := o.done(); err != nil {
		return nil, err
	}
	return &encoder{b: b, h: h}, nil
}

// OpenDutyCycleIn opens a DIO channel (0-9 on the header, 10-25 on the
// MXP) as an input and routes it to one of the FPGA's 8 duty-cycle
// counters (HAL_InitializeDutyCycle of the DIO's handle, as WPILib's
// DutyCycle of a DigitalInput does).
func (b *Backend) OpenDutyCycleIn(ch int) (hal.DutyCycleIn, error) {
	o := b.opening()
	dio := o.dio(ch, true)
	h := o.handle(fmt.Sprintf("HAL_InitializeDutyCycle(DIO %d)", ch), func() C.frcd_int { return C.frcd_dutycycle_init(dio) },
		func(h C.int32_t) { C.frcd_dutycycle_free(h) })
	if err := o.done(); err != nil {
		return nil, err
	}
	return &dutyCycleIn{b: b, h: h}, nil
}

// OpenRelay opens relay channel 0-3: its forward and its reverse contact.
func (b *Backend) OpenRelay(ch int) (hal.Relay, error) {
	r := &relay{b: b}
	o := b.opening()
	for i, fwd := range [2]C.int32_t{1, 0} {
		r.h[i] = o.handle(fmt.Sprintf("HAL_InitializeRelayPort(%d, fwd=%d)", ch, fwd),
			func() C.frcd_int { return C.frcd_relay_init(C.int32_t(ch), fwd) },
			func(h C.int32_t) { C.frcd_relay_set(h, 0); C.frcd_relay_free(h) })
	}
	if err := o.done(); err != nil {
		return nil, err
	}
	return r, nil
}

type relay struct {
	b    *Backend
	h    [2]C.int32_t // forward, reverse
	last lastWrite[[2]bool]
}

func (r *relay) Set(forward, reverse bool) error {
	if r.b.isClosed() {
		return r.b.closedErr()
	}
	return r.last.set([2]bool{forward, reverse}, r.write)
}

func (r *relay) write(on [2]bool) error {
	for i := range on {
		v := C.int32_t(0)
		if on[i] {
			v = 1
		}
		if err := r.b.status("HAL_SetRelay", C.frcd_relay_set(r.h[i], v)); err != nil {
			return err
		}
	}
	return nil
}

// Vendor is CTRE's libraries (hal.VendorLibs), nil when they did not load.
func (b *Backend) Vendor() any {
	if b.ctre == nil {
		return nil
	}
	return b.ctre
}

// Lacks says why CTRE's devices cannot open (their libraries did not load,
// or lack that family), and why addressable LEDs cannot.
func (b *Backend) Lacks(c hal.Caps) string {
	if c&hal.CapAddressableLED != 0 {
		return "frcd drives addressable LEDs through Systemcore's 2027 HAL only: the roboRIO's 2026 HAL drives them from a PWM handle per program, which frcd does not bind"
	}
	if c&ctre.Caps == 0 {
		return ""
	}
	if b.ctreErr != nil {
		return fmt.Sprintf("CTRE devices need CTRE's Phoenix libraries: %v", b.ctreErr)
	}
	return fmt.Sprintf("the CTRE libraries loaded lack this family (see %s)", ctre.Checklist)
}

// SPI returns SPI port 0-3 (the onboard chip selects) or 4 (the MXP).
func (b *Backend) SPI(port int) (spi.Port, error) {
	if port < 0 || port >= numSPI {
		return nil, fmt.Errorf("wpihal: SPI port %d (0-%d): %w", port, numSPI-1, hal.ErrNoDevice)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed.Load() {
		return nil, b.closedErr()
	}
	if b.spi[port] == nil {
		b.spi[port] = &spiPort{b: b, port: port}
	}
	return b.spi[port], nil
}

// I2C returns I2C bus 0 (onboard) or 1 (the MXP).
func (b *Backend) I2C(port int) (i2c.Bus, error) {
	if port < 0 || port >= numI2C {
		return nil, fmt.Errorf("wpihal: I2C port %d (0-%d): %w", port, numI2C-1, hal.ErrNoDevice)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed.Load() {
		return nil, b.closedErr()
	}
	if b.i2c[port] == nil {
		if err := b.status(fmt.Sprintf("HAL_InitializeI2C(%d)", port), C.frcd_i2c_init(C.int32_t(port))); err != nil {
			return nil, err
		}
		bus := &i2cBus{b: b, port: port, buf: newCBuf(2 * maxTransfer)}
		b.frees = append(b.frees, bus.close)
		b.i2c[port] = bus
	}
	return b.i2c[port], nil
}

// dsOpMode: the 2026 HAL has no op modes (a dashboard chooser does their
// job: the daemon's).
func dsOpMode() int64 { return 0 }
