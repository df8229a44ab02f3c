// Package linux is the HAL backend of a Linux coprocessor (a Raspberry
// Pi, a Jetson, a mini PC with a USB-CAN adapter): CAN through SocketCAN,
// DIO channels through GPIO pins, the navX's SPI and I2C through spidev
// and i2c-dev, and frcd's own Driver Station, enabled over ROS
// (/frcd/enable) since no Driver Station reaches a coprocessor. What a
// coprocessor has no hardware for (PWM, analog I/O, FPGA encoders, relays)
// it does not provide (Caps): opening it is hal.ErrUnsupported, with a
// message saying what to use instead. CTRE's devices go through CTRE's
// libraries on Phoenix's SocketCAN platform (hal/ctre, in a build with
// cgo and -tags ctre), fed their enable on every cycle while the robot is
// enabled.
//
// The `linux:` section of the robot's YAML configures it (OptionsFrom).
// On every cycle (AdvanceTo) it sends the FRC universal CAN heartbeat on
// the buses it owns, so that CAN motor controllers and pneumatics enable
// only while frcd's loop runs and the robot is enabled.
package linux

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/ctre"
	"github.com/frcd/frcd/hal/heartbeat"
	"github.com/frcd/frcd/hal/periph"
	"github.com/frcd/frcd/hal/socketcan"
)

// Options are the `linux:` section's settings.
type Options struct {
	// CAN names the SocketCAN interfaces; the first is the default bus.
	// Empty means can0.
	CAN []string
	// Heartbeat is auto, on or off (see the linux section's docs).
	Heartbeat string
	// GPIO names the pin of each DIO channel; "-" or "" leaves it unwired.
	GPIO []string
}

// OptionsFrom reads the `linux:` section of a checked robot file.
func OptionsFrom(c *config.File) Options {
	o := Options{Heartbeat: "auto"}
	if l := c.Linux; l != nil {
		o.CAN, o.Heartbeat, o.GPIO = l.List("can"), l.Str("heartbeat"), l.List("gpio")
	}
	if len(o.CAN) == 0 {
		o.CAN = []string{"can0"}
	}
	return o
}

// IO is a Linux machine's GPIO pins and SPI and I2C buses (hal/periph's
// Host).
type IO interface {
	hal.LinuxBuses
	hal.LinuxGPIO
}

// Heartbeat sends the universal heartbeat on one bus when ticked
// (hal/heartbeat's Sender).
type Heartbeat interface {
	Tick(now time.Duration, ds hal.DSState) error
	Status() heartbeat.Status
	Counts() (sent, failed uint64, last error)
}

// Parts are what a Backend is assembled from: Open opens the real ones,
// tests give fakes.
type Parts struct {
	// Buses holds the CAN buses by interface name, one per Options.CAN.
	Buses map[string]hal.CANBus
	// Heartbeats are ticked on every cycle; HeartbeatBuses names their
	// buses.
	Heartbeats     []Heartbeat
	HeartbeatBuses []string
	// IO is the machine's pins and buses; nil when it has none.
	IO IO
	// Close releases the parts (stops the CAN readers).
	Close func() error
	// CTRE is CTRE's libraries (hal/ctre's Lib), providing its devices;
	// nil when they did not load, CTREErr saying why.
	CTRE    Vendor
	CTREErr error
}

// OpenCTRE loads CTRE's libraries for Phoenix's SocketCAN platform, the
// bus of that interface name being Phoenix 6's default (Systemcore's
// backend shares it); its error says why when they do not load (this
// build has no CTRE support, or the libraries are missing).
func OpenCTRE(defaultBus string) (Vendor, error) { return openCTRE(Options{CAN: []string{defaultBus}}) }

// CTRECaps are the CTRE providers this build can give (0 without the ctre
// build tag and cgo).
var CTRECaps = ctreCaps

// Vendor is a vendor library that keeps its actuators enabled while fed
// (hal/ctre's Lib: Phoenix's non-FRC enable).
type Vendor interface {
	Feed()
}

// Backend is the Linux coprocessor's hal.Backend. It is also a
// hal.NamedCAN, hal.LinuxBuses, hal.Stepper, hal.Enabler, hal.Epocher and
// hal.Reporter.
// (Its GPIO is reached by DIO channel, through the linux: gpio map.)
type Backend struct {
	o     Options
	p     Parts
	start time.Time

	mu     sync.Mutex // guards ds, held, open and failed
	ds     hal.DSState
	held   bool         // disabled for good (SetEnabled(false) with DSFrom)
	open   map[int]bool // DIO channels opened
	failed []uint64     // each heartbeat's failed sends at the last Report
	// hb holds each heartbeat's status as last logged (AdvanceTo's, on the
	// loop's goroutine).
	hb []heartbeat.Status
	// down holds, per bus of Options.CAN, whether AdvanceTo last logged
	// it down (on the loop's goroutine).
	down []bool
	// Logf reports the heartbeats' changes of state; nil discards.
	Logf func(format string, args ...any)
	// DSFrom, when set before the first cycle, is the Driver Station in
	// place of SetEnabled's, for DS and the heartbeats (Systemcore's, from
	// WPILib's HAL).
	DSFrom func() hal.DSState
}

// New assembles a backend from its parts. The robot starts disabled.
func New(o Options, p Parts) *Backend {
	if len(o.CAN) == 0 {
		o.CAN = []string{"can0"}
	}
	return &Backend{o: o, p: p, start: time.Now(), ds: hal.DSState{Attached: true}, open: map[int]bool{}}
}

// Now is the time since the backend started, on the monotonic clock.
func (b *Backend) Now() time.Duration { return time.Since(b.start) }

// Epoch is the wall-clock time of Now's zero.
func (b *Backend) Epoch() time.Time { return b.start }

// DS is frcd's own Driver Station: enabled only by SetEnabled, always
// attached, teleop.
func (b *Backend) DS() hal.DSState {
	if b.DSFrom != nil {
		s := b.DSFrom()
		b.mu.Lock()
		if b.held {
			s.Enabled = false
		}
		b.mu.Unlock()
		return s
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ds
}

// SetEnabled enables or disables the robot (ROS's /frcd/enable). With
// DSFrom, where the Driver Station is not frcd's to enable, a disable (the
// daemon's final halt) holds the robot disabled from then on, whatever
// DSFrom says, so that the heartbeats' last frames say disabled; an enable
// does nothing.
func (b *Backend) SetEnabled(on bool) {
	b.mu.Lock()
	b.ds.Enabled = on
	if b.DSFrom != nil && !on {
		b.held = true
	}
	b.mu.Unlock()
}

// linkState is a bus that knows whether its interface is down
// (socketcan's Bus).
type linkState interface{ Down() error }

// AdvanceTo ticks the heartbeats with the Driver Station's state (the
// daemon calls it before every cycle and once more after the final halt)
// and logs each one's change of state, and each bus's interface going
// down and coming back up.
func (b *Backend) AdvanceTo(now time.Duration) {
	ds := b.DS()
	if len(b.hb) != len(b.p.Heartbeats) {
		b.hb = make([]heartbeat.Status, len(b.p.Heartbeats))
		for i := range b.hb {
			b.hb[i].State = -1 // log the first state
		}
	}
	if ds.Enabled && !ds.EStop && b.p.CTRE != nil {
		b.p.CTRE.Feed() // CTRE's actuators run while fed: only while enabled
	}
	for i, h := range b.p.Heartbeats {
		h.Tick(now, ds) // the Sender counts its send errors; Report shows them
		if st := h.Status(); st != b.hb[i] {
			b.hb[i] = st
			if b.Logf != nil {
				b.Logf("frcd: CAN %s: %s", b.hbName(i), st)
			}
		}
	}
	b.logLinks()
}

// logLinks logs each bus whose interface went down or came back up since
// the last call.
func (b *Backend) logLinks() {
	if len(b.down) != len(b.o.CAN) {
		b.down = make([]bool, len(b.o.CAN))
	}
	for i, name := range b.o.CAN {
		l, ok := b.p.Buses[name].(linkState)
		if !ok {
			continue
		}
		err := l.Down()
		if (err != nil) == b.down[i] {
			continue
		}
		b.down[i] = err != nil
		if b.Logf == nil {
			continue
		}
		if err != nil {
			b.Logf("frcd: warning: CAN %v; its frames are lost until it is up again", err)
		} else {
			b.Logf("frcd: CAN %s: the interface is up again", name)
		}
	}
}

func (b *Backend) hbName(i int) string {
	if i < len(b.p.HeartbeatBuses) {
		return b.p.HeartbeatBuses[i]
	}
	return fmt.Sprintf("bus %d", i)
}

// Report gives each heartbeat's state for /diagnostics, a warning when it
// is doubled, off with no other sender, or has failed to send since the
// last report; and a warning for each bus whose interface is down or
// whose reader has stopped.
func (b *Backend) Report(dst []hal.Report) []hal.Report {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.failed) != len(b.p.Heartbeats) {
		b.failed = make([]uint64, len(b.p.Heartbeats))
	}
	for i, h := range b.p.Heartbeats {
		st := h.Status()
		msg, warn := st.String(), st.Warning() || (st.Mode == heartbeat.Off && !st.Foreign)
		if sent, failed, last := h.Counts(); failed > b.failed[i] {
			msg, warn = fmt.Sprintf("%s; %d sends failed since the last report (%d of %d in all), the last: %v",
				msg, failed-b.failed[i], failed, sent+failed, last), true
			b.failed[i] = failed
		}
		dst = append(dst, hal.Report{Name: "heartbeat " + b.hbName(i), Message: msg, Warn: warn})
	}
	for _, name := range b.o.CAN {
		if l, ok := b.p.Buses[name].(linkState); ok {
			if err := l.Down(); err != nil {
				dst = append(dst, hal.Report{Name: "CAN " + name, Message: err.Error(), Warn: true})
			}
		}
		if r, ok := b.p.Buses[name].(interface{ Err() error }); ok {
			if err := r.Err(); err != nil {
				dst = append(dst, hal.Report{Name: "CAN " + name, Message: fmt.Sprintf("the receiver stopped: %v", err), Warn: true})
			}
		}
	}
	return dst
}

// Close stops the CAN readers and releases the parts.
func (b *Backend) Close() error {
	if b.p.Close != nil {
		return b.p.Close()
	}
	return nil
}

// Vin: a coprocessor cannot measure the battery (devices assume 12 V;
// CAN devices report their own bus voltage).
func (b *Backend) Vin() (float64, error) {
	return 0, fmt.Errorf("a Linux coprocessor cannot measure the battery: %w", hal.ErrUnsupported)
}

// CAN returns the default bus, the first of Options.CAN.
func (b *Backend) CAN() hal.CANBus { return b.p.Buses[b.o.CAN[0]] }

// CANBus returns the bus of that interface name.
func (b *Backend) CANBus(name string) (hal.CANBus, error) {
	if bus, ok := b.p.Buses[name]; ok {
		return bus, nil
	}
	return nil, fmt.Errorf("CAN bus %q is not one of linux: can [%s]: %w", name, strings.Join(b.o.CAN, ", "), hal.ErrNoDevice)
}

func (b *Backend) pin(channel int) (string, error) {
	if channel < 0 || channel >= len(b.o.GPIO) || b.o.GPIO[channel] == "" || b.o.GPIO[channel] == "-" {
		return "", fmt.Errorf("DIO channel %d has no GPIO pin: give it one in linux: gpio (the pins of DIO channels 0, 1, 2...): %w", channel, hal.ErrNoDevice)
	}
	if b.p.IO == nil {
		return "", fmt.Errorf("DIO channel %d: this machine's GPIO could not be opened: %w", channel, hal.ErrUnsupported)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.open[channel] {
		return "", fmt.Errorf("DIO channel %d: %w", channel, hal.ErrInUse)
	}
	b.open[channel] = true
	return b.o.GPIO[channel], nil
}

// OpenDigitalIn opens the GPIO pin of a DIO channel as an input.
func (b *Backend) OpenDigitalIn(channel int) (hal.DigitalIn, error) {
	pin, err := b.pin(channel)
	if err != nil {
		return nil, err
	}
	in, err := b.p.IO.OpenGPIOIn(pin)
	if err != nil {
		b.release(channel)
		return nil, fmt.Errorf("DIO channel %d (%s): %w", channel, pin, err)
	}
	return in, nil
}

// OpenDigitalOut opens the GPIO pin of a DIO channel as an output.
func (b *Backend) OpenDigitalOut(channel int) (hal.DigitalOut, error) {
	pin, err := b.pin(channel)
	if err != nil {
		return nil, err
	}
	out, err := b.p.IO.OpenGPIOOut(pin)
	if err != nil {
		b.release(channel)
		return nil, fmt.Errorf("DIO channel %d (%s): %w", channel, pin, err)
	}
	return out, nil
}

func (b *Backend) release(channel int) {
	b.mu.Lock()
	delete(b.open, channel)
	b.mu.Unlock()
}

// SPIDev returns spidev bus.cs (hal.LinuxBuses).
func (b *Backend) SPIDev(bus, cs int) (spi.Port, error) {
	if b.p.IO == nil {
		return nil, fmt.Errorf("SPI %d.%d: this machine's SPI could not be opened: %w", bus, cs, hal.ErrUnsupported)
	}
	return b.p.IO.SPIDev(bus, cs)
}

// I2CDev returns i2c-dev bus (hal.LinuxBuses).
func (b *Backend) I2CDev(bus int) (i2c.Bus, error) {
	if b.p.IO == nil {
		return nil, fmt.Errorf("I2C %d: this machine's I2C could not be opened: %w", bus, hal.ErrUnsupported)
	}
	return b.p.IO.I2CDev(bus)
}

// Caps are the providers a Linux coprocessor has: DIO channels on GPIO
// pins, SocketCAN buses, spidev and i2c-dev. What it has no hardware for
// (PWM, analog I/O, FPGA encoders, relays, CTRE's closed CAN devices, the
// roboRIO's port numbers) it does not implement; Lacks says what to use
// instead. `frcd validate --hal linux` warns about devices needing more.
var Caps = hal.CapDIO | hal.CapCAN | hal.CapLinuxBuses | ctreCaps

// Vendor is CTRE's libraries (hal.VendorLibs), nil when they did not load.
func (b *Backend) Vendor() any {
	if b.p.CTRE == nil {
		return nil
	}
	return b.p.CTRE
}

// Lacks says, for providers a coprocessor lacks, what to use instead.
func (b *Backend) Lacks(c hal.Caps) string {
	switch {
	case c&(hal.CapPWM|hal.CapDutyCycle|hal.CapDutyCycleIn|hal.CapAddressableLED|hal.CapAnalogIn|hal.CapAnalogOut|hal.CapEncoder|hal.CapRelay) != 0:
		return "a Linux coprocessor has no roboRIO FPGA: drive motors over CAN, or run frcd on the roboRIO (--hal roborio)"
	case c&ctre.Caps != 0:
		if b.p.CTREErr != nil {
			return fmt.Sprintf("CTRE's devices speak a closed protocol that only CTRE's Phoenix libraries drive: %v", b.p.CTREErr)
		}
		return "CTRE's devices speak a closed protocol that only CTRE's Phoenix libraries drive, and those loaded lack this family (see " + ctre.Checklist + ")"
	case c&hal.CapRIOPorts != 0:
		return "on a Linux coprocessor give the navX its spidev or i2c-dev bus (and chip_select), not a roboRIO port"
	}
	return ""
}

// Open opens a Linux coprocessor's backend: the SocketCAN interfaces of
// o.CAN (every problem at once, with its fix), a heartbeat sender on each
// in o.Heartbeat's mode, and periph's host for GPIO, spidev and i2c-dev
// (when periph cannot start, DIO and the navX fail when opened, saying
// why, and CAN still works).
func Open(o Options, logf func(format string, args ...any)) (*Backend, error) {
	mode, err := heartbeat.ParseMode(o.Heartbeat)
	if err != nil {
		return nil, err
	}
	b := New(o, Parts{})
	b.Logf = logf
	buses, err := socketcan.Open(b.o.CAN, b, socketcan.Options{})
	if err != nil {
		return nil, err
	}
	p := Parts{Buses: map[string]hal.CANBus{}, Close: buses.Close}
	for _, bus := range buses.All() {
		p.Buses[bus.Name()] = bus
		p.Heartbeats = append(p.Heartbeats, heartbeat.New(bus, mode))
		p.HeartbeatBuses = append(p.HeartbeatBuses, bus.Name())
	}
	if host, err := periph.Open(); err != nil {
		if logf != nil {
			logf("frcd: warning: %v: GPIO, SPI and I2C are unavailable", err)
		}
	} else {
		p.IO = host
		p.Close = func() error { return errors.Join(buses.Close(), host.Close()) }
	}
	p.CTRE, p.CTREErr = openCTRE(b.o)
	b.p = p
	return b, nil
}
