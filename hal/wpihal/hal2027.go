//go:build cgo && systemcore && !roborio

package wpihal

/*
#include <stdlib.h>
#include "hal2027.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/frcd/frcd/hal"
)

// Systemcore's 2027 HAL: what only it has (the SmartIO PWM period,
// quadrature encoders on SmartIO pairs, duty-cycle inputs, the built-in
// IMU).

var (
	_ hal.BuiltInIMUs     = (*Backend)(nil)
	_ hal.AddressableLEDs = (*Backend)(nil)
	_ hal.OpModeSetter    = (*Backend)(nil)
)

// dsOpMode is the op mode the control word DS read last selects.
func dsOpMode() int64 { return int64(C.frcd_ds_opmode()) }

// SetOpModes registers the robot's op modes with the Driver Station
// (HAL_SetOpModeOptions; none clears them), which lists them and selects
// one: DS then reports it (hal.DSState.OpMode). Names are passed as they
// are (config bounds them); no group, description or colours.
func (b *Backend) SetOpModes(ops hal.OpModes) error {
	if b.isClosed() {
		return b.closedErr()
	}
	if len(ops) > hal.MaxOpModes {
		return fmt.Errorf("wpihal: %d op modes, %d is the HAL's limit", len(ops), hal.MaxOpModes)
	}
	n := max(len(ops), 1)
	ids := (*[hal.MaxOpModes]C.int64_t)(C.calloc(C.size_t(n), 8))
	lens := (*[hal.MaxOpModes]C.int32_t)(C.calloc(C.size_t(n), 4))
	defer C.free(unsafe.Pointer(ids))
	defer C.free(unsafe.Pointer(lens))
	var names []byte
	for i, o := range ops {
		ids[i], lens[i] = C.int64_t(o.ID), C.int32_t(len(o.Name))
		names = append(names, o.Name...)
	}
	cnames := C.CBytes(append(names, 0))
	defer C.free(cnames)
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.status("HAL_SetOpModeOptions", C.frcd_set_opmodes(&ids[0], (*C.char)(cnames), &lens[0], C.int32_t(len(ops))))
}

// ctreOptions are empty: on Systemcore CTRE's libraries drive SocketCAN,
// loaded by hal/linux as on a coprocessor.
type ctreOptions struct{}

// initFailure is what a failed HAL_Initialize means on Systemcore
// (HAL.cpp: it fails when the CAN buses cannot be opened; when mrclib's
// API version differs or the system server does not answer within 10 s,
// WPILib's MrcLibDs ends the process instead, std::terminate).
const initFailure = "Systemcore's CAN buses could not be opened"

// years are the 2027 backend's own parts.
type years struct {
	imuOpen bool
	imu     *C.double // 10 doubles of C memory frcd_imu_read fills
}

// errSimulation is Open's error when the library is WPILib's simulation
// HAL: it drives nothing.
var errSimulation = errors.New("HAL_GetRuntimeType says simulation: this libwpiHal.so is WPILib's simulation HAL, not Systemcore's")

func (b *Backend) openYear(Options) error {
	if C.frcd_runtime_type() != 0 {
		return fmt.Errorf("wpihal: %w: %w", ErrNoLibrary, errSimulation)
	}
	b.imu = (*C.double)(C.calloc(10, C.size_t(8)))
	return nil
}

func (b *Backend) closeYear() {
	b.mu.Lock()
	defer b.mu.Unlock()
	C.free(unsafe.Pointer(b.imu))
	b.imu = nil
}

// pwm20ms is HAL_SetPWMOutputPeriod's value for 20 ms (PWM.cpp: 0 5 ms,
// 1 or 2 10 ms, 3 20 ms).
const pwm20ms = 3

// pwmOpened sets a SmartIO PWM output's period to 20 ms, the period of
// the PWM motor controllers' pulses, rather than leaving the channel's
// last one (a 5 ms period turns a 2 ms pulse into 40% duty).
func pwmOpened(o *opening, h C.int32_t) {
	o.do("HAL_SetPWMOutputPeriod", func() C.int32_t { return C.frcd_pwm_period(h, pwm20ms) })
}

// OpenAnalogIn opens a SmartIO channel as an analog input. Systemcore
// averages as its firmware does: averageBits and oversampleBits (the
// roboRIO FPGA's) have no effect.
func (b *Backend) OpenAnalogIn(ch, averageBits, oversampleBits int) (hal.AnalogIn, error) {
	o := b.opening()
	h := o.handle(fmt.Sprintf("HAL_InitializeAnalogInputPort(%d)", ch), func() C.frcd_int { return C.frcd_ai_init(C.int32_t(ch)) },
		func(h C.int32_t) { C.frcd_ai_free(h) })
	if err := o.done(); err != nil {
		return nil, err
	}
	return &analogIn{b: b, h: h}, nil
}

type analogIn struct {
	b *Backend
	h C.int32_t
}

// Voltage is HAL_GetAnalogVoltage: SmartIO's 0-3.3 V inputs.
func (a *analogIn) Voltage() (float64, error) {
	if a.b.isClosed() {
		return 0, a.b.closedErr()
	}
	r := C.frcd_ai_voltage(a.h)
	return float64(r.v), a.b.status("HAL_GetAnalogVoltage", r.status)
}

// OpenEncoder opens SmartIO channels a and b as a quadrature encoder. The
// HAL takes a pair of channels, the first even and the second the next
// (Encoder.cpp IsValidChannelPair); a pair given the other way round is
// the same pair reversed.
func (b *Backend) OpenEncoder(a, bch int, enc hal.Encoding) (hal.Encoder, error) {
	code, ok := encodingType(enc)
	if !ok {
		return nil, fmt.Errorf("wpihal: encoder on SmartIO %d/%d: encoding %d is not 1, 2 or 4: %w", a, bch, enc, hal.ErrUnsupported)
	}
	first, second, reverse := a, bch, C.int32_t(0)
	if a == bch+1 {
		first, second, reverse = bch, a, 1
	}
	if first < 0 || first%2 != 0 || second != first+1 {
		return nil, fmt.Errorf("wpihal: encoder on SmartIO %d/%d: Systemcore counts quadrature on channel pairs 0/1, 2/3, 4/5 only: %w", a, bch, hal.ErrNoDevice)
	}
	o := b.opening()
	h := o.handle(fmt.Sprintf("HAL_InitializeEncoder(%d, %d, %dx)", first, second, enc),
		func() C.frcd_int {
			return C.frcd_encoder_init_channels(C.int32_t(first), C.int32_t(second), reverse, code)
		}, func(h C.int32_t) { C.frcd_encoder_free(h) })
	if err := o.done(); err != nil {
		return nil, err
	}
	return &encoder{b: b, h: h}, nil
}

// OpenDutyCycleIn opens a SmartIO channel, 0-5, as a duty-cycle input
// (HAL_InitializeDutyCycle: the channel in mrclib's PWM input mode).
func (b *Backend) OpenDutyCycleIn(ch int) (hal.DutyCycleIn, error) {
	o := b.opening()
	h := o.handle(fmt.Sprintf("HAL_InitializeDutyCycle(%d)", ch), func() C.frcd_int { return C.frcd_dutycycle_init(C.int32_t(ch)) },
		func(h C.int32_t) { C.frcd_dutycycle_free(h) })
	if err := o.done(); err != nil {
		return nil, err
	}
	return &dutyCycleIn{b: b, h: h}, nil
}

// OpenBuiltInIMU opens Systemcore's built-in IMU (HAL_GetIMUQuaternion,
// HAL_GetIMUGyroRates, HAL_GetIMUAcceleration); it can be opened once.
func (b *Backend) OpenBuiltInIMU() (hal.Pigeon, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed.Load() {
		return nil, b.closedErr()
	}
	if b.imuOpen {
		return nil, fmt.Errorf("wpihal: the built-in IMU: %w", hal.ErrInUse)
	}
	b.imuOpen = true
	return &imu{b: b}, nil
}

type imu struct{ b *Backend }

// Read gives the orientation (w, x, y, z), the rates in rad/s and the
// acceleration in m/s², as the HAL gives them.
func (m *imu) Read() (q [4]float64, gyro, accel [3]float64, err error) {
	b := m.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.imu == nil {
		return q, gyro, accel, b.closedErr()
	}
	if err := b.status("HAL_GetIMU", C.frcd_imu_read(b.imu)); err != nil {
		return q, gyro, accel, err
	}
	v := unsafe.Slice((*float64)(unsafe.Pointer(b.imu)), 10)
	copy(q[:], v[0:4])
	copy(gyro[:], v[4:7])
	copy(accel[:], v[7:10])
	return q, gyro, accel, nil
}

// maxLEDs is HAL_ADDRESSABLE_LED_MAX_LEN: the LEDs of the one buffer all
// SmartIO channels' windows share.
const maxLEDs = 1024

// OpenAddressableLED opens a SmartIO channel, 0-5, as addressable LEDs
// (HAL_InitializeAddressableLED), its window length LEDs from start of the
// shared buffer (HAL_SetAddressableLEDStart, HAL_SetAddressableLEDLength),
// and writes them off. Close writes them off again before freeing.
func (b *Backend) OpenAddressableLED(ch, start, length int, order hal.LEDOrder) (hal.AddressableLED, error) {
	if start < 0 || length < 1 || start+length > maxLEDs || order < hal.LEDRGB || order > hal.LEDGRB {
		return nil, fmt.Errorf("wpihal: LEDs %d to %d in order %d: not within the %d LEDs of the buffer: %w", start, start+length-1, order, maxLEDs, hal.ErrNoDevice)
	}
	l := &addressableLED{b: b, start: C.int32_t(start), length: C.int32_t(length), order: C.int32_t(order), off: make([]byte, 3*length)}
	o := b.opening()
	h := o.handle(fmt.Sprintf("HAL_InitializeAddressableLED(%d)", ch), func() C.frcd_int { return C.frcd_led_init(C.int32_t(ch)) },
		func(h C.int32_t) { l.write(l.off); C.frcd_led_free(h) })
	o.do("HAL_SetAddressableLEDStart/Length", func() C.int32_t { return C.frcd_led_window(h, l.start, l.length) })
	o.do("HAL_SetAddressableLEDData", func() C.int32_t { return l.write(l.off) })
	if err := o.done(); err != nil {
		return nil, err
	}
	return l, nil
}

type addressableLED struct {
	b                    *Backend
	start, length, order C.int32_t
	off                  []byte // every LED off
}

func (l *addressableLED) write(rgb []byte) C.int32_t {
	return C.frcd_led_set(l.start, l.length, l.order, (*C.uint8_t)(unsafe.Pointer(&rgb[0])))
}

// SetColors is HAL_SetAddressableLEDData on the window: r, g, b per LED.
func (l *addressableLED) SetColors(rgb []byte) error {
	if l.b.isClosed() {
		return l.b.closedErr()
	}
	if len(rgb) != len(l.off) {
		return fmt.Errorf("wpihal: %d bytes of colour for %d LEDs (want %d): %w", len(rgb), l.length, len(l.off), hal.ErrUnsupported)
	}
	return l.b.status("HAL_SetAddressableLEDData", l.write(rgb))
}
