//go:build cgo && (roborio || systemcore)

package wpihal

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

	"github.com/frcd/frcd/hal"
)

// Library is the file name of the WPILib HAL.
const Library = "libwpiHal.so"

// Year is the WPILib HAL this build calls: "2026" (the roboRIO's, build
// tag roborio) or "2027" (Systemcore's, build tag systemcore).
var Year = C.GoString(C.frcd_hal_year())

// ErrNoLibrary is wrapped by Open's error when libwpiHal.so is in none of
// the directories searched, or cannot be loaded, or is not the HAL of Year.
var ErrNoLibrary = errors.New("WPILib HAL missing")

// Options are Open's settings; the platform's package (hal/roborio,
// hal/systemcore) fills Dirs and Checklist.
type Options struct {
	// Dirs are searched for libwpiHal.so, in order, after the
	// directories of LD_LIBRARY_PATH.
	Dirs []string
	// Library, when set, is the path of the library to load, searching
	// nothing (tests load a fake HAL this way).
	Library string
	// Checklist is the file the errors send the user to ("" is
	// deploy/roborio-checklist.md).
	Checklist string
	// InitTimeout is how long HAL_Initialize waits for a robot program
	// that still runs to exit (the 2026 HAL's and v2027.0.0-alpha-6's);
	// 0 means 500 ms, as WPILib's programs wait. main's 2027 HAL takes
	// none.
	InitTimeout time.Duration
	// CTRE says where CTRE's libraries are (hal/ctre); on the roboRIO
	// they load when present, under the FRC enable rules. Their absence
	// is no error until a CTRE device is opened. (Systemcore's backend
	// loads them for SocketCAN, as a coprocessor does: hal/linux.)
	CTRE ctreOptions
}

// Backend is the WPILib HAL as a hal.Backend. Its methods are safe for
// concurrent use: the HAL is, and the backend's own state is guarded.
type Backend struct {
	closed    atomic.Bool
	checklist string
	path      string    // the library loaded
	t0        uint64    // the HAL's clock at Open, µs
	start     time.Time // Open's time, the Clock's zero

	// estop latches the Driver Station's e-stop until the process ends, as
	// WPILib's own robot programs need a restart after one; held keeps the
	// robot disabled for good (Hold).
	estop, held atomic.Bool

	mu    sync.Mutex // guards what follows
	frees []func()   // handles to free at Close, in opening order
	years            // the year's own parts (hal2026.go, hal2027.go)
	// joy and match are C memory the trampolines fill, guarded by joyMu.
	joyMu sync.Mutex
	joy   *C.frcd_joystick
	match *C.frcd_match
}

var (
	_ hal.Backend    = (*Backend)(nil)
	_ hal.Joysticks  = (*Backend)(nil)
	_ hal.MatchTimer = (*Backend)(nil)
	_ hal.Brownouts  = (*Backend)(nil)
	_ hal.MatchInfos = (*Backend)(nil)
	_ hal.HALClock   = (*Backend)(nil)
	_ hal.Epocher    = (*Backend)(nil)
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
	if o.Checklist == "" {
		o.Checklist = "deploy/roborio-checklist.md"
	}
	if isOpen {
		return nil, fmt.Errorf("wpihal: the HAL is already open in this process: %w", hal.ErrInUse)
	}
	path, err := find(o)
	if err != nil {
		return nil, err
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var msg [512]C.char
	if C.frcd_load(cpath, &msg[0], C.int(len(msg))) == 0 {
		return nil, fmt.Errorf("wpihal: %w: cannot load %s: %s; deploy WPILib's %s HAL and its dependencies (see %s)",
			ErrNoLibrary, path, oneLine(C.GoString(&msg[0])), Year, o.Checklist)
	}
	timeout := o.InitTimeout
	if timeout == 0 {
		timeout = 500 * time.Millisecond
	}
	if C.frcd_initialize(C.int32_t(timeout.Milliseconds())) == 0 {
		return nil, fmt.Errorf("wpihal: HAL_Initialize failed (%s; see %s)", initFailure, o.Checklist)
	}
	b := &Backend{checklist: o.Checklist, path: path,
		joy:   (*C.frcd_joystick)(C.calloc(1, C.size_t(unsafe.Sizeof(C.frcd_joystick{})))),
		match: (*C.frcd_match)(C.calloc(1, C.size_t(unsafe.Sizeof(C.frcd_match{}))))}
	t := C.frcd_now_us()
	if err := b.status("HAL clock", t.status); err != nil {
		C.frcd_shutdown()
		C.free(unsafe.Pointer(b.joy))
		C.free(unsafe.Pointer(b.match))
		return nil, err
	}
	b.t0, b.start = uint64(t.v), time.Now()
	if err := b.openYear(o); err != nil {
		C.frcd_shutdown()
		C.free(unsafe.Pointer(b.joy))
		C.free(unsafe.Pointer(b.match))
		return nil, err
	}
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
	return "", fmt.Errorf("wpihal: %w: %s not found in %s%s; deploy WPILib's %s HAL (see %s)",
		ErrNoLibrary, Library, where, strings.Join(dirs, ", "), Year, o.Checklist)
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
	b.closeYear()
	C.frcd_shutdown()
	b.joyMu.Lock()
	C.free(unsafe.Pointer(b.joy))
	C.free(unsafe.Pointer(b.match))
	b.joy, b.match = nil, nil
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
	return fmt.Sprintf("wpihal: %s: HAL status %d: %s", e.Call, e.Code, e.Message)
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
	return fmt.Errorf("wpihal: %w", hal.ErrClosed)
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

// Now is the time since Open on the OS's monotonic clock, which a HAL
// clock that fails cannot stop or turn back (NetComm stamps CAN frames on
// that clock too). The HAL's own clock is ReadClock's, which the daemon
// checks against this one every cycle.
func (b *Backend) Now() time.Duration { return time.Since(b.start) }

// Epoch is the wall-clock time of Now's zero.
func (b *Backend) Epoch() time.Time { return b.start }

// ReadClock reads the HAL's clock (2026: HAL_GetFPGATime; 2027:
// HAL_GetMonotonicTime): its time since Open, negative when it stepped
// back past that, or its status when it cannot be read (hal.HALClock).
func (b *Backend) ReadClock() (time.Duration, error) {
	if b.isClosed() {
		return 0, b.closedErr()
	}
	t := C.frcd_now_us()
	if err := b.status("HAL clock", t.status); err != nil {
		return 0, err
	}
	return time.Duration(int64(uint64(t.v)-b.t0)) * time.Microsecond, nil
}

// DS refreshes the Driver Station's data, decodes its control word and
// tells the Driver Station the program is running in that mode (disabled,
// autonomous, teleop or test), as it expects every loop. The robot is
// enabled only while the Driver Station says so, the HAL has its data,
// outputs are enabled (2027's HAL_GetOutputsEnabled: Systemcore's
// watchdog), no e-stop has been seen since Open and Hold was not called.
// A failed read is a detached, disabled Driver Station.
func (b *Backend) DS() hal.DSState {
	if b.isClosed() {
		return hal.DSState{}
	}
	run := C.int32_t(1)
	if b.held.Load() || b.estop.Load() {
		run = 0
	}
	r := C.frcd_ds(run)
	if r.status != 0 {
		return hal.DSState{EStop: b.estop.Load()}
	}
	s := decodeDS(uint32(r.v))
	s.OpMode = dsOpMode()
	if s.EStop {
		b.estop.Store(true)
	}
	s.EStop = b.estop.Load()
	if s.EStop || b.held.Load() {
		s.Enabled = false
	}
	return s
}

// Library is the path of the libwpiHal.so loaded.
func (b *Backend) Library() string { return b.path }

// Layout is the layout of the HAL loaded, as Open read it from the symbols
// the library exports: the allwpilib release (or main and its commit)
// whose headers frcd calls it by ("v2026.2.2", "v2027.0.0-alpha-6",
// "main caf0fb2dcc").
func (b *Backend) Layout() string { return C.GoString(C.frcd_hal_layout()) }

// Hold keeps the robot disabled from now on, whatever the Driver Station
// says (the daemon's final halt), and tells the Driver Station so.
func (b *Backend) Hold() { b.held.Store(true) }

func decodeDS(w uint32) hal.DSState {
	s := hal.DSState{Enabled: w&C.FRCD_DS_ENABLED != 0, EStop: w&C.FRCD_DS_ESTOP != 0, Attached: w&C.FRCD_DS_ATTACHED != 0,
		FMS: w&C.FRCD_DS_FMS != 0}
	switch {
	case w&C.FRCD_DS_TEST != 0:
		s.Mode = hal.Test
	case w&C.FRCD_DS_AUTONOMOUS != 0:
		s.Mode = hal.Autonomous
	}
	if !s.Attached || w&C.FRCD_DS_OUTPUTS == 0 || w&C.FRCD_DS_REFRESHED == 0 {
		s.Enabled = false
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

// MatchInfo is HAL_GetMatchInfo (and 2027's HAL_GetGameData): the match
// the Driver Station last reported (the field's event, type and number;
// empty off the field).
func (b *Backend) MatchInfo() (hal.MatchInfo, error) {
	b.joyMu.Lock()
	defer b.joyMu.Unlock()
	if b.match == nil {
		return hal.MatchInfo{}, b.closedErr()
	}
	m := b.match
	if err := b.status("HAL_GetMatchInfo", C.frcd_match_info(m)); err != nil {
		return hal.MatchInfo{}, err
	}
	ev := unsafe.Slice((*byte)(unsafe.Pointer(&m.event[0])), len(m.event))
	if i := bytes.IndexByte(ev, 0); i >= 0 {
		ev = ev[:i]
	}
	msg := unsafe.Slice((*byte)(unsafe.Pointer(&m.msg[0])), len(m.msg))
	msg = msg[:max(0, min(int(m.msglen), len(msg)))]
	typ := hal.MatchNone
	if m._type > 0 && m._type <= C.int32_t(hal.MatchElimination) {
		typ = hal.MatchType(m._type)
	}
	return hal.MatchInfo{Event: string(ev), Type: typ, Number: int(m.number),
		Replay: int(m.replay), GameMessage: string(msg)}, nil
}

// Joystick reads joystick n's axes, POVs and buttons as the last
// DS refresh brought them.
func (b *Backend) Joystick(n int, dst *hal.JoystickState) error {
	if n < 0 || n >= hal.MaxJoysticks {
		return fmt.Errorf("wpihal: joystick %d (0-%d): %w", n, hal.MaxJoysticks-1, hal.ErrNoDevice)
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
		NumAxes:    max(0, min(int(j.naxes), hal.MaxJoystickAxes)),
		NumPOVs:    max(0, min(int(j.npovs), hal.MaxJoystickPOVs)),
		NumButtons: max(0, min(int(j.nbuttons), hal.MaxJoystickButtons)),
		Buttons:    uint32(j.buttons),
	}
	for i := 0; i < dst.NumAxes; i++ {
		dst.Axes[i] = float64(j.axes[i])
	}
	for i := 0; i < dst.NumPOVs; i++ {
		dst.POVs[i] = int(j.povs[i])
	}
	return nil
}

// Vin is HAL_GetVinVoltage: the battery's voltage at the controller.
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

// BrownedOut is HAL_GetBrownedOut: the controller has disabled its
// outputs because its input voltage fell below the brownout threshold.
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
