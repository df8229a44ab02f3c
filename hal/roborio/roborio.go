//go:build roborio && cgo

package roborio

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "wpihal.h"
*/
import "C"

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/ctre"
)

// Library is the file name of the WPILib HAL.
const Library = "libwpiHal.so"

// DefaultDirs are where WPILib's deploy puts libwpiHal.so (third-party)
// and where the roboRIO image keeps NI's and WPILib's libraries.
var DefaultDirs = []string{"/usr/local/frc/third-party/lib", "/usr/local/frc/lib"}

// Checklist is where a user reads how to deploy the HAL.
const Checklist = "deploy/roborio-checklist.md"

// ErrNoLibrary is wrapped by Open's error when libwpiHal.so is in none of
// the directories searched, or cannot be loaded.
var ErrNoLibrary = errors.New("WPILib HAL missing")

// Options are Open's settings; the zero value is what a robot wants.
type Options struct {
	// Dirs are searched for libwpiHal.so, in order, after the
	// directories of LD_LIBRARY_PATH; nil means DefaultDirs.
	Dirs []string
	// Library, when set, is the path of the library to load, searching
	// nothing (tests load a fake HAL this way).
	Library string
	// InitTimeout is how long HAL_Initialize waits for a robot program
	// that still runs to exit; 0 means 500 ms, as WPILib's programs wait.
	InitTimeout time.Duration
	// CTRE says where CTRE's libraries are (hal/ctre); they load when
	// present, under the FRC enable rules. Their absence is no error
	// until a CTRE device is opened.
	CTRE ctre.Options
}

// Backend is the roboRIO's hal.Backend. Its methods are safe for
// concurrent use: the HAL is, and the backend's own state is guarded.
type Backend struct {
	closed  atomic.Bool
	t0      uint64       // HAL_GetFPGATime at Open, µs
	lastNow atomic.Int64 // the last Now, a time.Duration

	ctre    *ctre.Lib // nil when CTRE's libraries did not load: ctreErr says why
	ctreErr error

	mu    sync.Mutex // guards what follows
	frees []func()   // handles to free at Close, in opening order
	bus   canBus
	spi   [numSPI]*spiPort
	i2c   [numI2C]*i2cBus
	// accelOpen: the built-in accelerometer is open (accel.go).
	accelOpen bool
	// joy is C memory the joystick trampoline fills, guarded by joyMu.
	joyMu sync.Mutex
	joy   *C.frcd_joystick
}

var (
	_ hal.Backend    = (*Backend)(nil)
	_ hal.Joysticks  = (*Backend)(nil)
	_ hal.MatchTimer = (*Backend)(nil)
	_ hal.Brownouts  = (*Backend)(nil)
	_ hal.MatchInfos = (*Backend)(nil)
	_ hal.Reporter   = (*Backend)(nil)
	_ hal.Lacker     = (*Backend)(nil)
)

// openMu and isOpen guard the one Backend a process may have: the HAL is
// a process-wide singleton.
var (
	openMu sync.Mutex
	isOpen bool
)

// Open loads libwpiHal.so, initializes the HAL and tells the Driver
// Station the program has started. Its error is one line: when the
// library is missing, which file, where it looked and what to do.
func Open(o Options) (*Backend, error) {
	openMu.Lock()
	defer openMu.Unlock()
	if isOpen {
		return nil, fmt.Errorf("roborio: the HAL is already open in this process: %w", hal.ErrInUse)
	}
	path, err := find(o)
	if err != nil {
		return nil, err
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var msg [512]C.char
	if C.frcd_load(cpath, &msg[0], C.int(len(msg))) == 0 {
		return nil, fmt.Errorf("roborio: %w: cannot load %s: %s; deploy WPILib's HAL and its dependencies (see %s)",
			ErrNoLibrary, path, oneLine(C.GoString(&msg[0])), Checklist)
	}
	timeout := o.InitTimeout
	if timeout == 0 {
		timeout = 500 * time.Millisecond
	}
	// Mode 0 kills a robot program that still runs, as WPILib's do.
	if C.frcd_initialize(C.int32_t(timeout.Milliseconds()), 0) == 0 {
		return nil, fmt.Errorf("roborio: HAL_Initialize failed (another robot program that would not stop, or no FPGA; see %s)", Checklist)
	}
	b := &Backend{joy: (*C.frcd_joystick)(C.calloc(1, C.size_t(unsafe.Sizeof(C.frcd_joystick{}))))}
	t := C.frcd_fpga_time()
	if err := b.status("HAL_GetFPGATime", t.status); err != nil {
		C.frcd_shutdown()
		C.free(unsafe.Pointer(b.joy))
		return nil, err
	}
	b.t0 = uint64(t.v)
	b.bus.init(b)
	co := o.CTRE
	co.FRC = true
	b.ctre, b.ctreErr = ctre.Open(co)
	C.frcd_observe_starting()
	isOpen = true
	return b, nil
}

// find is the path of the library to load: Options.Library, else the
// first libwpiHal.so in LD_LIBRARY_PATH's directories and then o.Dirs.
func find(o Options) (string, error) {
	if o.Library != "" {
		return o.Library, nil
	}
	dirs := o.Dirs
	if dirs == nil {
		dirs = DefaultDirs
	}
	env := os.Getenv("LD_LIBRARY_PATH")
	var searched []string
	for _, d := range filepath.SplitList(env) {
		if d != "" {
			searched = append(searched, d)
		}
	}
	for _, d := range append(searched, dirs...) {
		p := filepath.Join(d, Library)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	where := "LD_LIBRARY_PATH (unset), "
	if env != "" {
		where = "LD_LIBRARY_PATH (" + env + "), "
	}
	return "", fmt.Errorf("roborio: %w: %s not found in %s%s; deploy WPILib's HAL to the roboRIO (see %s)",
		ErrNoLibrary, Library, where, strings.Join(dirs, ", "), Checklist)
}

// oneLine folds a multi-line loader message onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Close frees every handle the backend opened and shuts the HAL down.
// Outputs go neutral: the FPGA stops PWM pulses and DIO PWM generators of
// freed handles. The library stays loaded (see wpihal.c). Calls after
// Close fail with hal.ErrClosed.
func (b *Backend) Close() error {
	b.mu.Lock()
	if b.closed.Swap(true) {
		b.mu.Unlock()
		return nil
	}
	frees := b.frees
	b.frees = nil
	b.mu.Unlock()
	for i := len(frees) - 1; i >= 0; i-- {
		frees[i]()
	}
	b.bus.close()
	C.frcd_shutdown()
	b.joyMu.Lock()
	C.free(unsafe.Pointer(b.joy))
	b.joy = nil
	b.joyMu.Unlock()
	openMu.Lock()
	isOpen = false
	openMu.Unlock()
	return nil
}

// StatusError is a HAL call's failure: the call, its status code and the
// HAL's message for it.
type StatusError struct {
	Call    string
	Code    int32
	Message string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("roborio: %s: HAL status %d: %s", e.Call, e.Code, e.Message)
}

// Unwrap gives the hal sentinel the status means, if any.
func (e *StatusError) Unwrap() error {
	switch e.Code {
	case C.FRCD_RESOURCE_IS_ALLOCATED:
		return hal.ErrInUse
	case C.FRCD_RESOURCE_OUT_OF_RANGE, C.FRCD_PARAMETER_OUT_OF_RANGE:
		return hal.ErrNoDevice
	}
	return nil
}

// status turns a HAL status into an error (nil for 0). HAL_USE_LAST_ERROR
// means the detail is in HAL_GetLastError, which also gives the real code.
func (b *Backend) status(call string, st C.int32_t) error {
	if st == 0 {
		return nil
	}
	return statusError(call, st)
}

func statusError(call string, st C.int32_t) error {
	code := st
	var msg string
	if code == C.FRCD_HAL_USE_LAST_ERROR {
		msg = C.GoString(C.frcd_last_error(&code))
	} else {
		msg = C.GoString(C.frcd_error_message(code))
	}
	return &StatusError{Call: call, Code: int32(code), Message: oneLine(msg)}
}

func (b *Backend) closedErr() error {
	return fmt.Errorf("roborio: %w", hal.ErrClosed)
}

// track records handles' free functions for Close, refusing when the
// backend is closed (then it frees them at once).
func (b *Backend) track(frees ...func()) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed.Load() {
		for i := len(frees) - 1; i >= 0; i-- {
			frees[i]()
		}
		return b.closedErr()
	}
	b.frees = append(b.frees, frees...)
	return nil
}

func (b *Backend) isClosed() bool { return b.closed.Load() }

// Now is the FPGA's time since Open. Should the FPGA clock fail to read,
// it repeats the last time read.
func (b *Backend) Now() time.Duration {
	t := C.frcd_fpga_time()
	if t.status == 0 && !b.closed.Load() {
		b.lastNow.Store(int64(time.Duration(uint64(t.v)-b.t0) * time.Microsecond))
	}
	return time.Duration(b.lastNow.Load())
}

// DS refreshes the Driver Station's data, decodes its control word and
// tells the Driver Station the program is running in that mode (disabled,
// autonomous, teleop or test), as it expects every loop. A failed read is
// a detached, disabled Driver Station.
func (b *Backend) DS() hal.DSState {
	if b.isClosed() {
		return hal.DSState{}
	}
	r := C.frcd_ds()
	if r.status != 0 {
		return hal.DSState{}
	}
	return decodeControlWord(uint32(r.v))
}

// Control word bits as frcd_ds packs them.
const (
	cwEnabled = 1 << iota
	cwAutonomous
	cwTest
	cwEStop
	cwFMS
	cwDS
)

func decodeControlWord(w uint32) hal.DSState {
	s := hal.DSState{Enabled: w&cwEnabled != 0, EStop: w&cwEStop != 0, Attached: w&cwDS != 0}
	switch {
	case w&cwTest != 0:
		s.Mode = hal.Test
	case w&cwAutonomous != 0:
		s.Mode = hal.Autonomous
	}
	return s
}

// MatchTime is HAL_GetMatchTime: seconds left in the match period, or
// negative when the Driver Station does not know.
func (b *Backend) MatchTime() (float64, error) {
	if b.isClosed() {
		return 0, b.closedErr()
	}
	r := C.frcd_match_time()
	if err := b.status("HAL_GetMatchTime", r.status); err != nil {
		return 0, err
	}
	return float64(r.v), nil
}

// MatchInfo is HAL_GetMatchInfo: the match the Driver Station last
// reported (the field's event, type and number; empty off the field).
func (b *Backend) MatchInfo() (hal.MatchInfo, error) {
	if b.isClosed() {
		return hal.MatchInfo{}, b.closedErr()
	}
	var m C.frcd_MatchInfo
	if err := b.status("HAL_GetMatchInfo", C.frcd_match_info(&m)); err != nil {
		return hal.MatchInfo{}, err
	}
	ev := unsafe.Slice((*byte)(unsafe.Pointer(&m.eventName[0])), len(m.eventName))
	if i := bytes.IndexByte(ev, 0); i >= 0 {
		ev = ev[:i]
	}
	msg := unsafe.Slice((*byte)(unsafe.Pointer(&m.gameSpecificMessage[0])), len(m.gameSpecificMessage))
	msg = msg[:min(int(m.gameSpecificMessageSize), len(msg))]
	typ := hal.MatchNone
	if m.matchType > 0 && m.matchType <= C.int32_t(hal.MatchElimination) {
		typ = hal.MatchType(m.matchType)
	}
	return hal.MatchInfo{Event: string(ev), Type: typ, Number: int(m.matchNumber),
		Replay: int(m.replayNumber), GameMessage: string(msg)}, nil
}

// Joystick reads joystick n's axes, POVs and buttons as the last
// DS refresh brought them.
func (b *Backend) Joystick(n int, dst *hal.JoystickState) error {
	if n < 0 || n >= hal.MaxJoysticks {
		return fmt.Errorf("roborio: joystick %d (0-%d): %w", n, hal.MaxJoysticks-1, hal.ErrNoDevice)
	}
	b.joyMu.Lock()
	defer b.joyMu.Unlock()
	if b.joy == nil {
		return b.closedErr()
	}
	if err := b.status("HAL_GetJoystick", C.frcd_joystick_read(C.int32_t(n), b.joy)); err != nil {
		return err
	}
	j := b.joy
	*dst = hal.JoystickState{
		NumAxes:    min(int(j.axes.count), hal.MaxJoystickAxes),
		NumPOVs:    min(int(j.povs.count), hal.MaxJoystickPOVs),
		NumButtons: min(int(j.buttons.count), hal.MaxJoystickButtons),
		Buttons:    uint32(j.buttons.buttons),
	}
	for i := 0; i < dst.NumAxes; i++ {
		dst.Axes[i] = float64(j.axes.axes[i])
	}
	for i := 0; i < dst.NumPOVs; i++ {
		dst.POVs[i] = int(j.povs.povs[i])
	}
	return nil
}

// Vin is HAL_GetVinVoltage.
func (b *Backend) Vin() (float64, error) {
	if b.isClosed() {
		return 0, b.closedErr()
	}
	r := C.frcd_vin()
	if err := b.status("HAL_GetVinVoltage", r.status); err != nil {
		return 0, err
	}
	return float64(r.v), nil
}

// BrownedOut is HAL_GetBrownedOut: the roboRIO has disabled its outputs
// because its input voltage fell below the brownout threshold.
func (b *Backend) BrownedOut() (bool, error) {
	if b.isClosed() {
		return false, b.closedErr()
	}
	r := C.frcd_browned_out()
	if err := b.status("HAL_GetBrownedOut", r.status); err != nil {
		return false, err
	}
	return r.v != 0, nil
}

// Vendor is CTRE's libraries (hal.VendorLibs), nil when they did not load.
func (b *Backend) Vendor() any {
	if b.ctre == nil {
		return nil
	}
	return b.ctre
}

// Lacks says why CTRE's devices cannot open: their libraries did not load
// (or lack that family).
func (b *Backend) Lacks(c hal.Caps) string {
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
		return nil, fmt.Errorf("roborio: SPI port %d (0-%d): %w", port, numSPI-1, hal.ErrNoDevice)
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
		return nil, fmt.Errorf("roborio: I2C port %d (0-%d): %w", port, numI2C-1, hal.ErrNoDevice)
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
