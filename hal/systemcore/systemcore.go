package systemcore

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/ctre"
	"github.com/frcd/frcd/hal/heartbeat"
	"github.com/frcd/frcd/hal/linux"
	"github.com/frcd/frcd/hal/phoenix6"
	"github.com/frcd/frcd/hal/socketcan"
	"github.com/frcd/frcd/hal/wpihal"
)

// Buses are Systemcore's CAN interfaces, in WPILib's bus order
// (CAN.cpp: bus i < 5 is can_s<i>).
var Buses = []string{"can_s0", "can_s1", "can_s2", "can_s3", "can_s4"}

// fdMTU is the MTU of an interface that carries CAN FD frames
// (sizeof(struct canfd_frame)); a classic interface has 16.
const fdMTU = 72

// NumSmartIO is how many SmartIO channels Systemcore has (WPILib's
// PortsInternal.hpp: kNumSmartIo = 6); PWM, DIO, analog inputs and
// encoders are all SmartIO channels, numbered 0 to 5, one use each.
const NumSmartIO = 6

// HALDirs are where WPILib's deploy puts libwpiHal.so and the libraries it
// needs on Systemcore (allwpilib developerRobot/build.gradle at caf0fb2dcc:
// libraryDirectory /home/systemcore/wpilib/third-party/lib); LD_LIBRARY_PATH
// is searched first.
var HALDirs = []string{"/home/systemcore/wpilib/third-party/lib"}

// Checklist is where a user reads how to deploy frcd and the HAL to
// Systemcore.
const Checklist = "deploy/systemcore.md"

// Options are the `linux:` section's settings as Systemcore reads them.
type Options struct {
	// CAN names the interfaces to open; empty means all of Buses.
	CAN []string
	// Heartbeat is auto, on or off (hal/heartbeat's modes); "" is off:
	// Systemcore's own robot_heartbeat service sends the FRC heartbeat from
	// the Driver Station's state, and frcd must not fight it (auto with
	// ros_enable, whose enable the OS does not know).
	Heartbeat string
	// SysNet is where the interfaces' MTUs are read ("" is
	// /sys/class/net); tests point it elsewhere.
	SysNet string
	// ROSEnable takes the Driver Station from ROS (/frcd/enable), as on a
	// coprocessor, instead of from WPILib's HAL.
	ROSEnable bool
	// HALLibrary, when set, is the libwpiHal.so to load, searching nothing
	// (tests load the fake); else LD_LIBRARY_PATH, then HALDirs.
	HALLibrary string
}

// OptionsFrom reads the `linux:` section of a checked robot file.
func OptionsFrom(c *config.File) Options {
	var o Options
	if l := c.Linux; l != nil {
		o.CAN, o.ROSEnable = l.List("can"), l.Bool("ros_enable")
		if l.Has("heartbeat") {
			o.Heartbeat = l.Str("heartbeat")
		}
	}
	if len(o.CAN) == 0 {
		o.CAN = append([]string(nil), Buses...)
	}
	return o
}

// HeartbeatMode is o.Heartbeat, its default made explicit.
func (o Options) HeartbeatMode() string {
	switch {
	case o.Heartbeat != "":
		return o.Heartbeat
	case o.ROSEnable:
		return "auto"
	}
	return "off"
}

// Caps are the providers Systemcore's backend has as make systemcore
// builds it: its CAN buses; through WPILib's 2027 HAL (hal/wpihal) the
// SmartIO channels as PWM outputs, DIO, analog inputs, quadrature
// encoders, duty-cycle inputs and addressable LEDs, and the built-in IMU;
// CTRE's Phoenix 6 devices through CTRE's Phoenix 6 library for Systemcore
// (libCTRE_PhoenixTools.so, CTRE's linuxsystemcore build), when deployed
// (deploy/ctre.md; the ctre build tag). Not Phoenix 5's: CTRE ships no
// Phoenix 5 for Systemcore. What it has no hardware or library for
// (relays, analog out, duty-cycle outputs, the roboRIO's ports, Phoenix 5)
// it does not implement; Lacks says why.
var Caps = hal.CapCAN | wpihal.SystemcoreCaps | phoenix6.Cap

// phoenix5 are the providers only CTRE's Phoenix 5 library gives.
const phoenix5 = hal.CapCANMotor | hal.CapPigeon

// Backend is Systemcore's hal.Backend: a hal.CANBuses, hal.NamedCAN,
// hal.Stepper, hal.Enabler, hal.Epocher, hal.Reporter and hal.Lacker. It
// wraps the Linux backend's CAN, heartbeat and Driver Station parts, but
// not its GPIO or spidev, which Systemcore does not give a program, and
// WPILib's HAL for the rest.
type Backend struct {
	l     *linux.Backend
	start time.Time
	fd    map[string]bool
	io    halIO // WPILib's HAL; nil in a build without it
	rosDS bool  // the Driver Station is frcd's own, enabled over ROS
}

// Now is the time since the backend started, on the monotonic clock.
func (b *Backend) Now() time.Duration { return time.Since(b.start) }

// Epoch is the wall-clock time of Now's zero.
func (b *Backend) Epoch() time.Time { return b.start }

// ReadClock reads WPILib's HAL clock (HAL_GetMonotonicTime), which the
// daemon checks against Now's every cycle (hal.HALClock); without the
// HAL, an error wrapping hal.ErrUnsupported.
func (b *Backend) ReadClock() (time.Duration, error) {
	if b.io == nil {
		return 0, errNoHAL
	}
	return b.io.ReadClock()
}

// DS is the Driver Station as WPILib's HAL reports it, or, with `linux:
// {ros_enable: true}`, frcd's own, enabled by SetEnabled.
func (b *Backend) DS() hal.DSState { return b.l.DS() }

// useHALDS makes the HAL's Driver Station the backend's and its
// heartbeats' (unless ros_enable takes it from ROS).
func (b *Backend) useHALDS() {
	if !b.rosDS && b.io != nil {
		b.l.DSFrom = b.io.DS
	}
}

// SetEnabled enables or disables the robot (ROS's /frcd/enable). When the
// Driver Station comes from the HAL, an enable does nothing and a disable
// (the daemon's final halt) holds the robot disabled, the CAN heartbeats
// too, and tells the Driver Station so, whatever it says.
func (b *Backend) SetEnabled(on bool) {
	if !on && b.io != nil && !b.rosDS { // with ros_enable a disable over ROS is no final halt
		b.io.Hold()
	}
	b.l.SetEnabled(on)
}

// Joystick is joystick n as the Driver Station last sent it.
func (b *Backend) Joystick(n int, dst *hal.JoystickState) error {
	if b.rosDS || b.io == nil {
		*dst = hal.JoystickState{}
		if n < 0 || n >= hal.MaxJoysticks {
			return hal.ErrNoDevice
		}
		return nil
	}
	return b.io.Joystick(n, dst)
}

// MatchTime is the match time the Driver Station sent, s; -1 when none.
func (b *Backend) MatchTime() (float64, error) {
	if b.rosDS || b.io == nil {
		return -1, nil
	}
	return b.io.MatchTime()
}

// MatchInfo is the match the Driver Station reports.
func (b *Backend) MatchInfo() (hal.MatchInfo, error) {
	if b.rosDS || b.io == nil {
		return hal.MatchInfo{}, nil
	}
	return b.io.MatchInfo()
}

// SetOpModes registers the robot's op modes with the 2027 Driver Station
// through the HAL, which reports the one selected in DS; without the HAL,
// or with the Driver Station taken from ROS (ros_enable), an error
// wrapping hal.ErrUnsupported (the daemon offers a dashboard chooser
// instead).
func (b *Backend) SetOpModes(ops hal.OpModes) error {
	if b.io == nil {
		return errNoHAL
	}
	if b.rosDS {
		return fmt.Errorf("systemcore: op modes: the Driver Station is taken from ROS (linux: ros_enable): %w", hal.ErrUnsupported)
	}
	return b.io.SetOpModes(ops)
}

// BrownedOut is the HAL's brownout state (mrclib's, through
// HAL_GetBrownedOut).
func (b *Backend) BrownedOut() (bool, error) {
	if b.io == nil {
		return false, errNoHAL
	}
	return b.io.BrownedOut()
}

// Vin is the battery voltage (HAL_GetVinVoltage).
func (b *Backend) Vin() (float64, error) {
	if b.io == nil {
		return 0, errNoHAL
	}
	return b.io.Vin()
}

// OpenPWM opens SmartIO channel ch as a PWM output (20 ms period).
func (b *Backend) OpenPWM(ch int) (hal.PWM, error) {
	if b.io == nil {
		return nil, errNoHAL
	}
	return b.io.OpenPWM(ch)
}

// OpenDigitalIn opens SmartIO channel ch as a digital input.
func (b *Backend) OpenDigitalIn(ch int) (hal.DigitalIn, error) {
	if b.io == nil {
		return nil, errNoHAL
	}
	return b.io.OpenDigitalIn(ch)
}

// OpenDigitalOut opens SmartIO channel ch as a digital output.
func (b *Backend) OpenDigitalOut(ch int) (hal.DigitalOut, error) {
	if b.io == nil {
		return nil, errNoHAL
	}
	return b.io.OpenDigitalOut(ch)
}

// OpenAnalogIn opens SmartIO channel ch as an analog input, 0-3.3 V.
func (b *Backend) OpenAnalogIn(ch, averageBits, oversampleBits int) (hal.AnalogIn, error) {
	if b.io == nil {
		return nil, errNoHAL
	}
	return b.io.OpenAnalogIn(ch, averageBits, oversampleBits)
}

// OpenEncoder opens SmartIO channels a and b (0/1, 2/3 or 4/5) as a
// quadrature encoder.
func (b *Backend) OpenEncoder(a, bch int, enc hal.Encoding) (hal.Encoder, error) {
	if b.io == nil {
		return nil, errNoHAL
	}
	return b.io.OpenEncoder(a, bch, enc)
}

// OpenDutyCycleIn opens SmartIO channel ch as a duty-cycle input (an
// absolute encoder's PWM output).
func (b *Backend) OpenDutyCycleIn(ch int) (hal.DutyCycleIn, error) {
	if b.io == nil {
		return nil, errNoHAL
	}
	return b.io.OpenDutyCycleIn(ch)
}

// OpenAddressableLED opens SmartIO channel ch as addressable LEDs: length
// LEDs from start of the buffer all channels share, in colour order order.
func (b *Backend) OpenAddressableLED(ch, start, length int, order hal.LEDOrder) (hal.AddressableLED, error) {
	if b.io == nil {
		return nil, errNoHAL
	}
	return b.io.OpenAddressableLED(ch, start, length, order)
}

// OpenBuiltInIMU opens Systemcore's IMU; it can be opened once.
func (b *Backend) OpenBuiltInIMU() (hal.Pigeon, error) {
	if b.io == nil {
		return nil, errNoHAL
	}
	return b.io.OpenBuiltInIMU()
}

// AdvanceTo ticks the heartbeats (the daemon calls it before every cycle
// and once more after the final halt).
func (b *Backend) AdvanceTo(now time.Duration) { b.l.AdvanceTo(now) }

// Report gives the heartbeats' and buses' health for /diagnostics, and
// which buses carry CAN FD.
func (b *Backend) Report(dst []hal.Report) []hal.Report {
	dst = b.l.Report(dst)
	var fd []string
	for _, n := range b.names() {
		if b.fd[n] {
			fd = append(fd, n)
		}
	}
	msg := "none (every interface has the classic MTU)"
	if len(fd) > 0 {
		msg = strings.Join(fd, ", ")
	}
	dst = append(dst, hal.Report{Name: "CAN FD buses", Message: msg})
	r := hal.Report{Name: "WPILib HAL", Message: "not loaded: " + errNoHAL.Error(), Error: true}
	if b.io != nil {
		r = hal.Report{Name: "WPILib HAL", Message: "the 2027 HAL (" + b.io.Layout() + ") from " + b.io.Library()}
		if out, err := b.io.BrownedOut(); err != nil {
			r.Message, r.Warn = r.Message+"; brownout state: "+err.Error(), true
		} else if out {
			r.Message, r.Warn = r.Message+"; BROWNED OUT: Systemcore has disabled its outputs", true
		}
	}
	return append(dst, r)
}

func (b *Backend) names() []string {
	var out []string
	for _, n := range Buses {
		if _, ok := b.fd[n]; ok {
			out = append(out, n)
		}
	}
	for n := range b.fd {
		if !strings.HasPrefix(n, "can_s") {
			out = append(out, n)
		}
	}
	return out
}

// FD says whether the bus of that name was opened for CAN FD frames.
func (b *Backend) FD(name string) bool { return b.fd[name] }

// Close sets every SmartIO output neutral and shuts the HAL down, then
// stops the CAN readers.
func (b *Backend) Close() error {
	var err error
	if b.io != nil {
		err = b.io.Close()
	}
	return errors.Join(err, b.l.Close())
}

// CAN returns the default bus, the first of Options.CAN.
func (b *Backend) CAN() hal.CANBus { return b.l.CAN() }

// CANBus returns the bus of that interface name.
func (b *Backend) CANBus(name string) (hal.CANBus, error) { return b.l.CANBus(name) }

// Lacks says, for providers Systemcore's backend lacks, why and what to
// use instead (for CTRE's, why its libraries did not load).
func (b *Backend) Lacks(c hal.Caps) string {
	if c&phoenix6.Cap != 0 && c&phoenix5 == 0 {
		return b.l.Lacks(c)
	}
	return Lacks(c)
}

// Vendor is CTRE's libraries (hal.VendorLibs), nil when they did not load.
func (b *Backend) Vendor() any { return b.l.Vendor() }

// Lacks is Backend.Lacks, known without opening a backend.
func Lacks(c hal.Caps) string {
	switch {
	case c&(hal.CapRelay|hal.CapAnalogOut) != 0:
		return "Systemcore has no relay ports or analog outputs (WPILib's Systemcore HAL: kNumRelayChannels and kNumAnalogOutputs are 0): use a CAN or SmartIO device"
	case c&hal.CapDutyCycle != 0:
		return "Systemcore has no duty-cycle outputs (WPILib's 2027 HAL_AllocateDigitalPWM sets HAL_HANDLE_ERROR; kNumDigitalPWMOutputs is 0): drive the motor over CAN or PWM"
	case c&phoenix5 != 0:
		return "CTRE ships no Phoenix 5 for Systemcore (its Systemcore notes: \"Phoenix 5 is unavailable\"), and the Talon SRX, Victor SPX and Pigeon IMU are driven by Phoenix 5 only: " +
			"run them from a roboRIO, or use Phoenix 6 devices (Talon FX, Pigeon 2) (see deploy/ctre.md)"
	case c&ctre.Caps != 0:
		return "CTRE's devices speak a closed protocol that only CTRE's Phoenix libraries drive: deploy them (see deploy/ctre.md)"
	case c&(hal.CapRIOPorts|hal.CapLinuxBuses) != 0:
		return "Systemcore has no roboRIO SPI or MXP ports, and its I2C is WPILib's through mrclib"
	}
	return ""
}

// mtu reads an interface's MTU from sysfs.
func mtu(sysNet, name string) (int, error) {
	b, err := os.ReadFile(sysNet + "/" + name + "/mtu")
	if err != nil {
		return 0, fmt.Errorf("%s: no such CAN interface (Systemcore's are %s): %w", name, strings.Join(Buses, ", "), err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 0, fmt.Errorf("%s: its MTU %q: %w", name, strings.TrimSpace(string(b)), err)
	}
	return n, nil
}

// Open opens Systemcore's backend: each interface of o.CAN, for CAN FD
// frames when its MTU is 72 (every problem at once), and a heartbeat
// sender on each in o.Heartbeat's mode.
func Open(o Options, logf func(format string, args ...any)) (*Backend, error) {
	mode, err := heartbeat.ParseMode(o.HeartbeatMode())
	if err != nil {
		return nil, err
	}
	if len(o.CAN) == 0 {
		o.CAN = append([]string(nil), Buses...)
	}
	if o.SysNet == "" {
		o.SysNet = "/sys/class/net"
	}
	b := &Backend{start: time.Now(), fd: map[string]bool{}}
	var classic, fd []string
	var errs []error
	for _, n := range o.CAN {
		m, err := mtu(o.SysNet, n)
		switch {
		case err != nil:
			errs = append(errs, err)
		case m == fdMTU:
			fd = append(fd, n)
			b.fd[n] = true
		default:
			classic = append(classic, n)
			b.fd[n] = false
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	var sets []*socketcan.Buses
	closeAll := func() error {
		var errs []error
		for _, s := range sets {
			errs = append(errs, s.Close())
		}
		return errors.Join(errs...)
	}
	p := linux.Parts{Buses: map[string]hal.CANBus{}, Close: closeAll}
	for _, g := range []struct {
		names []string
		fd    bool
	}{{classic, false}, {fd, true}} {
		if len(g.names) == 0 {
			continue
		}
		s, err := socketcan.Open(g.names, b, socketcan.Options{FD: g.fd})
		if err != nil {
			closeAll()
			return nil, err
		}
		sets = append(sets, s)
		for _, bus := range s.All() {
			p.Buses[bus.Name()] = bus
		}
	}
	for _, n := range o.CAN { // heartbeats in the order the buses were named
		bus := p.Buses[n].(*socketcan.Bus)
		p.Heartbeats = append(p.Heartbeats, heartbeat.New(bus, mode))
		p.HeartbeatBuses = append(p.HeartbeatBuses, n)
	}
	// CTRE's devices as on a coprocessor: Phoenix's SocketCAN platform, fed
	// (enabled) only while the Driver Station enables the robot.
	p.CTRE, p.CTREErr = linux.OpenCTRE(o.CAN[0])
	b.l = linux.New(linux.Options{CAN: o.CAN, Heartbeat: o.HeartbeatMode()}, p)
	b.l.Logf = logf
	if logf != nil {
		logf("frcd: Systemcore CAN: CAN FD frames on [%s], classic only on [%s]", strings.Join(fd, " "), strings.Join(classic, " "))
	}
	b.rosDS = o.ROSEnable
	io, err := openHAL(o.HALLibrary)
	switch {
	case err == nil:
		b.io = io
		if logf != nil {
			logf("frcd: Systemcore I/O: WPILib's 2027 HAL (layout %s) from %s; Driver Station from %s; CAN heartbeat %s",
				io.Layout(), io.Library(), map[bool]string{false: "the HAL", true: "ROS (/frcd/enable)"}[b.rosDS], o.HeartbeatMode())
		}
	case o.ROSEnable:
		// A CAN-only robot enabled over ROS, as on a coprocessor, runs
		// without the HAL; its SmartIO and IMU devices fail to open.
		if logf != nil {
			logf("frcd: Systemcore I/O: no WPILib HAL (%v); CAN only, enabled over ROS; CAN heartbeat %s", err, o.HeartbeatMode())
		}
	default:
		b.l.Close()
		return nil, err
	}
	b.useHALDS()
	return b, nil
}

// New assembles a backend from parts (tests give fakes); fd says which
// buses carry CAN FD. It opens WPILib's HAL only when o.HALLibrary names
// one (it then fails when the HAL does not open).
func New(o Options, p linux.Parts, fd map[string]bool) (*Backend, error) {
	if len(o.CAN) == 0 {
		o.CAN = append([]string(nil), Buses...)
	}
	b := &Backend{l: linux.New(linux.Options{CAN: o.CAN, Heartbeat: o.HeartbeatMode()}, p), start: time.Now(), fd: fd, rosDS: o.ROSEnable}
	if o.HALLibrary != "" {
		io, err := openHAL(o.HALLibrary)
		if err != nil {
			return nil, err
		}
		b.io = io
	}
	b.useHALDS()
	return b, nil
}
