//go:build cgo && (roborio || systemcore)

package wpihal

/*
#include "wpihal.h"
*/
import "C"

import (
	"fmt"
	"sync"
	"time"

	"github.com/frcd/frcd/hal"
)

// maxPulse is the longest pulse HAL_SetPWMPulseTimeMicroseconds takes.
const maxPulse = 4095 * time.Microsecond

// maxSkips is how many times in a row an output may be set to the
// value it holds without the HAL being called.
const maxSkips = 9

// lastWrite is what an output was last set to. The FPGA (the roboRIO) and
// SmartIO (Systemcore) keep an output's value until the next write, so
// setting it again to the same value, as the loop does every cycle while
// the robot is disabled, needs no HAL call. A value is written again after
// maxSkips such sets all the same, about 100 ms at the loop's 100 Hz,
// in case something outside frcd changed the output, and after a failed
// write. The zero lastWrite knows nothing: the first set always writes.
//
// Its lock is held across the write, so that what it holds is what the
// HAL was last told even when two goroutines set the output at once (a
// second signal's halt beside the loop's, cmd/frcd): without it, one's
// record could land after the other's write, and a later neutral set,
// the loop's own halt, be skipped with the output not neutral.
type lastWrite[T comparable] struct {
	mu    sync.Mutex
	v     T
	known bool // v was written and the write succeeded
	skips uint8
}

// set writes v with write unless the output holds it already.
func (h *lastWrite[T]) set(v T, write func(T) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.known && h.v == v && h.skips < maxSkips {
		h.skips++
		return nil
	}
	err := write(v)
	h.v, h.known, h.skips = v, err == nil, 0
	return err
}

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

// OpenPWM opens a PWM output: on the roboRIO 0-9 on the header, 10-19 on
// the MXP; on Systemcore a SmartIO channel, 0-5.
func (b *Backend) OpenPWM(ch int) (hal.PWM, error) {
	o := b.opening()
	h := o.handle(fmt.Sprintf("HAL_InitializePWMPort(%d)", ch), func() C.frcd_int { return C.frcd_pwm_init(C.int32_t(ch)) },
		func(h C.int32_t) { C.frcd_pwm_disable(h); C.frcd_pwm_free(h) })
	pwmOpened(o, h)
	if err := o.done(); err != nil {
		return nil, err
	}
	return &pwm{b: b, h: h}, nil
}

type pwm struct {
	b    *Backend
	h    C.int32_t
	last lastWrite[time.Duration]
}

func (p *pwm) SetPulse(w time.Duration) error {
	if p.b.isClosed() {
		return p.b.closedErr()
	}
	if w != 0 && w != hal.AlwaysHigh && (w < 0 || w > maxPulse) {
		return fmt.Errorf("wpihal: PWM pulse %v: not 0, AlwaysHigh or up to %v: %w", w, maxPulse, hal.ErrUnsupported)
	}
	return p.last.set(w, p.write)
}

func (p *pwm) write(w time.Duration) error {
	switch w {
	case 0:
		return p.b.status("HAL_SetPWMDisabled", C.frcd_pwm_disable(p.h))
	case hal.AlwaysHigh:
		return p.b.status("HAL_SetPWMAlwaysHighMode", C.frcd_pwm_always_high(p.h))
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

// OpenDigitalIn opens a DIO channel as an input: on the roboRIO 0-9 on the
// header, 10-25 on the MXP; on Systemcore a SmartIO channel, 0-5.
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
	b    *Backend
	h    C.int32_t
	last lastWrite[bool] // an output's
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
	return d.last.set(high, d.write)
}

func (d *dio) write(high bool) error {
	v := C.int32_t(0)
	if high {
		v = 1
	}
	return d.b.status("HAL_SetDIO", C.frcd_dio_set(d.h, v))
}

// encodingType is HAL_EncoderEncodingType of a hal encoding (the same
// values in both years' Encoder.h).
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

var _ hal.DutyCycleIns = (*Backend)(nil)

// dutyCycleIn is a duty-cycle input, each year's OpenDutyCycleIn's.
type dutyCycleIn struct {
	b *Backend
	h C.int32_t
}

// Output is HAL_GetDutyCycleOutput: the high time over the period, 0 to 1
// (0 with no signal).
func (d *dutyCycleIn) Output() (float64, error) {
	if d.b.isClosed() {
		return 0, d.b.closedErr()
	}
	r := C.frcd_dutycycle_output(d.h)
	return float64(r.v), d.b.status("HAL_GetDutyCycleOutput", r.status)
}

// Frequency is HAL_GetDutyCycleFrequency, Hz, 0 with no signal: on
// Systemcore 1e6 over the period in µs, on the roboRIO the FPGA's count
// in whole Hz.
func (d *dutyCycleIn) Frequency() (float64, error) {
	if d.b.isClosed() {
		return 0, d.b.closedErr()
	}
	r := C.frcd_dutycycle_frequency(d.h)
	return float64(r.v), d.b.status("HAL_GetDutyCycleFrequency", r.status)
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
