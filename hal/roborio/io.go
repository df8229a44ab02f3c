//go:build roborio && cgo

package roborio

/*
#include "wpihal.h"
*/
import "C"

import (
	"fmt"
	"math"
	"time"

	"github.com/frcd/frcd/hal"
)

// DutyCycleRate is the frequency of the DIO PWM generators, Hz: the Nidec
// Brushless's, as WPILib's NidecBrushless sets it.
const DutyCycleRate = 15625

// maxPulse is the longest pulse HAL_SetPWMPulseTimeMicroseconds takes.
const maxPulse = 4095 * time.Microsecond

// opening collects the handles an Open* allocates: done hands them all
// to Close's list, or, when a step failed, frees them at once, so that a
// failed open leaves no channel allocated.
type opening struct {
	b     *Backend
	frees []func()
	err   error
}

func (b *Backend) opening() *opening {
	o := &opening{b: b}
	if b.isClosed() {
		o.err = b.closedErr()
	}
	return o
}

// handle runs an initializer unless a step failed before, and keeps its
// handle.
func (o *opening) handle(call string, init func() C.frcd_int, free func(C.int32_t)) C.int32_t {
	if o.err != nil {
		return 0
	}
	r := init()
	if o.err = o.b.status(call, r.status); o.err != nil {
		return 0
	}
	h := r.v
	o.frees = append(o.frees, func() { free(h) })
	return h
}

// do runs a configuring call unless a step failed before.
func (o *opening) do(call string, f func() C.int32_t) {
	if o.err == nil {
		o.err = o.b.status(call, f())
	}
}

func (o *opening) done() error {
	if o.err == nil {
		o.err = o.b.track(o.frees...)
		return o.err
	}
	for i := len(o.frees) - 1; i >= 0; i-- {
		o.frees[i]()
	}
	return o.err
}

// OpenPWM opens a PWM output: 0-9 on the header, 10-19 on the MXP.
func (b *Backend) OpenPWM(ch int) (hal.PWM, error) {
	o := b.opening()
	h := o.handle(fmt.Sprintf("HAL_InitializePWMPort(%d)", ch), func() C.frcd_int { return C.frcd_pwm_init(C.int32_t(ch)) },
		func(h C.int32_t) { C.frcd_pwm_disable(h); C.frcd_pwm_free(h) })
	if err := o.done(); err != nil {
		return nil, err
	}
	return &pwm{b: b, h: h}, nil
}

type pwm struct {
	b *Backend
	h C.int32_t
}

func (p *pwm) SetPulse(w time.Duration) error {
	if p.b.isClosed() {
		return p.b.closedErr()
	}
	switch {
	case w == 0:
		return p.b.status("HAL_SetPWMDisabled", C.frcd_pwm_disable(p.h))
	case w == hal.AlwaysHigh:
		return p.b.status("HAL_SetPWMAlwaysHighMode", C.frcd_pwm_always_high(p.h))
	case w < 0 || w > maxPulse:
		return fmt.Errorf("roborio: PWM pulse %v: not 0, AlwaysHigh or up to %v: %w", w, maxPulse, hal.ErrUnsupported)
	}
	us := (w + time.Microsecond/2) / time.Microsecond
	return p.b.status("HAL_SetPWMPulseTimeMicroseconds", C.frcd_pwm_set_us(p.h, C.int32_t(us)))
}

func (o *opening) dio(ch int, input bool) C.int32_t {
	in := C.int32_t(0)
	if input {
		in = 1
	}
	return o.handle(fmt.Sprintf("HAL_InitializeDIOPort(%d)", ch), func() C.frcd_int { return C.frcd_dio_init(C.int32_t(ch), in) },
		func(h C.int32_t) { C.frcd_dio_free(h) })
}

// OpenDigitalIn opens a DIO channel as an input: 0-9 on the header,
// 10-25 on the MXP.
func (b *Backend) OpenDigitalIn(ch int) (hal.DigitalIn, error) {
	o := b.opening()
	h := o.dio(ch, true)
	if err := o.done(); err != nil {
		return nil, err
	}
	return &dio{b: b, h: h}, nil
}

// OpenDigitalOut opens a DIO channel as an output.
func (b *Backend) OpenDigitalOut(ch int) (hal.DigitalOut, error) {
	o := b.opening()
	h := o.dio(ch, false)
	if err := o.done(); err != nil {
		return nil, err
	}
	return &dio{b: b, h: h}, nil
}

type dio struct {
	b *Backend
	h C.int32_t
}

func (d *dio) Get() (bool, error) {
	if d.b.isClosed() {
		return false, d.b.closedErr()
	}
	r := C.frcd_dio_get(d.h)
	if err := d.b.status("HAL_GetDIO", r.status); err != nil {
		return false, err
	}
	return r.v != 0, nil
}

func (d *dio) Set(high bool) error {
	if d.b.isClosed() {
		return d.b.closedErr()
	}
	v := C.int32_t(0)
	if high {
		v = 1
	}
	return d.b.status("HAL_SetDIO", C.frcd_dio_set(d.h, v))
}

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
}

func (l *level) put(v float64) error {
	if l.b.isClosed() {
		return l.b.closedErr()
	}
	if math.IsNaN(v) {
		return fmt.Errorf("roborio: %s NaN: %w", l.what, hal.ErrUnsupported)
	}
	return l.b.status(l.call, l.set(l.h, C.double(max(0, min(l.hi, v)))))
}

// SetDutyCycle sets a duty cycle output, 0-1.
func (l *level) SetDutyCycle(duty float64) error { return l.put(duty) }

// SetVoltage sets an analog output, 0-5 V.
func (l *level) SetVoltage(v float64) error { return l.put(v) }

// OpenAnalogIn opens an analog input (0-3 on the header, 4-7 on the MXP)
// with the FPGA averaging 2^averageBits samples and oversampling
// 2^oversampleBits.
func (b *Backend) OpenAnalogIn(ch, averageBits, oversampleBits int) (hal.AnalogIn, error) {
	if averageBits < 0 || oversampleBits < 0 {
		return nil, fmt.Errorf("roborio: analog input %d: negative average or oversample bits: %w", ch, hal.ErrUnsupported)
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

// encodingType is HAL_EncoderEncodingType of a hal encoding.
func encodingType(enc hal.Encoding) (C.int32_t, bool) {
	switch enc {
	case hal.X1:
		return 0, true
	case hal.X2:
		return 1, true
	case hal.X4:
		return 2, true
	}
	return 0, false
}

// OpenEncoder opens DIO inputs a and b and routes them to an FPGA
// quadrature counter in the encoding asked for.
func (b *Backend) OpenEncoder(a, bch int, enc hal.Encoding) (hal.Encoder, error) {
	code, ok := encodingType(enc)
	if !ok {
		return nil, fmt.Errorf("roborio: encoder on DIO %d/%d: encoding %d is not 1, 2 or 4: %w", a, bch, enc, hal.ErrUnsupported)
	}
	if a == bch {
		return nil, fmt.Errorf("roborio: encoder on DIO %d/%d: one channel for both signals: %w", a, bch, hal.ErrInUse)
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

type encoder struct {
	b *Backend
	h C.int32_t
}

func (e *encoder) Count() (int64, error) {
	if e.b.isClosed() {
		return 0, e.b.closedErr()
	}
	r := C.frcd_encoder_raw(e.h)
	if err := e.b.status("HAL_GetEncoderRaw", r.status); err != nil {
		return 0, err
	}
	return int64(r.v), nil
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
	b *Backend
	h [2]C.int32_t // forward, reverse
}

func (r *relay) Set(forward, reverse bool) error {
	if r.b.isClosed() {
		return r.b.closedErr()
	}
	for i, on := range [2]bool{forward, reverse} {
		v := C.int32_t(0)
		if on {
			v = 1
		}
		if err := r.b.status("HAL_SetRelay", C.frcd_relay_set(r.h[i], v)); err != nil {
			return err
		}
	}
	return nil
}
