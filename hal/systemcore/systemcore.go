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
	"github.com/frcd/frcd/hal/heartbeat"
	"github.com/frcd/frcd/hal/linux"
	"github.com/frcd/frcd/hal/socketcan"
)

// Buses are Systemcore's CAN interfaces, in WPILib's bus order
// (CAN.cpp: bus i < 5 is can_s<i>).
var Buses = []string{"can_s0", "can_s1", "can_s2", "can_s3", "can_s4"}

// fdMTU is the MTU of an interface that carries CAN FD frames
// (sizeof(struct canfd_frame)); a classic interface has 16.
const fdMTU = 72

// Options are the `linux:` section's settings as Systemcore reads them.
type Options struct {
	// CAN names the interfaces to open; empty means all of Buses.
	CAN []string
	// Heartbeat is auto, on or off (hal/heartbeat's modes).
	Heartbeat string
	// SysNet is where the interfaces' MTUs are read ("" is
	// /sys/class/net); tests point it elsewhere.
	SysNet string
	// SystemServer is the system server's host:port ("" is
	// SystemServerAddr; "off" connects to none: no SmartIO, IMU, battery
	// or Driver Station from it).
	SystemServer string
	// ROSEnable takes the Driver Station from ROS (/frcd/enable), as on a
	// coprocessor, instead of from the system server.
	ROSEnable bool
}

// OptionsFrom reads the `linux:` section of a checked robot file.
func OptionsFrom(c *config.File) Options {
	o := Options{Heartbeat: "auto"}
	if l := c.Linux; l != nil {
		o.CAN, o.Heartbeat = l.List("can"), l.Str("heartbeat")
		o.SystemServer, o.ROSEnable = l.Str("system_server"), l.Bool("ros_enable")
	}
	if len(o.CAN) == 0 {
		o.CAN = append([]string(nil), Buses...)
	}
	return o
}

// Caps are the providers Systemcore's backend has: its CAN buses, and
// through the system server's NT4 topics the SmartIO channels as PWM
// outputs, DIO, duty-cycle outputs and analog inputs, and the built-in
// IMU. What it has no hardware for (relays, analog out, the roboRIO's
// ports) or no topic for (quadrature encoders) it does not implement;
// Lacks says why.
const Caps = hal.CapCAN | hal.CapPWM | hal.CapDIO | hal.CapDutyCycle | hal.CapAnalogIn | hal.CapIMU

// Backend is Systemcore's hal.Backend: a hal.CANBuses, hal.NamedCAN,
// hal.Stepper, hal.Enabler, hal.Epocher, hal.Reporter and hal.Lacker. It
// wraps the Linux backend's CAN, heartbeat and Driver Station parts, but
// not its GPIO or spidev, which Systemcore does not give a program.
type Backend struct {
	l     *linux.Backend
	start time.Time
	fd    map[string]bool
	link  *link // the system server; nil with system_server: off
	rosDS bool  // the Driver Station is frcd's own, enabled over ROS
}

// Now is the time since the backend started, on the monotonic clock.
func (b *Backend) Now() time.Duration { return time.Since(b.start) }

// Epoch is the wall-clock time of Now's zero.
func (b *Backend) Epoch() time.Time { return b.start }

// DS is the Driver Station as the system server reports it (disabled
// while the server is not connected or its control data is stale), or,
// with `linux: {ros_enable: true}`, frcd's own, enabled by SetEnabled.
func (b *Backend) DS() hal.DSState { return b.l.DS() }

// useServerDS makes the system server's Driver Station the backend's and
// its heartbeats' (unless ros_enable takes it from ROS).
func (b *Backend) useServerDS() {
	if !b.rosDS && b.link != nil {
		b.l.DSFrom = func() hal.DSState { return b.link.dsState(b.Now()) }
	}
}

// SetEnabled enables or disables the robot (ROS's /frcd/enable). When the
// Driver Station comes from the system server, an enable does nothing and
// a disable (the daemon's final halt) holds the robot disabled, the CAN
// heartbeats too, whatever the server says.
func (b *Backend) SetEnabled(on bool) { b.l.SetEnabled(on) }

// Joystick is joystick n as the Driver Station last sent it through the
// system server.
func (b *Backend) Joystick(n int, dst *hal.JoystickState) error {
	if b.rosDS || b.link == nil {
		*dst = hal.JoystickState{}
		if n < 0 || n >= hal.MaxJoysticks {
			return hal.ErrNoDevice
		}
		return nil
	}
	return b.link.joystick(b.Now(), n, dst)
}

// MatchTime is the match time the Driver Station sent, s; -1 when none.
func (b *Backend) MatchTime() (float64, error) {
	if b.rosDS || b.link == nil {
		return -1, nil
	}
	return b.link.matchTime(b.Now()), nil
}

// MatchInfo is the match the system server reports.
func (b *Backend) MatchInfo() (hal.MatchInfo, error) {
	if b.rosDS || b.link == nil {
		return hal.MatchInfo{}, nil
	}
	return b.link.match()
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
	if b.link != nil {
		dst = b.link.report(dst, b.rosDS)
	}
	return dst
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

// Close stops the system server's watcher and the CAN readers.
func (b *Backend) Close() error {
	if b.link != nil {
		b.link.stop()
	}
	return b.l.Close()
}

// CAN returns the default bus, the first of Options.CAN.
func (b *Backend) CAN() hal.CANBus { return b.l.CAN() }

// CANBus returns the bus of that interface name.
func (b *Backend) CANBus(name string) (hal.CANBus, error) { return b.l.CANBus(name) }

// Lacks says, for providers Systemcore's backend lacks, why and what to
// use instead.
func (b *Backend) Lacks(c hal.Caps) string { return Lacks(c) }

// Lacks is Backend.Lacks, known without opening a backend.
func Lacks(c hal.Caps) string {
	switch {
	case c&(hal.CapRelay|hal.CapAnalogOut) != 0:
		return "Systemcore has no relay ports or analog outputs (WPILib's Systemcore HAL: kNumRelayChannels and kNumAnalogOutputs are 0): use a CAN or SmartIO device"
	case c&hal.CapEncoder != 0:
		return "Systemcore's system server had no quadrature encoder mode (WPILib's Encoder.cpp returned HAL_HANDLE_ERROR until mrclib's quadrature support, d4f9fd32d3, 2026-07-14, which a static Go binary cannot call): use a CAN encoder or a motor controller's own"
	case c&hal.VendorCaps != 0:
		return "CTRE's devices speak a closed protocol that only CTRE's Phoenix libraries drive, and frcd loads them only in a cgo build (-tags ctre), which the static Systemcore binary is not (see deploy/ctre.md)"
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
	mode, err := heartbeat.ParseMode(o.Heartbeat)
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
	b.l = linux.New(linux.Options{CAN: o.CAN, Heartbeat: o.Heartbeat}, p)
	b.l.Logf = logf
	if logf != nil {
		logf("frcd: Systemcore CAN: CAN FD frames on [%s], classic only on [%s]", strings.Join(fd, " "), strings.Join(classic, " "))
	}
	b.rosDS = o.ROSEnable
	switch o.SystemServer {
	case "off":
	case "":
		b.link = startLink(SystemServerAddr)
	default:
		b.link = startLink(o.SystemServer)
	}
	b.useServerDS()
	return b, nil
}

// New assembles a backend from parts (tests give fakes); fd says which
// buses carry CAN FD. It connects to o.SystemServer only when one is
// given ("" and "off" connect to none).
func New(o Options, p linux.Parts, fd map[string]bool) *Backend {
	if len(o.CAN) == 0 {
		o.CAN = append([]string(nil), Buses...)
	}
	b := &Backend{l: linux.New(linux.Options{CAN: o.CAN, Heartbeat: o.Heartbeat}, p), start: time.Now(), fd: fd, rosDS: o.ROSEnable}
	if o.SystemServer != "" && o.SystemServer != "off" {
		b.link = startLink(o.SystemServer)
	}
	b.useServerDS()
	return b
}

// errNoServer is a SmartIO or IMU open with `system_server: off`.
var errNoServer = fmt.Errorf("Systemcore's SmartIO channels and IMU are reached through its system server, and `linux: system_server` is off: %w", hal.ErrUnsupported)
