package devices

import (
	"fmt"
	"math"
	"strings"
	"sync"
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
			Doc: "The joint's travel per rotation of the motor's built-in encoder: 2π / the gear reduction for a revolute joint, the distance per motor turn for a prismatic one. The joint's position is rotations × position_factor, its velocity RPM / 60 × position_factor."},
		config.ClosedLoopKey,
		config.Key{Name: "kp", Kind: config.Float, Default: 0.0, Doc: "Slot 0 proportional gain (parameter kP_0), duty cycle per motor rotation of position error or per RPM of velocity error (closed_loop: device)."},
		config.Key{Name: "ki", Kind: config.Float, Default: 0.0, Doc: "Slot 0 integral gain (kI_0), duty cycle per unit of error accumulated each 1 ms of the SPARK's loop (closed_loop: device)."},
		config.Key{Name: "kd", Kind: config.Float, Default: 0.0, Doc: "Slot 0 derivative gain (kD_0), duty cycle per unit of error change each 1 ms (closed_loop: device)."},
		config.Key{Name: "kv", Kind: config.Float, Default: 0.0, Doc: "Slot 0 velocity feed forward (kF_0, REVLib 2026's kV_0), duty cycle per RPM of set point (closed_loop: device)."},
		sparkIdleKey)
	keys = append(keys, sparkLimitKeys...)
	return &config.Type{Name: name, Class: class, Group: "speed controller", Summary: summary,
		Example: "{name: arm_joint, type: " + name + ", id: 3}",
		Doc: "Driven at the frame level (no vendor library): duty-cycle set points, REV's heartbeat, and its status frames " +
			"(firmware 25.x and 26.x, each checked against REV's CAN specification of its season: the driver reads the firmware version the SPARK reports " +
			"and refuses any other, naming it and why; a SPARK whose Status 0 names the other model is a warning). " +
			"State: name/voltage (the output it reports × its input voltage) and name/rate: the " + motor + "'s built-in " +
			"encoder, which is its joint's position and velocity when no sensor on the joint gives them. On /diagnostics: its " +
			"motor's temperature, input voltage, output current and Status 1's faults and warnings (an error for an active " +
			"fault or no status, a warning for an active warning such as brown-out or overcurrent, or a sticky fault); an active " +
			"sensor fault also makes its Read fail, so its encoder is not used. Command: a JointHandle on the " +
			"Voltage, Position, Velocity and Effort interfaces; position, velocity and effort commands run through a PID on " +
			"the robot controller, or with closed_loop: device position and velocity commands go to the SPARK's own loop " +
			"(name/position, name/velocity: its position and velocity set points, in motor rotations and RPM through " +
			"position_factor) with slot 0's gains kp, ki, kd, kv written as parameters at start (and again after the SPARK resets: " +
			"they live in its RAM only) and acknowledged before " +
			"it is driven. Effort (name/effort, and its joint's when it has no pdp_ch): the SPARK's output current × k_eff, signed as its output. " +
			"Its idle mode (neutral_mode) and current limits (REV's smart and secondary limits; REV's factory values when left out) are " +
			"written at start and after a reset as the status periods are, each acknowledged with the value the SPARK holds: one it " +
			"does not take stops it, named on /diagnostics. After a reset its built-in encoder counts from 0 again (frcd's assumption: " +
			"REV documents no position kept over a power cycle); frcd carries the position over (the last one before the reset becomes " +
			"its offset, its own position loop's set points shifted alike), logs it and warns on /diagnostics, so that its joint does not jump.",
		Place: config.DrivesJoint, Provides: config.Position | config.Velocity | config.Effort, Keys: keys,
		Check: func(d *config.Device, c *config.Checker) {
			checkSpeedController(d, c)
			checkREVID(d, c)
			config.CheckDeviceGains(d, c, "kp", "ki", "kd", "kv")
		},
		Facts: config.Facts{Speed: true, CAN: true, Joint: config.RateSource, EffortState: true, Effort: &powerChannel, CANSpace: "REV SPARK"}}
}

// The frames and periods of a SPARK (cantraffic.go's conventions; periods
// in docs/rev-spark.md): its status 0, 1 and 2 at the periods frcd sets
// (sparkPeriodMs); the duty cycle set point (or, with closed_loop: device,
// a position or velocity one instead) every cycle (taken as 10 ms) from
// the controller, and the bus's heartbeat (device 0, one for all SPARKs on
// the bus) every 20 ms.
func sparkKind(name string) *CANKind {
	return &CANKind{Name: name, DevType: frc.DevMotorController, Mfr: frc.MfrREV, Frames: []CANFrame{
		{"Status0", frc.SparkAPIStatus0, 8, sparkPeriod(0), true},
		{"Status1", frc.SparkAPIStatus1, 8, sparkPeriod(1), true},
		{"Status2", frc.SparkAPIStatus2, 8, sparkPeriod(2), true},
		{"DutyCycle", frc.SparkAPIDutyCycle, 8, 10 * time.Millisecond, false},
		// At start and after a reset: the status frames enabled, their
		// periods and (closed_loop: device) the gains written.
		{"SetStatusesEnabled", frc.SparkAPISetStatusesEnabled, frc.SparkSetStatusesEnabledLen, 0, false},
		{"SetStatusesEnabledResponse", frc.SparkAPISetStatusesResponse, frc.SparkSetStatusesResponseLen, 0, true},
		// closed_loop: device: a position or velocity set point instead of
		// the duty cycle (the same load), the gains written at start and
		// their acknowledgements.
		{"PositionSetpoint", frc.SparkAPIPositionSetpoint, 8, 0, false},
		{"VelocitySetpoint", frc.SparkAPIVelocitySetpoint, 8, 0, false},
		{"ParameterWrite", frc.SparkAPIParameterWrite, 5, 0, false},
		{"ParameterWriteResponse", frc.SparkAPIParameterAck, 7, 0, true},
	}, BusFrames: []CANFrame{{"Heartbeat", frc.SparkAPIHeartbeat, 8, sparkHeartbeatPeriod, false}}}
}

// sparkPeriodMs are the periods frcd sets for Status 0, 1 and 2 (REV's
// defaults are 10, 250 and 20 ms, Status 2 disabled: frc.SparkDefault*):
// Status 0 (output, voltage, current) and 2 (the encoder) as REV's
// defaults, read every cycle; Status 1 (faults, warnings, the reset sign)
// at 100 ms rather than 250, so that a fault or a reset shows within a
// few cycles.
var sparkPeriodMs = [3]uint32{10, 100, 20}

// sparkStatusMask is Status 0, 1 and 2 in Set Statuses Enabled.
const sparkStatusMask = 0b111

func sparkPeriod(k int) time.Duration { return time.Duration(sparkPeriodMs[k]) * time.Millisecond }

// sparkTimeout is when status frame k is stale: statusTimeout, or three
// of its periods when that is longer (Status 1's 300 ms).
func sparkTimeout(k int) time.Duration { return max(statusTimeout, 3*sparkPeriod(k)) }

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
// sparkVersionRetry), Read returns an error wrapping hal.ErrConfiguring
// (hal.ErrTimeout past sparkConfigTimeout: sparkStartup) and Write sends
// nothing else; a firmware frcd does not know
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
//
// Once its firmware is known, the SPARK is configured one step at a time,
// each acknowledged before the next (prepare: from Write, and from Halt
// while disabled), and again after every sign of a reset
// (sparkResetSigns): Status 0-2 enabled (Set Statuses Enabled: REV's
// Status 2, the encoder, is off until enabled), their periods
// (sparkPeriodMs), its idle mode and current limits (sparkDriveSteps)
// and, with closed_loop: device, slot 0's gains. No SPARK gets a set
// point or an enabling heartbeat until every step is acknowledged (one
// reset mid-match runs at REV's factory idle mode and 80 A until its own
// are in again). A step refused stops it for good.
type spark struct {
	name     string
	model    uint8 // frc.SparkModel*: what its type says it is
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

	faults   uint8 // last active sensor fault seen, and its error
	faultErr error

	// What Report (another goroutine) shows: the last Status 0 and 1,
	// whether the status is stale, and the name /diagnostics gives it.
	mu       sync.Mutex
	diag     sparkDiag
	diagName string

	// The configuration steps, each acknowledged before the next; with
	// the SPARK's own closed loop (closed_loop: device), before it is
	// driven.
	devLoop          bool
	posCmd, velCmd   interfaces.JointCommand
	idPos, idVel     uint32
	idParam, idAck   uint32
	idStatuses, idSR uint32
	steps            []sparkCfg
	stepAt           int // the next step; len(steps) when all are in
	stepSent         bool
	stepSentAt       time.Duration
	stepErr          error // the SPARK refused a step: for good
	// The start-up's state (sparkStartup): when its phase began, whether
	// it is over, whether Report is showing it.
	cfgAt      time.Duration
	cfgStarted bool
	cfgDone    bool
	cfgShown   bool

	// Reset detection (sparkResetSigns): the "has reset" warning last
	// seen in Status 1 (st1Seen: one was seen), whether status frames
	// have been seen, and whether they have all gone stale since.
	hasReset, st1Seen bool
	statusSeen, lost  bool
	now               time.Duration // Read's, for Halt (which has none)
	carry             sparkCarry    // the position across a reboot

	cmd   interfaces.JointCommand
	volts interfaces.AnalogState
	rate  interfaces.RateState
	pos   interfaces.AnalogState
	eff   interfaces.AnalogState
	kEff  float64

	errStale                      error
	noVersion, notAcked, noStatus startupErr
	wErr, hErr                    opError
}

var (
	_ Device       = (*spark)(nil)
	_ hal.Reporter = (*spark)(nil)
)

// sparkDiag is what Report shows of a SPARK.
type sparkDiag struct {
	st0           frc.SparkStatus0
	st1           frc.SparkStatus1
	seen0, seen1  bool
	stale         bool
	fw            frc.SparkFirmware
	fwKnown       bool
	fwErr, stepEr error
	cfg           string  // what its start-up waits for (sparkStartup), "" when over or late
	carries       int     // positions carried over a reboot (sparkCarry)
	carryOff      float64 // the offset now
	events        []string
}

// sparkCfg is a configuration step: Set Statuses Enabled (statuses), or
// a parameter written (its type frc.SparkParamUint32 or Float32 and its
// value's 32 bits).
type sparkCfg struct {
	key      string
	statuses bool
	param    uint8
	typ      uint8
	bits     uint32
}

// sparkDriveSteps are the parameter writes of an entry's idle mode and
// current limits.
func sparkDriveSteps(d *config.Device) []sparkCfg {
	idle := uint32(0)
	if neutralOf(d) == hal.NeutralBrake {
		idle = 1
	}
	u := func(key string, p uint8, v uint32) sparkCfg {
		return sparkCfg{key: key, param: p, typ: frc.SparkParamUint32, bits: v}
	}
	return []sparkCfg{
		u("neutral_mode (idle mode)", frc.SparkParamIdleMode, idle),
		u("smart_current_limit", frc.SparkParamSmartStallLimit, uint32(d.Int("smart_current_limit"))),
		u("smart_current_free_limit", frc.SparkParamSmartFreeLimit, uint32(d.Int("smart_current_free_limit"))),
		u("smart_current_rpm", frc.SparkParamSmartLimitRPM, uint32(d.Int("smart_current_rpm"))),
		{key: "secondary_current_limit", param: frc.SparkParamCurrentChop, typ: frc.SparkParamFloat32, bits: frc.Float32Bits(d.Float("secondary_current_limit"))},
		u("secondary_current_limit_cycles", frc.SparkParamCurrentChopCycles, uint32(d.Int("secondary_current_limit_cycles"))),
	}
}

// value is the step's value as text.
func (st sparkCfg) value(bits uint32) string {
	if st.typ == frc.SparkParamFloat32 {
		return fmt.Sprintf("%g", math.Float32frombits(bits))
	}
	return fmt.Sprintf("%d", bits)
}

// newREVSpark binds a SPARK of that model (frc.SparkModelMax or
// SparkModelFlex: the model its Status 0 should report).
func newREVSpark(model uint8) func(d *config.Device, env *Env) (Device, error) {
	return func(d *config.Device, env *Env) (Device, error) { return openREVSpark(model, d, env) }
}

func openREVSpark(model uint8, d *config.Device, env *Env) (Device, error) {
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
	s := &spark{name: d.Name, model: model, can: can, power: env.HAL, hb: hb, n: n, inverted: d.Bool("inverted"), factor: d.Float("position_factor"), kEff: d.Float("k_eff"),
		idDuty: frc.SparkID(frc.SparkAPIDutyCycle, n), idVer: frc.SparkID(frc.SparkAPIVersion, n),
		errStale:  fmt.Errorf("%s: status frames: %w", d, hal.ErrTimeout),
		noVersion: newStartupErr(d, "no answer to the firmware version request"),
		noStatus:  newStartupErr(d, "status frames not all in yet"),
		notAcked:  newStartupErr(d, "status frames, their periods, idle mode and current limits not yet acknowledged"),
		wErr:      newOpError(d, "write"), hErr: newOpError(d, "halt"),
		diagName: fmt.Sprintf("%s (%s %d)", d.Name, d.Type.Class, n)}
	for k := range s.idStatus {
		s.idStatus[k] = frc.SparkID(frc.SparkAPIStatus0+k, n)
	}
	s.idParam, s.idAck = frc.SparkID(frc.SparkAPIParameterWrite, n), frc.SparkID(frc.SparkAPIParameterAck, n)
	s.idStatuses, s.idSR = frc.SparkID(frc.SparkAPISetStatusesEnabled, n), frc.SparkID(frc.SparkAPISetStatusesResponse, n)
	s.steps = append(s.steps, sparkCfg{key: "Status 0-2 enabled", statuses: true})
	for k, p := range frc.SparkParamStatusPeriod {
		s.steps = append(s.steps, sparkCfg{key: fmt.Sprintf("Status %d period (ms)", k), param: p, typ: frc.SparkParamUint32, bits: sparkPeriodMs[k]})
	}
	s.steps = append(s.steps, sparkDriveSteps(d)...)
	if s.devLoop = d.ClosesLoop(); s.devLoop {
		s.idPos, s.idVel = frc.SparkID(frc.SparkAPIPositionSetpoint, n), frc.SparkID(frc.SparkAPIVelocitySetpoint, n)
		for _, g := range []struct {
			key   string
			param uint8
		}{{"kp", frc.SparkParamP0}, {"ki", frc.SparkParamI0}, {"kd", frc.SparkParamD0}, {"kv", frc.SparkParamV0}} {
			s.steps = append(s.steps, sparkCfg{key: g.key, param: g.param, typ: frc.SparkParamFloat32, bits: frc.Float32Bits(d.Float(g.key))})
		}
		s.notAcked = newStartupErr(d, "status frames, their periods and closed-loop gains not yet acknowledged")
		if err := interfaces.RegisterCommand(env.Handles, d.Name, d.Name, interfaces.Position, &s.posCmd); err != nil {
			return nil, err
		}
		if err := interfaces.RegisterCommand(env.Handles, d.Name, d.Name, interfaces.Velocity, &s.velCmd); err != nil {
			return nil, err
		}
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
// frames: each stale one (older than sparkTimeout) leaves its part as it
// was and makes Read return errStale; active faults make it return their
// names.
func (s *spark) Read(now, dt time.Duration) error {
	s.now = now
	if !s.cfgStarted {
		s.cfgStarted, s.cfgAt = true, now
	}
	if !s.fwKnown {
		f, _, ok := s.can.Latest(s.idVer)
		if !ok {
			return s.starting(&s.noVersion)
		}
		v, ok := frc.DecodeSparkVersion(f.Data[:min(int(f.Len), 8)])
		if !ok {
			return s.starting(&s.noVersion)
		}
		s.fw, s.fwKnown, s.cfgAt = v, true, now // the configuration's own time from here
		if err := v.Supported(); err != nil {
			s.fwErr = fmt.Errorf("%s: %w", s.name, err)
		}
		s.mu.Lock()
		s.diag.fw, s.diag.fwKnown, s.diag.fwErr = s.fw, true, s.fwErr
		s.mu.Unlock()
	}
	if s.fwErr != nil {
		return s.fwErr
	}
	if s.stepErr != nil {
		return s.stepErr
	}
	if s.takeAck(); s.stepErr != nil {
		return s.stepErr
	}
	sign := 1.0
	if s.inverted {
		sign = -1
	}
	stale, fresh := false, false
	s.st0OK = false
	for k, id := range s.idStatus {
		f, at, ok := s.can.Latest(id)
		if !ok || now-at > sparkTimeout(k) {
			stale = true
			continue
		}
		fresh = true
		switch k {
		case 0:
			s.st0, s.st0OK = frc.DecodeSparkStatus0(f.Data), true
			s.volts.Value = sign * s.st0.Applied * s.st0.Volts
			s.eff.Value = signedEffort(s.st0.Amps, s.kEff, s.volts.Value)
		case 1:
			st := frc.DecodeSparkStatus1(f.Data)
			rst := st.Warnings&sparkHasReset != 0
			if rst && !s.hasReset && s.st1Seen {
				s.rebooted(true)
			}
			s.hasReset, s.st1Seen = rst, true
			if sensor := st.Faults & sparkSensorFault; sensor != s.faults {
				s.faults = sensor
				s.faultErr = s.faultError()
			}
			s.mu.Lock()
			s.diag.st1, s.diag.seen1 = st, true
			s.mu.Unlock()
		case 2:
			rpm, rot := frc.DecodeSparkStatus2(f.Data)
			if math.IsNaN(rpm) || math.IsNaN(rot) || math.IsInf(rpm, 0) || math.IsInf(rot, 0) {
				stale = true
				continue
			}
			s.rate.State = s.position(sign*rot*s.factor, at)
			s.rate.Rate = sign * rpm / 60 * s.factor
			s.pos.Value = s.rate.State
		}
	}
	switch {
	case !fresh && s.statusSeen:
		s.lost = true
	case fresh && s.lost:
		s.lost = false
		s.rebooted(false)
	case fresh:
		s.statusSeen = true
	}
	s.mu.Lock()
	s.diag.stale = stale
	if s.st0OK {
		s.diag.st0, s.diag.seen0 = s.st0, true
	}
	s.mu.Unlock()
	s.cfgDone = s.cfgDone || !stale
	switch {
	case s.stepAt < len(s.steps): // the configuration is what it waits for first
		return s.starting(&s.notAcked)
	case stale && !s.cfgDone: // its status frames enabled, and their periods, only now
		return s.starting(&s.noStatus)
	}
	s.started()
	if stale {
		return s.errStale
	}
	return s.faultErr
}

// sparkSensorFault is Status 1's sensor fault: while it is active the
// encoder's readings are not trusted (Read fails). The other faults stop
// the motor, not the measurement: they are on /diagnostics.
const sparkSensorFault = 1 << 2

// Report gives the SPARK's health for /diagnostics: its motor's
// temperature, input voltage, output current, firmware and Status 1's
// fields as values; a warning "configuring: ..." while it starts up within
// sparkConfigTimeout (sparkStartup); an error while it has not answered, refused its
// firmware or a gain, sends no status, or has an active fault; a warning
// for an active warning (brown-out, overcurrent, stall, a reset...) or a
// sticky fault.
func (s *spark) Report(dst []hal.Report) []hal.Report {
	s.mu.Lock()
	d := s.diag
	s.mu.Unlock()
	r := hal.Report{Name: s.diagName}
	switch {
	case d.fwErr != nil:
		r.Error, r.Message = true, d.fwErr.Error()
		return append(dst, r)
	case d.stepEr != nil:
		r.Error, r.Message = true, d.stepEr.Error()
		return append(dst, r)
	case d.cfg != "":
		r.Warn, r.Message = true, "configuring: "+d.cfg
		return append(dst, r)
	case !d.fwKnown:
		r.Error, r.Message = true, "no answer to the firmware version request"
		return append(dst, r)
	}
	r.Values = append(r.Values, [2]string{"firmware", d.fw.String()})
	if d.seen0 {
		r.Values = append(r.Values, [2]string{"motor temperature (°C)", fmt.Sprintf("%.0f", d.st0.TempC)},
			[2]string{"input voltage (V)", fmt.Sprintf("%.2f", d.st0.Volts)}, [2]string{"output current (A)", fmt.Sprintf("%.1f", d.st0.Amps)},
			[2]string{"applied output", fmt.Sprintf("%.3f", d.st0.Applied)})
	}
	st := d.st1
	if d.seen1 {
		r.Values = append(r.Values, [2]string{"faults", bitNames(st.Faults, &frc.SparkFaultNames)}, [2]string{"warnings", bitNames(st.Warnings, &frc.SparkWarningNames)},
			[2]string{"sticky faults", bitNames(st.StickyFaults, &frc.SparkFaultNames)}, [2]string{"sticky warnings", bitNames(st.StickyWarnings, &frc.SparkWarningNames)})
	}
	if d.seen0 && frc.SparkModelName(d.st0.Model) != "" {
		r.Values = append(r.Values, [2]string{"model", frc.SparkModelName(d.st0.Model)})
	}
	switch {
	case d.stale || !d.seen0 || !d.seen1:
		r.Error, r.Message = true, "no status frames"
	case frc.SparkModelName(d.st0.Model) != "" && d.st0.Model != s.model:
		r.Warn, r.Message = true, fmt.Sprintf("the SPARK reports it is a %s, configured as a %s: check the YAML's type (and the motor it implies)",
			frc.SparkModelName(d.st0.Model), frc.SparkModelName(s.model))
	case st.Faults != 0:
		r.Error, r.Message = true, "fault: "+bitNames(st.Faults, &frc.SparkFaultNames)
	case st.Warnings != 0:
		r.Warn, r.Message = true, "warning: "+bitNames(st.Warnings, &frc.SparkWarningNames)
	case st.StickyFaults != 0:
		r.Warn, r.Message = true, "sticky fault: "+bitNames(st.StickyFaults, &frc.SparkFaultNames)+" (cleared by the REV Hardware Client or a power cycle)"
	default:
		r.Message = "ok"
	}
	return append(dst, carryNote(r, &d))
}

// bitNames names the bits set in b, bit 0 first; "none" for none.
func bitNames(b uint8, names *[8]string) string {
	var out []string
	for i, n := range names {
		if b&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	if out == nil {
		return "none"
	}
	return strings.Join(out, ", ")
}

// faultError is the error of an active sensor fault; nil when there is
// none. It allocates, only when the fault comes or goes.
func (s *spark) faultError() error {
	if s.faults == 0 {
		return nil
	}
	return fmt.Errorf("%s: active fault: %s: its encoder is not used", s.name, bitNames(s.faults, &frc.SparkFaultNames))
}

func (s *spark) Write(now, dt time.Duration) error {
	if ready, err := s.prepare(now, &s.wErr); !ready {
		return err
	}
	if s.devLoop {
		if id, v, ok := s.loopSetpoint(); ok {
			s.hb.enable(s.n)
			return s.wErr.wrap(s.can.Send(hal.Frame{ID: id, Len: 8, Data: frc.EncodeSparkSetpoint(v, 0)}))
		}
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

// loopSetpoint is the set point frame's id and value of a position or
// velocity command for the SPARK's own loop (position first): motor
// rotations or RPM, through position_factor, negated when inverted.
func (s *spark) loopSetpoint() (uint32, float64, bool) {
	sign := 1.0
	if s.inverted {
		sign = -1
	}
	switch {
	case s.posCmd.Set && interfaces.Finite(s.posCmd.Value):
		return s.idPos, sign * s.loopPosition(s.posCmd.Value) / s.factor, true
	case s.velCmd.Set && interfaces.Finite(s.velCmd.Value):
		return s.idVel, sign * s.velCmd.Value / s.factor * 60, true
	}
	return 0, 0, false
}

// Halt sends duty 0 (when the firmware is one frcd drives); until the
// SPARK can be driven, the version request or the next configuration step instead (at
// the time of the last Read), neither of which enables it.
func (s *spark) Halt() error {
	s.volts.Value, s.eff.Value = 0, 0
	if ready, err := s.prepare(s.now, &s.hErr); !ready {
		return err
	}
	return s.hErr.wrap(s.can.Send(hal.Frame{ID: s.idDuty, Len: 8, Data: frc.EncodeSparkSetpoint(0, 0)}))
}
