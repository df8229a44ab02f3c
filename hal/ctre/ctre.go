//go:build (ctre || roborio) && cgo

package ctre

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "phoenix.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
)

// The libraries' file names: Phoenix 6's C API and platform, then
// Phoenix 5's C interface (which needs the first).
var Libraries = []string{"libCTRE_PhoenixTools.so", "libCTRE_PhoenixCCI.so"}

// DefaultDirs are where CTRE's vendor library deploy puts them on a
// roboRIO, then the usual places on a Linux computer.
var DefaultDirs = []string{"/usr/local/frc/third-party/lib", "/usr/local/lib", "/usr/lib"}

// FeedTimeout is how long a feed keeps a non-FRC robot's actuators
// enabled: five 20 ms loops.
const FeedTimeout = 100 * time.Millisecond

// ErrNoLibrary is wrapped by Open's error when no library loads.
var ErrNoLibrary = errors.New("CTRE Phoenix libraries missing")

// Options are Open's settings.
type Options struct {
	// Paths, when set, are the libraries to load, searching nothing.
	Paths []string
	// Dirs are searched for Libraries after LD_LIBRARY_PATH; nil means
	// DefaultDirs.
	Dirs []string
	// FRC is true on a roboRIO: the Driver Station enables the devices
	// and Feed does nothing.
	FRC bool
	// DefaultBus is Phoenix 6's name of the bus "" stands for; "" leaves
	// it to the library (the roboRIO's bus, or can0 on Linux).
	DefaultBus string
}

// Lib is CTRE's libraries, loaded. It provides hal.CANMotors,
// hal.Pigeons, hal.NamedCANDevices and phoenix6.Provider to a backend that
// embeds it. Safe for concurrent use (CTRE's C interface is).
type Lib struct {
	p5, p6 bool
	frc    bool
	defBus string

	mu    sync.Mutex
	buses map[string]*C.char // C strings of bus names, kept for the process
}

var (
	_ phoenix6.Rates      = (*talonFX)(nil)
	_ phoenix6.Rates      = (*cancoder)(nil)
	_ phoenix6.Rates      = (*pigeon2)(nil)
	_ hal.CANMotors       = (*Lib)(nil)
	_ hal.Pigeons         = (*Lib)(nil)
	_ hal.NamedCANDevices = (*Lib)(nil)
	_ phoenix6.Provider   = (*Lib)(nil)
)

// Open loads CTRE's libraries. Either family may be absent (a robot with
// Phoenix 6 devices only); Open fails when neither loads.
func Open(o Options) (*Lib, error) {
	paths := o.Paths
	if paths == nil {
		paths = find(o.Dirs)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("ctre: %w: none of %s found in LD_LIBRARY_PATH or %s; deploy CTRE's libraries (see %s)",
			ErrNoLibrary, strings.Join(Libraries, ", "), strings.Join(dirsOr(o.Dirs), ", "), Checklist)
	}
	cpaths := make([]*C.char, len(paths))
	for i, p := range paths {
		cpaths[i] = C.CString(p)
	}
	defer func() {
		for _, p := range cpaths {
			C.free(unsafe.Pointer(p))
		}
	}()
	arr := (**C.char)(C.malloc(C.size_t(len(paths)) * C.size_t(unsafe.Sizeof(cpaths[0]))))
	defer C.free(unsafe.Pointer(arr))
	copy(unsafe.Slice(arr, len(paths)), cpaths)
	var msg [512]C.char
	fam := C.frcd_ctre_load(arr, C.int(len(paths)), &msg[0], C.int(len(msg)))
	if fam == 0 {
		return nil, fmt.Errorf("ctre: %w: cannot load %s: %s (see %s)", ErrNoLibrary, strings.Join(paths, ", "),
			strings.Join(strings.Fields(C.GoString(&msg[0])), " "), Checklist)
	}
	return &Lib{p5: fam&1 != 0, p6: fam&2 != 0, frc: o.FRC, defBus: o.DefaultBus, buses: map[string]*C.char{}}, nil
}

func dirsOr(d []string) []string {
	if d == nil {
		return DefaultDirs
	}
	return d
}

// find is the first directory of LD_LIBRARY_PATH and dirs holding each
// library, in Libraries' order.
func find(dirs []string) []string {
	var search []string
	for _, d := range filepath.SplitList(os.Getenv("LD_LIBRARY_PATH")) {
		if d != "" {
			search = append(search, d)
		}
	}
	search = append(search, dirsOr(dirs)...)
	var out []string
	for _, name := range Libraries {
		for _, d := range search {
			if p := filepath.Join(d, name); fileExists(p) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// Families says which of CTRE's C interfaces loaded whole: Phoenix 5,
// Phoenix 6.
func (l *Lib) Families() (p5, p6 bool) { return l.p5, l.p6 }

// Caps are the providers this Lib gives, by the families loaded.
func (l *Lib) Caps() hal.Caps {
	var c hal.Caps
	if l.p5 {
		c |= hal.CapCANMotor | hal.CapPigeon
	}
	if l.p6 {
		c |= phoenix6.Cap
	}
	return c
}

// Feed keeps a non-FRC robot's CTRE actuators enabled for FeedTimeout;
// the backend calls it every loop while the robot is enabled, and stops
// when it is not. On a roboRIO (Options.FRC) it does nothing: there the
// Driver Station enables them.
func (l *Lib) Feed() {
	if l.frc {
		return
	}
	ms := C.int(FeedTimeout / time.Millisecond)
	if l.p5 {
		C.frcd_p5_feed(ms)
	}
	if l.p6 {
		C.frcd_p6_feed(C.int32_t(ms))
	}
}

// StatusError is a CTRE call's failure: the call and its status code
// (Phoenix's ErrorCode or StatusCode; -100000 when the function is not in
// the libraries loaded).
type StatusError struct {
	Call string
	Code int
}

func (e *StatusError) Error() string {
	if e.Code == C.FRCD_CTRE_MISSING {
		return fmt.Sprintf("ctre: %s: not in the CTRE libraries loaded (see %s)", e.Call, Checklist)
	}
	return fmt.Sprintf("ctre: %s: status %d", e.Call, e.Code)
}

// Unwrap: a missing function is hal.ErrUnsupported; Phoenix 5's stale
// signal codes (ErrorCode CAN_MSG_STALE 1, RxTimeout -3, SigNotUpdated
// -200) are hal.ErrTimeout. Phoenix 6's status codes are reported as
// they come (deploy/ctre.md: which of them mean a stale signal is
// checked on hardware).
func (e *StatusError) Unwrap() error {
	if e.Code == C.FRCD_CTRE_MISSING {
		return hal.ErrUnsupported
	}
	if strings.HasPrefix(e.Call, "c_ctre_phoenix6") {
		return nil
	}
	switch e.Code {
	case 1, -3, -200:
		return hal.ErrTimeout
	}
	return nil
}

func statusErr(call string, code C.int) error {
	if code == 0 {
		return nil
	}
	return &StatusError{Call: call, Code: int(code)}
}

// errCache keeps the last StatusError of one call site, so that a
// call failing the same way every cycle (a device unplugged) returns the
// same error, allocating once: the loop stays allocation-free, and the
// devices' own error caches (which keep one error per distinct cause)
// work. A StatusError is never changed once made (other goroutines may
// be formatting it).
type errCache struct{ last *StatusError }

func (c *errCache) of(call string, code C.int) error {
	if code == 0 {
		return nil
	}
	if e := c.last; e != nil && e.Code == int(code) && e.Call == call {
		return e
	}
	c.last = &StatusError{Call: call, Code: int(code)}
	return c.last
}

// bus is the C string of a Phoenix 6 bus name, made once.
func (l *Lib) bus(name string) *C.char {
	if name == "" {
		name = l.defBus
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if c, ok := l.buses[name]; ok {
		return c
	}
	c := C.CString(name)
	l.buses[name] = c
	return c
}

func (l *Lib) need5() error {
	if !l.p5 {
		return fmt.Errorf("ctre: Phoenix 5 (libCTRE_PhoenixCCI.so) is not loaded (see %s): %w", Checklist, hal.ErrUnsupported)
	}
	return nil
}

func (l *Lib) need6() error {
	if !l.p6 {
		return fmt.Errorf("ctre: Phoenix 6 (libCTRE_PhoenixTools.so) is not loaded (see %s): %w", Checklist, hal.ErrUnsupported)
	}
	return nil
}

// ---- Phoenix 5

type p5Motor struct {
	h       unsafe.Pointer
	limits  bool        // a Talon SRX: it has a current limit (a Victor SPX measures no current)
	enabled bool        // the EnableCurrentLimit last applied (Phoenix 5 cannot read it back)
	buf     *C.double   // 3 doubles of C memory for Status: Go pointers passed to C escape to the heap
	errs    [2]errCache // SetDuty's, Status's
}

// OpenCANMotor creates a Talon SRX or Victor SPX (frc.TalonSRX,
// frc.VictorSPX) at CAN id id.
func (l *Lib) OpenCANMotor(model string, id int) (hal.CANMotor, error) {
	if err := l.need5(); err != nil {
		return nil, err
	}
	if id < 0 || id > 62 {
		return nil, fmt.Errorf("ctre: CAN id %d (0-62): %w", id, hal.ErrNoDevice)
	}
	var arb int
	switch model {
	case frc.TalonSRX:
		arb = arbTalonSRX
	case frc.VictorSPX:
		arb = arbVictorSPX
	default:
		return nil, fmt.Errorf("ctre: Phoenix 5 has no motor controller %q: %w", model, hal.ErrUnsupported)
	}
	h := C.frcd_p5_motor_create(C.int(arb | id))
	if h == nil {
		return nil, fmt.Errorf("ctre: c_MotController_Create1(%#x) returned no handle", arb|id)
	}
	return &p5Motor{h: h, limits: model == frc.TalonSRX, buf: (*C.double)(C.calloc(3, C.size_t(unsafe.Sizeof(C.double(0)))))}, nil
}

// OpenCANMotorOn opens a Phoenix 5 controller on a named bus: Phoenix 5
// has its default bus only.
func (l *Lib) OpenCANMotorOn(bus, model string, id int) (hal.CANMotor, error) {
	if bus != "" {
		return nil, fmt.Errorf("ctre: CAN bus %q: Phoenix 5 opens motor controllers on its default bus only: %w", bus, hal.ErrUnsupported)
	}
	return l.OpenCANMotor(model, id)
}

func (m *p5Motor) SetDuty(duty float64) error {
	if !(duty >= -1 && duty <= 1) { // NaN too
		duty = 0
	}
	return m.errs[0].of("c_MotController_Set_4", C.frcd_p5_set_duty(m.h, C.double(duty)))
}

func (m *p5Motor) Status() (hal.MotorStatus, error) {
	b := unsafe.Slice(m.buf, 3)
	if err := m.errs[1].of("c_MotController_Get*", C.frcd_p5_status(m.h, &b[0], &b[1], &b[2])); err != nil {
		return hal.MotorStatus{}, err
	}
	return hal.MotorStatus{BusVoltage: float64(b[0]), OutputCurrent: math.Abs(float64(b[1])), Temperature: float64(b[2])}, nil
}

// p5Pigeon reads through C memory of its own (quaternion, gyro, accel),
// as p5Motor does.
type p5Pigeon struct {
	h     unsafe.Pointer
	q, dp *C.double
	a     *C.short
	errs  errCache
}

// OpenPigeon creates a Pigeon IMU at CAN id id, or on the Talon SRX at
// talonID when that is 0 or more.
func (l *Lib) OpenPigeon(id, talonID int) (hal.Pigeon, error) {
	if err := l.need5(); err != nil {
		return nil, err
	}
	if talonID < 0 && (id < 0 || id > 62) || talonID > 62 {
		return nil, fmt.Errorf("ctre: Pigeon id %d, Talon %d: %w", id, talonID, hal.ErrNoDevice)
	}
	h := C.frcd_p5_pigeon_create(C.int(id), C.int(talonID))
	if h == nil {
		return nil, errors.New("ctre: c_PigeonIMU_Create returned no handle")
	}
	return &p5Pigeon{h: h, q: (*C.double)(C.calloc(4, C.size_t(unsafe.Sizeof(C.double(0))))),
		dp: (*C.double)(C.calloc(3, C.size_t(unsafe.Sizeof(C.double(0))))),
		a:  (*C.short)(C.calloc(3, C.size_t(unsafe.Sizeof(C.short(0)))))}, nil
}

// OpenPigeonOn: Phoenix 5 has its default bus only.
func (l *Lib) OpenPigeonOn(bus string, id, talonID int) (hal.Pigeon, error) {
	if bus != "" {
		return nil, fmt.Errorf("ctre: CAN bus %q: Phoenix 5 opens Pigeons on its default bus only: %w", bus, hal.ErrUnsupported)
	}
	return l.OpenPigeon(id, talonID)
}

const degToRad = math.Pi / 180

// Read: the quaternion as the Pigeon fuses it, the raw gyro (deg/s) in
// rad/s, the biased accelerometer (Q2.14 g) in m/s².
func (p *p5Pigeon) Read() (q [4]float64, gyro, accel [3]float64, err error) {
	if err = p.errs.of("c_PigeonIMU_Get*", C.frcd_p5_pigeon_read(p.h, p.q, p.dp, p.a)); err != nil {
		return
	}
	wxyz, dps, a := unsafe.Slice(p.q, 4), unsafe.Slice(p.dp, 3), unsafe.Slice(p.a, 3)
	for i := range q {
		q[i] = float64(wxyz[i])
	}
	for i := range gyro {
		gyro[i] = float64(dps[i]) * degToRad
		accel[i] = float64(a[i]) / 16384 * hal.Gravity
	}
	return
}

// ---- Phoenix 6

// p6Dev is one Phoenix 6 device: its hash, bus and the C arrays of the
// signals it reads (made once: the loop does not allocate).
type p6Dev struct {
	bus  *C.char
	hash C.uint32_t
	n    int
	sig  *C.frcd_p6_signal
	ret  *C.frcd_p6_return
	errs errCache
}

func (l *Lib) openP6(model, bus string, id int, spns []int) (*p6Dev, error) {
	if err := l.need6(); err != nil {
		return nil, err
	}
	if id < 0 || id > 62 {
		return nil, fmt.Errorf("ctre: CAN id %d (0-62): %w", id, hal.ErrNoDevice)
	}
	d := &p6Dev{bus: l.bus(bus)}
	cm := C.CString(model)
	defer C.free(unsafe.Pointer(cm))
	if err := statusErr("c_ctre_phoenix6_encode_device", C.frcd_p6_encode(C.int(id), cm, d.bus, &d.hash)); err != nil {
		return nil, err
	}
	return d.signals(spns), nil
}

// setRates asks the device to send the signals the loop reads at
// SignalHz (phoenix6.Rates), rather than relying on its defaults; 0.1 s for
// each to be acknowledged.
func (d *p6Dev) setRates() error {
	return statusErr("c_ctre_phoenix6_SetUpdateFrequency", C.frcd_p6_set_freq(d.bus, d.hash, C.int(d.n), d.sig, SignalHz, 0.1))
}

// SignalHz is the update frequency frcd sets for the signals its loop
// reads from each Phoenix 6 device: 100 Hz, one per 10 ms loop. The
// health signals (phoenix6.Healthy) keep the device's defaults.
const SignalHz = 100

// signals is another set of the device's signals (the same device, C
// arrays of its own).
func (d *p6Dev) signals(spns []int) *p6Dev {
	d = &p6Dev{bus: d.bus, hash: d.hash, n: len(spns)}
	d.sig = (*C.frcd_p6_signal)(C.calloc(C.size_t(len(spns)), C.size_t(unsafe.Sizeof(C.frcd_p6_signal{}))))
	d.ret = (*C.frcd_p6_return)(C.calloc(C.size_t(len(spns)), C.size_t(unsafe.Sizeof(C.frcd_p6_return{}))))
	sigs := unsafe.Slice(d.sig, d.n)
	for i := range sigs {
		sigs[i].devicehash, sigs[i].spn = d.hash, C.uint32_t(spns[i])
	}
	return d
}

// read refreshes the device's signals into dst (len n); a signal's own
// error fails the read.
func (d *p6Dev) read(dst []float64) error {
	if err := d.errs.of("c_ctre_phoenix6_get_signal", C.frcd_p6_get(C.size_t(d.n), d.sig, d.ret, d.bus)); err != nil {
		return err
	}
	for i, r := range unsafe.Slice(d.ret, d.n) {
		if r.error != 0 {
			return d.errs.of("c_ctre_phoenix6_get_signal", r.error)
		}
		dst[i] = float64(r.outValue)
	}
	return nil
}

type talonFX struct {
	d    *p6Dev
	ctl  errCache // Control's
	vals [8]float64
	health
}

var talonFXSignals = []int{spnFXRotorPosition, spnFXRotorVelocity, spnFXSupplyVoltage, spnFXSupplyCurrent,
	spnFXStatorCurrent, spnFXDeviceTemp, spnAllFaults, spnFXMotorVoltage}

// OpenTalonFX opens a Talon FX on bus at CAN id id.
func (l *Lib) OpenTalonFX(bus string, id int) (phoenix6.TalonFX, error) {
	d, err := l.openP6(modelTalonFX, bus, id, talonFXSignals)
	if err != nil {
		return nil, err
	}
	return &talonFX{d: d, health: openHealth(d, spnFXDeviceTemp, spnFXSupplyVoltage,
		namedFault{phoenix6.ProcTemp, spnFaultProcTemp}, namedFault{phoenix6.BridgeBrownout, spnFaultFXBridgeBrownout})}, nil
}

// SetSignalRates sets the loop's signals to SignalHz (phoenix6.Rates).
func (t *talonFX) SetSignalRates() error { return t.d.setRates() }

func (t *talonFX) Control(c phoenix6.FXControl) error {
	v, ff := c.Value, c.FeedForward
	if math.IsNaN(v) || math.IsInf(v, 0) || math.IsNaN(ff) || math.IsInf(ff, 0) || c.Mode < phoenix6.FXNeutral || c.Mode > phoenix6.FXVelocity {
		c.Mode, v, ff = phoenix6.FXNeutral, 0, 0
	}
	if c.Mode == phoenix6.FXDuty {
		v = max(-1, min(1, v))
	}
	slot := max(0, min(numSlots-1, c.Slot))
	return t.ctl.of("c_ctre_phoenix6_RequestControl", C.frcd_p6_control(t.d.bus, t.d.hash, C.int(c.Mode), C.double(v), C.double(ff), C.int(slot)))
}

func (t *talonFX) SetGains(slot int, g phoenix6.FXGains) error {
	if slot < 0 || slot >= numSlots {
		return fmt.Errorf("ctre: gain slot %d (0-%d): %w", slot, numSlots-1, hal.ErrNoDevice)
	}
	base := spnSlot0KP + slotStride*slot
	spns := [gainsPerSlot]C.int{C.int(base), C.int(base + spnSlotKI), C.int(base + spnSlotKD), C.int(base + spnSlotKS), C.int(base + spnSlotKV)}
	vals := [gainsPerSlot]C.double{C.double(g.P), C.double(g.I), C.double(g.D), C.double(g.S), C.double(g.V)}
	var kinds [gainsPerSlot]C.int // every gain a double (FRCD_CFG_DOUBLE)
	return statusErr("c_ctre_phoenix6_set_configs", C.frcd_p6_config(t.d.bus, t.d.hash, gainsPerSlot, &spns[0], &kinds[0], &vals[0], 0.1))
}

func (t *talonFX) Status() (phoenix6.FXStatus, error) {
	v := &t.vals
	if err := t.d.read(v[:]); err != nil {
		return phoenix6.FXStatus{}, err
	}
	return phoenix6.FXStatus{Position: v[0], Velocity: v[1], SupplyVoltage: v[2], SupplyCurrent: v[3], StatorCurrent: v[4],
		Temperature: v[5], Faults: uint32(v[6]), MotorVoltage: v[7]}, nil
}

type cancoder struct {
	d    *p6Dev
	vals [4]float64
	health
}

// OpenCANcoder opens a CANcoder on bus at CAN id id.
func (l *Lib) OpenCANcoder(bus string, id int) (phoenix6.CANcoder, error) {
	d, err := l.openP6(modelCANcoder, bus, id, []int{spnCCPosition, spnCCVelocity, spnCCAbsPosition, spnAllFaults})
	if err != nil {
		return nil, err
	}
	return &cancoder{d: d, health: openHealth(d, -1, spnCCSupplyV, namedFault{phoenix6.BadMagnet, spnFaultCCBadMagnet})}, nil
}

// SetSignalRates sets the loop's signals to SignalHz (phoenix6.Rates).
func (c *cancoder) SetSignalRates() error { return c.d.setRates() }

func (c *cancoder) Read() (pos, vel, abs float64, faults uint32, err error) {
	if err = c.d.read(c.vals[:]); err != nil {
		return
	}
	return c.vals[0], c.vals[1], c.vals[2], uint32(c.vals[3]), nil
}

type pigeon2 struct {
	d    *p6Dev
	vals [10]float64
	health
}

// OpenPigeon2 opens a Pigeon 2 on bus at CAN id id.
func (l *Lib) OpenPigeon2(bus string, id int) (phoenix6.Pigeon2, error) {
	d, err := l.openP6(modelPigeon2, bus, id, []int{spnP2QuatW, spnP2QuatW + 1, spnP2QuatW + 2, spnP2QuatW + 3,
		spnP2AngVelX, spnP2AngVelX + 1, spnP2AngVelX + 2, spnP2AccelX, spnP2AccelX + 1, spnP2AccelX + 2})
	if err != nil {
		return nil, err
	}
	return &pigeon2{d: d, health: openHealth(d, spnP2Temperature, spnP2SupplyV,
		namedFault{phoenix6.BootupSensors, spnFaultP2BootupAccel}, namedFault{phoenix6.BootupSensors, spnFaultP2BootupGyros},
		namedFault{phoenix6.BootIntoMotion, spnFaultP2BootIntoMotion}, namedFault{phoenix6.Saturated, spnFaultP2SaturatedGyros})}, nil
}

// SetSignalRates sets the loop's signals to SignalHz (phoenix6.Rates).
func (p *pigeon2) SetSignalRates() error { return p.d.setRates() }

// Read: the quaternion, the angular velocity (deg/s) in rad/s, the
// acceleration (g) in m/s².
func (p *pigeon2) Read() (q [4]float64, gyro, accel [3]float64, err error) {
	v := &p.vals
	if err = p.d.read(v[:]); err != nil {
		return
	}
	q = [4]float64{v[0], v[1], v[2], v[3]}
	for i := range gyro {
		gyro[i] = v[4+i] * degToRad
		accel[i] = v[7+i] * hal.Gravity
	}
	return
}
