package devices

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

// What the SPARK MAX and SPARK Flex share: both speak the same frames
// (frc/spark.go, docs/rev-spark.md) at the frame level, so they run on
// every backend with a CAN bus, a Linux coprocessor's SocketCAN too.

// sparkType is the type of a REV SPARK on the CAN bus.
func sparkType(name, class, summary, motor string) *config.Type {
	id := config.Key{Name: "id", Kind: config.Int, Required: true, Resource: config.CANDevice, Scope: "can_bus",
		Doc: "The CAN id of the SPARK (1-62; a SPARK MAX and a SPARK Flex on one bus may not share one)."}
	keys := speedControllerKeys(id, config.CANBusKey, config.RequiredKey,
		config.Key{Name: "position_factor", Kind: config.Float, Default: 2 * math.Pi, NonZero: true, Unit: "rad or m per rotation",
			Doc: "The joint's travel per rotation of the motor's built-in encoder: 2π / the gear reduction for a revolute joint, the distance per motor turn for a prismatic one. The joint's position is rotations × position_factor, its velocity RPM / 60 × position_factor."})
	return &config.Type{Name: name, Class: class, Group: "speed controller", Summary: summary,
		Example: "{name: arm_joint, type: " + name + ", id: 3}",
		Doc: "Driven at the frame level (no vendor library): duty-cycle set points, REV's heartbeat, and its status frames " +
			"(firmware 25.x only: the driver reads the firmware version the SPARK reports and refuses any other, naming it). " +
			"State: name/voltage (the output it reports × its input voltage) and name/rate: the " + motor + "'s built-in " +
			"encoder, which is its joint's position and velocity when no sensor on the joint gives them. Active faults " +
			"(with the motor's temperature) make its Read fail, which /diagnostics shows. Command: a JointHandle on the " +
			"Voltage, Position, Velocity and Effort interfaces; position, velocity and effort commands run through a PID on " +
			"the robot controller (the SPARK's own closed loop is not used). Effort (name/effort, and its joint's when it has no pdp_ch): the SPARK's output current × k_eff, signed as its output.",
		Place: config.DrivesJoint, Provides: config.Position | config.Velocity | config.Effort, Keys: keys,
		Check: func(d *config.Device, c *config.Checker) { checkSpeedController(d, c); checkREVID(d, c) },
		Facts: config.Facts{Speed: true, CAN: true, Joint: config.RateSource, EffortState: true, Effort: &powerChannel, CANSpace: "REV SPARK"}}
}

// The frames and periods of a SPARK (cantraffic.go's conventions; periods
// in docs/rev-spark.md): its status 0 every 10 ms, 1 and 2 every 20 ms;
// the duty cycle set point every cycle (taken as 10 ms) from the
// controller, and the bus's heartbeat (device 0, one for all SPARKs on
// the bus) every 20 ms.
func sparkKind(name string) *CANKind {
	return &CANKind{Name: name, DevType: frc.DevMotorController, Mfr: frc.MfrREV, Frames: []CANFrame{
		{"Status0", frc.SparkAPIStatus0, 8, 10 * time.Millisecond, true},
		{"Status1", frc.SparkAPIStatus1, 8, 20 * time.Millisecond, true},
		{"Status2", frc.SparkAPIStatus2, 8, 20 * time.Millisecond, true},
		{"DutyCycle", frc.SparkAPIDutyCycle, 8, 10 * time.Millisecond, false},
	}, BusFrames: []CANFrame{{"Heartbeat", frc.SparkAPIHeartbeat, 8, sparkHeartbeatPeriod, false}}}
}

const (
	// sparkHeartbeatPeriod is how often the heartbeat goes out.
	sparkHeartbeatPeriod = 20 * time.Millisecond
	// sparkVersionRetry is how often the version is asked for until the
	// SPARK answers.
	sparkVersionRetry = 250 * time.Millisecond
)

// spark drives a REV SPARK MAX or SPARK Flex at CAN id `id` on
// `can_bus`.
//
// Until the SPARK has answered the version request (sent every
// sparkVersionRetry), Read returns errNoVersion (wrapping hal.ErrTimeout)
// and Write sends nothing else; a firmware frcd does not know
// (frc.SparkFirmware.Supported) makes Read return that refusal for good
// and Write send nothing: the SPARK, without a set point or heartbeat,
// stays disabled.
//
// With a supported firmware, Write sends the duty-cycle set point every
// cycle: a voltage command's duty of the SPARK's own input voltage
// (Status 0; the roboRIO's Vin, or 12 V, while that is stale or below
// 4.5 V), clamped to [-1, 1], negated when inverted; and it marks the
// SPARK enabled in the bus's heartbeat (sparkHeartbeat). Halt sends duty
// 0, and the heartbeat's Halt disables every SPARK on the bus.
type spark struct {
	name     string
	can      hal.CANBus
	power    hal.Power
	hb       *sparkHeartbeat
	n        int
	inverted bool
	factor   float64

	idStatus [3]uint32
	idDuty   uint32
	idVer    uint32

	fw      frc.SparkFirmware
	fwKnown bool
	fwErr   error
	asked   bool
	askedAt time.Duration

	st0   frc.SparkStatus0
	st0OK bool

	faults   uint8 // last active faults seen, and their error
	faultErr error

	cmd   interfaces.JointCommand
	volts interfaces.AnalogState
	rate  interfaces.RateState
	pos   interfaces.AnalogState
	eff   interfaces.AnalogState
	kEff  float64

	errStale, errNoVersion error
	wErr, hErr             opError
}

var _ Device = (*spark)(nil)

func newREVSpark(d *config.Device, env *Env) (Device, error) {
	n := d.Int("id")
	if n < 1 || n > 62 {
		return nil, fmt.Errorf("CAN id %d: want 1-62", n)
	}
	can, err := openBus(env, d.CANBus())
	if err != nil {
		return nil, err
	}
	hb, err := sparkHeartbeatOn(env, d.CANBus(), can)
	if err != nil {
		return nil, err
	}
	s := &spark{name: d.Name, can: can, power: env.HAL, hb: hb, n: n, inverted: d.Bool("inverted"), factor: d.Float("position_factor"), kEff: d.Float("k_eff"),
		idDuty: frc.SparkID(frc.SparkAPIDutyCycle, n), idVer: frc.SparkID(frc.SparkAPIVersion, n),
		errStale:     fmt.Errorf("%s: status frames: %w", d, hal.ErrTimeout),
		errNoVersion: fmt.Errorf("%s: no answer to the firmware version request yet: %w", d, hal.ErrTimeout),
		wErr:         newOpError(d, "write"), hErr: newOpError(d, "halt")}
	for k := range s.idStatus {
		s.idStatus[k] = frc.SparkID(frc.SparkAPIStatus0+k, n)
	}
	if err := registerVoltage(env, d.Name, &s.volts, &s.cmd); err != nil {
		return nil, err
	}
	if err := registerRate(env, d.Name, &s.rate, &s.pos); err != nil {
		return nil, err
	}
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.Effort, &s.eff); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *spark) Name() string { return s.name }

// Read takes the firmware version until it is known, then the status
// frames: each stale one (older than statusTimeout) leaves its part as it
// was and makes Read return errStale; active faults make it return their
// names.
func (s *spark) Read(now, dt time.Duration) error {
	if !s.fwKnown {
		f, _, ok := s.can.Latest(s.idVer)
		if !ok {
			return s.errNoVersion
		}
		v, ok := frc.DecodeSparkVersion(f.Data[:min(int(f.Len), 8)])
		if !ok {
			return s.errNoVersion
		}
		s.fw, s.fwKnown = v, true
		if err := v.Supported(); err != nil {
			s.fwErr = fmt.Errorf("%s: %w", s.name, err)
		}
	}
	if s.fwErr != nil {
		return s.fwErr
	}
	sign := 1.0
	if s.inverted {
		sign = -1
	}
	stale := false
	s.st0OK = false
	for k, id := range s.idStatus {
		f, at, ok := s.can.Latest(id)
		if !ok || now-at > statusTimeout {
			stale = true
			continue
		}
		switch k {
		case 0:
			s.st0, s.st0OK = frc.DecodeSparkStatus0(f.Data), true
			s.volts.Value = sign * s.st0.Applied * s.st0.Volts
			s.eff.Value = signedEffort(s.st0.Amps, s.kEff, s.volts.Value)
		case 1:
			if st := frc.DecodeSparkStatus1(f.Data); st.Faults != s.faults {
				s.faults = st.Faults
				s.faultErr = s.faultError()
			}
		case 2:
			rpm, rot := frc.DecodeSparkStatus2(f.Data)
			if math.IsNaN(rpm) || math.IsNaN(rot) || math.IsInf(rpm, 0) || math.IsInf(rot, 0) {
				stale = true
				continue
			}
			s.rate.State = sign * rot * s.factor
			s.rate.Rate = sign * rpm / 60 * s.factor
			s.pos.Value = s.rate.State
		}
	}
	if stale {
		return s.errStale
	}
	return s.faultErr
}

// faultError names the active faults, with the motor's temperature; nil
// when there are none. It allocates, only when the faults change.
func (s *spark) faultError() error {
	if s.faults == 0 {
		return nil
	}
	var names []string
	for b, n := range frc.SparkFaultNames {
		if s.faults&(1<<b) != 0 {
			names = append(names, n)
		}
	}
	return fmt.Errorf("%s: active faults: %s (motor at %.0f °C)", s.name, strings.Join(names, ", "), s.st0.TempC)
}

func (s *spark) Write(now, dt time.Duration) error {
	if !s.fwKnown {
		if !s.asked || now-s.askedAt >= sparkVersionRetry {
			s.asked, s.askedAt = true, now
			return s.wErr.wrap(s.can.Send(hal.Frame{ID: s.idVer}))
		}
		return nil
	}
	if s.fwErr != nil {
		return nil
	}
	supply := s.st0.Volts
	if !s.st0OK || !usableSupply(supply) {
		supply = supplyVolts(s.power)
	}
	duty := commandDuty(&s.cmd, supply)
	if s.inverted {
		duty = -duty
	}
	s.hb.enable(s.n)
	return s.wErr.wrap(s.can.Send(hal.Frame{ID: s.idDuty, Len: 8, Data: frc.EncodeSparkSetpoint(duty, 0)}))
}

// Halt sends duty 0 (when the firmware is one frcd drives).
func (s *spark) Halt() error {
	s.volts.Value, s.eff.Value = 0, 0
	if !s.fwKnown || s.fwErr != nil {
		return nil
	}
	return s.hErr.wrap(s.can.Send(hal.Frame{ID: s.idDuty, Len: 8, Data: frc.EncodeSparkSetpoint(0, 0)}))
}

// sparkHeartbeat is the heartbeat of one bus's SPARKs (shared, one per
// bus): a frame to device 0 whose 64-bit little-endian payload has bit n
// set for each SPARK n to enable. The SPARKs set their bits in their
// Write; its own Write, after theirs, sends the mask on change and every
// sparkHeartbeatPeriod, then clears it for the next cycle. Halt sends an
// empty mask: every SPARK on the bus disabled.
type sparkHeartbeat struct {
	name       string
	can        hal.CANBus
	mask, last uint64
	sent       bool
	sentAt     time.Duration
	wErr       opError
}

var _ Device = (*sparkHeartbeat)(nil)

func sparkHeartbeatOn(env *Env, bus string, can hal.CANBus) (*sparkHeartbeat, error) {
	d, err := env.Shared("rev-spark-heartbeat/"+bus, func() (Device, error) {
		name := "REV SPARK heartbeat"
		if bus != "" {
			name += " on " + bus
		}
		return &sparkHeartbeat{name: name, can: can, wErr: opError{op: name + ": send"}}, nil
	})
	if err != nil {
		return nil, err
	}
	return d.(*sparkHeartbeat), nil
}

func (h *sparkHeartbeat) enable(n int) { h.mask |= 1 << uint(n&63) }

func (h *sparkHeartbeat) Name() string { return h.name }

func (h *sparkHeartbeat) Read(now, dt time.Duration) error { return nil }

func (h *sparkHeartbeat) Write(now, dt time.Duration) error {
	m := h.mask
	h.mask = 0
	if h.sent && m == h.last && now-h.sentAt < sparkHeartbeatPeriod {
		return nil
	}
	return h.send(m, now)
}

func (h *sparkHeartbeat) send(m uint64, now time.Duration) error {
	f := hal.Frame{ID: frc.SparkID(frc.SparkAPIHeartbeat, 0), Len: 8}
	for i := range f.Data {
		f.Data[i] = byte(m >> (8 * i))
	}
	h.last, h.sent, h.sentAt = m, true, now
	return h.wErr.wrap(h.can.Send(f))
}

func (h *sparkHeartbeat) Halt() error {
	h.mask = 0
	return h.send(0, h.sentAt)
}
