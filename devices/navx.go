package devices

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(Driver{Type: navxType, New: newNavX, NeedsOf: navxNeeds}) }

var navxType = &config.Type{
	Name: "navx", Class: "AHRS", Group: "sensor",
	Summary: "A Kauai Labs navX-MXP IMU on SPI, I2C or serial, on a roboRIO port or a Linux coprocessor's bus.",
	Doc: "State: an IMU handle (orientation, angular velocity, linear acceleration). On a roboRIO give `id`, the WPILib port; " +
		"on a Linux coprocessor give `bus` (and `chip_select` on SPI): the navX is then on /dev/spidevBUS.CHIP_SELECT " +
		"(SPI mode 3, with the navX CRC) or on /dev/i2c-BUS at address 0x32.",
	Place:   config.LinkSensor,
	Example: "{name: imu, type: navx, frame_id: base_link, interface: spi, id: 0}",
	Schema:  map[string]any{"oneOf": []any{map[string]any{"required": []string{"id"}}, map[string]any{"required": []string{"bus"}}}},
	Keys: []config.Key{
		config.FrameIDKey,
		{Name: "interface", Kind: config.String, Required: true, Enum: []string{"spi", "serial", "i2c"}, Doc: "The interface the navX is connected by."},
		{Name: "id", Kind: config.Int, HasRange: true, Min: 0, Max: 4, Doc: "On a roboRIO, the port on that interface: SPI 0-3 onboard chip selects, 4 the MXP; I2C 0 onboard, 1 MXP; serial 0 onboard, 1 MXP, 2-3 USB. Give id or bus."},
		{Name: "bus", Kind: config.Int, HasRange: true, Min: 0, Max: 255, Doc: "On a Linux coprocessor, the bus number: SPI /dev/spidevBUS.CS, I2C /dev/i2c-BUS. Give id or bus."},
		{Name: "chip_select", Kind: config.Int, Default: 0, HasRange: true, Min: 0, Max: 255, Doc: "On a Linux coprocessor's SPI bus, the chip select (the CS of /dev/spidevBUS.CS); with bus only."},
	},
	Check: checkNavX,
}

// The navX-MXP registers the driver reads (PROTOCOLS.md "navX-MXP";
// kauailabs/navxmxp IMURegisters.h), little-endian. One burst reads
// 0x00-0x39: identity, status, the processed data and the raw gyro.
const (
	navxSpan = 0x3A // bytes in the burst, 0x00-0x39

	navxSPIHz = 500 * physic.KiloHertz // the navX library's SPI rate

	// navxMinStale is the shortest time without a new sample that counts
	// as stale; at high update rates three update periods are less.
	navxMinStale = 100 * time.Millisecond
)

// navX reads a Kauai Labs navX-MXP through its register interface, on SPI
// (`interface: spi`, `id` the port: 0-3 onboard chip selects, 4 the MXP)
// or I2C (`interface: i2c`, `id` 0 onboard, 1 MXP; address 0x32); on a
// Linux coprocessor `bus` (and `chip_select`) name /dev/spidevBUS.CS or
// /dev/i2c-BUS instead, opened through hal.LinuxBuses, with the same
// protocol. Serial is refused: the navX's UART protocol is a separate
// stream that the HAL has no ports for.
//
// It polls the navX at twice its update rate, reading registers
// 0x00-0x39 in one burst. On SPI a read is split within one cycle: Read
// sends the request [0x00, 58, CRC] and Write (or Halt, while the robot is
// disabled) clocks out the 58 bytes and their CRC. The navX firmware drops
// a response not clocked out within 10 ms of its request
// (SPI_TX_TIMEOUT_MS), so the response cannot wait for the next cycle: at
// 100 Hz or slower that comes 10 ms or more later, when the response is
// gone or about to be. The gap between request and response is the
// loop's read-to-write time within a cycle, far below those 10 ms. The
// navX library waits 1 ms before reading the response; the driver does
// not, as the firmware prepares the response in its receive interrupt
// right after the 3-byte request (microseconds), and the library's wait
// is a conservative margin. On I2C Read does the whole read in one
// transaction.
//
// Its name/imu IMUState holds the navX's quaternion (relative to the
// navX's yaw zero, normalized), the raw gyro scaled by the gyro full-scale
// range (rad/s about x, y, z) and the navX's world linear acceleration,
// gravity removed (m/s²); the covariances are unknown (all zero). A
// response that fails its CRC, that is not a navX's (WHOAMI not 0x32) or
// that comes while the navX is not in normal operation leaves the state as
// it was (a bad CRC is counted too); no new sample (the timestamp at 0x12 unchanged) for three update
// periods, and at least 100 ms, makes Read fail with hal.ErrTimeout. A
// sample is stamped with the time of the Read that asked for it; on SPI
// it reaches the state at that cycle's Write, so the loop merges it at the
// next cycle.
type navX struct {
	name string
	spi  spi.Conn // nil on I2C
	bus  i2c.Bus  // nil on SPI

	state interfaces.IMUState

	started   bool
	pending   bool          // an SPI request is out, its response not yet read
	reqAt     time.Duration // the Read's now when it was sent: the sample's time
	nextPoll  time.Duration
	verified  bool // a response with WHOAMI 0x32 has come
	haveTS    bool
	lastTS    uint32
	lastFresh time.Duration // when the timestamp last changed
	rateHz    int

	req   [3]byte // the SPI request, or the I2C [reg, count] in req[:2]
	reqRx [3]byte
	zeros [navxSpan + 1]byte
	rx    [navxSpan + 1]byte

	crcErrors uint64 // SPI responses refused for a bad CRC

	rErr                                       opError
	errCRC, errWhoAmI, errGarbled, errNotReady error
	errStale                                   error
}

var _ Device = (*navX)(nil)

func newNavX(d *config.Device, env *Env) (Device, error) {
	iface := d.Str("interface")
	n := &navX{name: d.Name, rateHz: frc.NavXDefaultRateHz, rErr: newOpError(d, "read")}
	n.req = [3]byte{frc.NavXRegWhoAmI, navxSpan}
	p, bus, where, err := navxPort(d, env.HAL)
	if err != nil {
		return nil, err
	}
	switch {
	case p != nil:
		c, err := p.Connect(navxSPIHz, spi.Mode3, 8)
		if err != nil {
			return nil, fmt.Errorf("%s: connect: %w", where, err)
		}
		n.spi = c
		n.req[2] = frc.NavXCRC(n.req[:2])
	case bus != nil:
		n.bus = bus
	case iface == "serial":
		return nil, errors.New("interface serial: a navX over serial (TTL UART or USB) is not supported yet: " +
			"its serial protocol is a separate stream and frcd's HAL has no serial ports; connect the navX by spi or i2c")
	default:
		return nil, fmt.Errorf("interface %q: want spi or i2c", iface)
	}
	n.errCRC = fmt.Errorf("%s: read: the response on %s failed its CRC", d, where)
	n.errWhoAmI = fmt.Errorf("%s: read: no navX-MXP answers on %s (WHOAMI is not 0x32): %w", d, where, hal.ErrNoDevice)
	n.errGarbled = fmt.Errorf("%s: read: a garbled response on %s", d, where)
	n.errNotReady = fmt.Errorf("%s: read: the navX is starting up or calibrating (OP_STATUS not normal); keep it still", d)
	n.errStale = fmt.Errorf("%s: read: no new sample for three update periods (and at least %v): %w", d, navxMinStale, hal.ErrTimeout)
	n.state.Orientation = [4]float64{0, 0, 0, 1}
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.IMU, &n.state); err != nil {
		return nil, err
	}
	return n, nil
}

// navxPort opens the navX's SPI port or I2C bus: the roboRIO port `id`,
// or with `bus` a Linux bus through hal.LinuxBuses (/dev/spidevBUS.CS,
// /dev/i2c-BUS). where names it for messages. Neither is returned for
// another interface.
func navxPort(d *config.Device, b hal.Backend) (p spi.Port, bus i2c.Bus, where string, err error) {
	iface, id := d.Str("interface"), d.Int("id")
	if iface != "spi" && iface != "i2c" {
		return nil, nil, "", nil
	}
	if !d.Has("bus") {
		where = fmt.Sprintf("%s port %d", iface, id)
		rp, rerr := hal.OpenRIOPorts(b)
		if rerr != nil {
			return nil, nil, "", rerr
		}
		if iface == "spi" {
			p, err = rp.SPI(id)
		} else {
			bus, err = rp.I2C(id)
		}
	} else {
		lb, lerr := hal.OpenLinuxBuses(b)
		if lerr != nil {
			return nil, nil, "", lerr
		}
		if iface == "spi" {
			where = fmt.Sprintf("/dev/spidev%d.%d", d.Int("bus"), d.Int("chip_select"))
			p, err = lb.SPIDev(d.Int("bus"), d.Int("chip_select"))
		} else {
			where = fmt.Sprintf("/dev/i2c-%d", d.Int("bus"))
			bus, err = lb.I2CDev(d.Int("bus"))
		}
	}
	if err != nil {
		return nil, nil, "", fmt.Errorf("%s: %w", where, err)
	}
	return p, bus, where, nil
}

func (n *navX) Name() string { return n.name }

// Read checks for staleness and, when a poll is due, sends the SPI
// request (its response is read by Write or Halt in the same cycle) or
// does the whole I2C read.
func (n *navX) Read(now, dt time.Duration) error {
	if !n.started {
		n.started, n.lastFresh, n.nextPoll = true, now, now
	}
	var err error
	if n.spi != nil {
		err = n.requestSPI(now)
	} else {
		err = n.pollI2C(now)
	}
	if err != nil {
		return err
	}
	if now-n.lastFresh > n.staleAfter() {
		return n.errStale
	}
	return nil
}

// requestSPI sends the read request when a poll is due. A request still
// pending (no Write or Halt since the last Read, which the loop never
// does) is left for the next Write to read rather than sent again: a new
// request would be clocked into a response the navX still holds.
func (n *navX) requestSPI(now time.Duration) error {
	if n.pending || now < n.nextPoll {
		return nil
	}
	if err := n.spi.Tx(n.req[:], n.reqRx[:]); err != nil {
		return n.rErr.wrap(err)
	}
	n.pending, n.reqAt, n.nextPoll = true, now, now+n.pollPeriod()
	return nil
}

// responseSPI clocks out the response to a pending request, checks its
// CRC and decodes it as a sample taken at the request's time.
func (n *navX) responseSPI() error {
	if !n.pending {
		return nil
	}
	n.pending = false
	if err := n.spi.Tx(n.zeros[:], n.rx[:]); err != nil {
		return n.rErr.wrap(err)
	}
	if frc.NavXCRC(n.rx[:navxSpan]) != n.rx[navxSpan] {
		n.crcErrors++
		return n.errCRC
	}
	return n.decode(n.reqAt, n.rx[:navxSpan])
}

func (n *navX) pollI2C(now time.Duration) error {
	if now < n.nextPoll {
		return nil
	}
	n.nextPoll = now + n.pollPeriod()
	if err := n.bus.Tx(frc.NavXI2CAddr, n.req[:2], n.rx[:navxSpan]); err != nil {
		return n.rErr.wrap(err)
	}
	return n.decode(now, n.rx[:navxSpan])
}

// decode checks a burst of registers 0x00-0x39 and, when it is a running
// navX's, sets the state from it.
func (n *navX) decode(now time.Duration, b []byte) error {
	if len(b) < navxSpan {
		return n.errGarbled
	}
	if b[frc.NavXRegWhoAmI] != frc.NavXModel {
		if n.verified {
			return n.errGarbled // it answered before: a bad transfer
		}
		return n.errWhoAmI
	}
	n.verified = true
	if b[frc.NavXRegOpStatus] != frc.NavXOpNormal {
		return n.errNotReady
	}
	var q [4]float64 // w, x, y, z
	var norm float64
	for i := range q {
		q[i] = float64(navxS16(b, frc.NavXRegQuat+2*i)) / 32768
		norm += q[i] * q[i]
	}
	norm = math.Sqrt(norm)
	if norm < 0.5 || norm > 1.5 {
		return n.errGarbled // ±1 per unit: a unit quaternion has norm 1
	}
	if r := int(b[frc.NavXRegUpdateRate]); r >= 4 && r <= 200 {
		n.rateHz = r
	}
	if ts := binary.LittleEndian.Uint32(b[frc.NavXRegTimestamp:]); !n.haveTS || ts != n.lastTS {
		n.haveTS, n.lastTS, n.lastFresh = true, ts, now
	}
	fsr := float64(binary.LittleEndian.Uint16(b[frc.NavXRegGyroFSR:]))
	if fsr == 0 {
		fsr = frc.NavXGyroFSRdps
	}
	s := &n.state
	s.Orientation = [4]float64{q[1] / norm, q[2] / norm, q[3] / norm, q[0] / norm}
	for i := range 3 {
		dps := float64(navxS16(b, frc.NavXRegGyro+2*i)) * fsr / 32768
		s.AngularVelocity[i] = dps * math.Pi / 180
		s.LinearAcceleration[i] = float64(navxS16(b, frc.NavXRegLinearAccel+2*i)) / 1000 * frc.NavXStandardG
	}
	return nil
}

// pollPeriod is half the navX's update period, so that each sample is
// read within half a period of when it is taken.
func (n *navX) pollPeriod() time.Duration { return time.Second / time.Duration(2*n.rateHz) }

// staleAfter is three update periods, and at least navxMinStale.
func (n *navX) staleAfter() time.Duration {
	return max(navxMinStale, 3*time.Second/time.Duration(n.rateHz))
}

// Write reads the response to the SPI request this cycle's Read sent, if
// any; it commands nothing of the navX.
func (n *navX) Write(now, dt time.Duration) error { return n.responseSPI() }

// Halt reads the response to a pending SPI request, as Write does: the
// loop calls Halt instead of Write while the robot is disabled, and the
// navX keeps being read. The navX has no outputs.
func (n *navX) Halt() error { return n.responseSPI() }

func navxS16(b []byte, at int) int16 { return int16(binary.LittleEndian.Uint16(b[at:])) }

// navX ports per interface, as WPILib numbers them: SPI::Port kOnboardCS0-3
// and kMXP = 4; I2C::Port kOnboard = 0, kMXP = 1; SerialPort::Port kOnboard
// = 0, kMXP = 1, kUSB1 = 2, kUSB2 = 3.
var navxPorts = map[string]int{"spi": 4, "i2c": 1, "serial": 3}

// checkNavX checks the navX's port: a roboRIO id or a Linux bus, not both,
// and claims it.
func checkNavX(d *config.Device, c *config.Checker) {
	iface := d.Str("interface")
	max, ok := navxPorts[iface]
	if !ok {
		return
	}
	switch {
	case d.Has("id") && d.Has("bus"):
		c.Errorf(d.KeyPos("bus"), "%s: give id (a roboRIO %s port) or bus (a Linux %s bus on a coprocessor), not both", d, iface, iface)
		return
	case !d.Has("id") && !d.Has("bus"):
		c.Errorf(d.Pos, "%s: needs id (its roboRIO %s port, 0-%d) or bus (its Linux %s bus on a coprocessor)", d, iface, max, iface)
		return
	case d.Has("chip_select") && (!d.Has("bus") || iface != "spi"):
		c.Errorf(d.KeyPos("chip_select"), "%s: chip_select is for a navX on a Linux SPI bus (interface: spi with bus)", d)
		return
	}
	if d.Has("bus") {
		switch iface {
		case "serial":
			c.Errorf(d.KeyPos("bus"), "%s: a navX on serial has no Linux bus: connect it by spi or i2c", d)
		case "spi":
			c.Claim(d, config.NavXPort, fmt.Sprintf("/dev/spidev%d.%d", d.Int("bus"), d.Int("chip_select")), 0, d.ValuePos("bus"))
		default:
			c.Claim(d, config.NavXPort, fmt.Sprintf("/dev/i2c-%d", d.Int("bus")), 0, d.ValuePos("bus"))
		}
		return
	}
	if id := d.Int("id"); id > max {
		c.Errorf(d.ValuePos("id"), "%s: %s port %d is out of range 0-%d", d, iface, id, max)
		return
	}
	c.Claim(d, config.NavXPort, iface, d.Int("id"), d.ValuePos("id"))
	if iface == "serial" {
		c.Warnf(d.ValuePos("interface"), "%s: frcd's HAL has no serial ports yet, so `frcd run` refuses a navX on serial: connect it by spi or i2c", d)
	}
}

// navxNeeds is what a navX entry opens: a roboRIO port by id, a Linux bus
// by bus; on serial, nothing a backend has (the constructor refuses it).
func navxNeeds(d *config.Device) hal.Caps {
	switch {
	case d.Str("interface") == "serial":
		return 0
	case d.Has("bus"):
		return hal.CapLinuxBuses
	}
	return hal.CapRIOPorts
}
