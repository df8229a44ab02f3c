package sim

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

// Channel counts of the roboRIO (MXP included).
const (
	numPWM   = 20
	numDIO   = 26
	numAI    = 8
	numAO    = 2
	numRelay = 4
	numSPI   = 5
	numI2C   = 2
	maxCANID = 62
)

// Options configures a Sim. Zero fields take the defaults given.
type Options struct {
	// Seed seeds the random streams of the fault models and disturbances.
	Seed int64
	// RealTime makes Now follow the wall clock from New; otherwise Now is
	// the time the physics was advanced to with AdvanceTo.
	RealTime bool
	// Step is the physics substep; AdvanceTo integrates in substeps of at
	// most Step. Defaults to 1 ms.
	Step time.Duration
	// Battery is the battery model; zero fields take its defaults.
	Battery Battery
	// Joints overrides the plant of URDF joints, by joint name.
	Joints map[string]JointParams
	// Pressure is the initial tank pressure of every PCM, psi. Defaults
	// to 120 (full).
	Pressure float64
	// Enabled starts the Driver Station enabled (teleop); otherwise it
	// starts disabled.
	Enabled bool
	// Initial places joints at start, by name (held within their limits);
	// the others start at 0, or the nearest limit.
	Initial map[string]JointState
	// Sensors sets link sensors' values at start, by YAML name (as
	// SetSensor).
	Sensors map[string]float64
	// Faults are the sensors' fault models, by YAML sensor name.
	Faults map[string]SensorFault
	// Disturbances are random pushes on joints or the drive base.
	Disturbances []Disturbance
	// CANFaults silence emulated CAN devices for a while.
	CANFaults []CANFault
	// Drivetrain, when set, makes wheel joints drive the base around the
	// field (see the package doc's Drivetrain).
	Drivetrain *Drivetrain
	// Pose places the drive base on the field at start, at rest (only
	// X, Y and Yaw count); nil: at the origin.
	Pose *Pose
}

// Battery is an open-circuit voltage behind an internal resistance.
type Battery struct {
	Voltage    float64 // open-circuit voltage, V; defaults to 12.8
	Resistance float64 // internal resistance plus wiring, Ω; defaults to 0.020
}

// JointParams overrides one joint's plant. Zero fields take the defaults
// documented in the package doc.
type JointParams struct {
	Motor    string        // motor type (Motors()), default "cim"; speed-controller joints only
	Motors   int           // motors in the gearbox, default 1
	Gearing  float64       // motor rad per joint unit (rad, or m for prismatic joints)
	Inertia  float64       // kg·m² (revolute, continuous) or kg (prismatic) at the joint
	Damping  float64       // viscous, N·m·s/rad or N·s/m
	Friction float64       // Coulomb, N·m or N
	Load     float64       // constant load at the joint, N·m or N, pushing toward negative
	Travel   time.Duration // pistons, relays, digital and analog outputs: time for the whole range; default 0.25 s
}

// JointTruth is a joint's ground truth.
type JointTruth struct {
	Position float64 // rad or m
	Velocity float64 // rad/s or m/s
	Current  float64 // A, signed in the joint's direction, all its motors
	Voltage  float64 // V applied to its motors, in the joint's direction
	Effort   float64 // N·m or N its motors apply at the joint
}

// Defaults.
const (
	defaultStep     = time.Millisecond
	defaultVoltage  = 12.8
	defaultRes      = 0.020
	defaultTravel   = 250 * time.Millisecond
	defaultGearing  = 10.0
	defaultInertia  = 0.1
	fallbackRadius2 = 0.1 // m², the radius of gyration² when a link has mass but no tensor
)

// Sim is a simulated robot and a complete hal.Backend over it. The hal
// methods and AdvanceTo are for the loop's goroutine; the inspection
// getters (Joint, Battery, PWMPulse...) may be called from any goroutine.
type Sim struct {
	mu  sync.Mutex
	r   *robot.Robot
	clk *clock

	step time.Duration
	t    time.Duration // the physics is integrated up to here
	ds   hal.DSState
	batt Battery

	pressure0 float64 // initial tank pressure, psi

	vTerm  float64 // battery terminal voltage, V
	iTotal float64 // battery current, A

	joints      []*joint
	motorJoints []*joint
	byName      map[string]*joint

	pwm   [numPWM]pwmPin
	dio   [numDIO]dioPin
	ai    [numAI]aiPin
	ao    [numAO]aoPin
	relay [numRelay]relayPin

	encoders []*encoderSensor
	digital  map[string]*digitalSensor // link sensors, by YAML name
	analog   map[string]*analogSensor  // link sensors, by YAML name
	sensors  map[string]sensorRef      // every sensor, by YAML name (IMUs included)

	faults    map[string]*fault // by sensor name
	faultList []*fault          // the same, in name order
	disturb   []*disturbance

	bus        *canBus            // the default bus, buses[""]
	buses      map[string]*canBus // by name
	pdps       []*pdp
	pdhs       []*pdh
	pcms       []*pcm               // PCMs and PHs, every bus
	pcmByID    map[int]*pcm         // the default bus's PCMs
	modules    map[moduleKey]*pcm   // every module
	canMotors  map[canKey]*canMotor // by bus and CAN id
	motorList  []*canMotor          // the same, in the order made
	imus       []*imuDev
	pigeonOpen map[canKey]bool  // by bus and CAN id, 1000 + the Talon's id for one on a Talon
	canNodes   map[string]*node // the emulated CAN devices, by the YAML name of a device on them
	canFaults  []canFault       // scheduled silences
	fastTick   int              // fastPeriod ticks sent so far
	nextFast   time.Duration

	base *base // nil without a drivetrain
	// accelOpen: the built-in accelerometer is open (accel.go).
	accelOpen bool

	nextStatus time.Duration
	opts       Options // as built: the Scenario, and the seed each fault and disturbance seeds its own streams from

	ovr overrides // set from outside the robot program (override.go)
}

var _ hal.Backend = (*Sim)(nil)

type pwmPin struct {
	open  bool
	width time.Duration
}

type dioUse uint8

const (
	dioFree dioUse = iota
	dioIn
	dioOut
	dioDuty
	dioEncoder
)

type dioPin struct {
	use     dioUse
	level   bool    // written by an output
	duty    float64 // written by a duty-cycle output
	dutySet bool
	in      *digitalSensor // what drives the pin, or nil
}

type aiPin struct {
	open bool
	in   *analogSensor
}

type aoPin struct {
	open  bool
	volts float64
}

type relayPin struct {
	open     bool
	fwd, rev bool
}

// digitalSensor is a YAML digital_input.
type digitalSensor struct {
	j     *joint // nil for a link sensor
	limit int8   // -1 lower, 1 upper, 0 none
	inv   bool
	value float64 // SetSensor, link sensors
	f     *fault  // nil when healthy
}

// active says whether the switch is pressed or the beam broken.
func (d *digitalSensor) active() bool {
	j := d.j
	switch {
	case j == nil:
		return d.value != 0
	case d.limit < 0:
		return j.pos <= j.lower+1e-3
	case d.limit > 0:
		return j.pos >= j.upper-1e-3
	case j.bounded:
		return j.pos > (j.lower+j.upper)/2
	}
	return j.pos > 0
}

// level is the electrical level the sensor drives.
func (d *digitalSensor) level() bool { return d.active() != d.inv }

// analogSensor is a YAML analog_input.
type analogSensor struct {
	j             *joint
	scale, offset float64
	value         float64 // SetSensor, link sensors, in its units
	f             *fault  // nil when healthy
}

// q is what the sensor senses, in its units: its joint's position, or
// the value SetSensor set.
func (a *analogSensor) q() float64 {
	if a.j != nil {
		return a.j.pos
	}
	return a.value
}

// volts is the voltage the sensor puts out sensing q.
func (a *analogSensor) volts(q float64) float64 {
	v := (q - a.offset) / a.scale * 5
	if !(v > 0) {
		return 0
	}
	return min(v, 5)
}

// encoderSensor is a YAML encoder.
type encoderSensor struct {
	a, b int
	j    *joint
	dpp  float64
	inv  bool
	f    *fault // nil when healthy
}

// q is the position the encoder turns with: its joint's (0 in a link or
// when nothing is wired).
func (e *encoderSensor) q() float64 {
	if e == nil || e.j == nil {
		return 0
	}
	return e.j.pos
}

// imuDev is a YAML navx or pigeon_imu.
type imuDev struct {
	name  string
	m     IMU
	nav   *navx  // navX only
	iface string // navX: "spi", "i2c", "serial"
	port  int
	// Pigeon only: the CAN id, or the CAN id of the Talon SRX it is
	// cabled to; -1 when not; its bus, and its presence there (nil on a
	// Talon).
	canID, talonID int
	bus            string
	can            *pigeonCAN
	f              *fault // nil when healthy
	// onBase: the drive base moves it (its frame is fixed to the base, at
	// mount and at in the base's frame), until SetIMU sets its motion.
	frame  string
	onBase bool
	mount  mat3
	at     urdf.Vec3
	// hold, when set, is the motion OverrideIMU holds: it wins over m.
	hold *IMU
}

// New builds a Sim of the robot. It fails for options naming unknown
// joints or motors and for negative or non-finite values.
func New(r *robot.Robot, o Options) (*Sim, error) {
	if r == nil || r.URDF == nil || r.Config == nil {
		return nil, errors.New("sim: no robot")
	}
	if err := checkOptions(r, &o); err != nil {
		return nil, err
	}
	s := &Sim{
		r:          r,
		clk:        newClock(o.RealTime),
		step:       o.Step,
		ds:         hal.DSState{Attached: true, Mode: hal.Teleop},
		batt:       o.Battery,
		pressure0:  o.Pressure,
		byName:     map[string]*joint{},
		digital:    map[string]*digitalSensor{},
		analog:     map[string]*analogSensor{},
		pcmByID:    map[int]*pcm{},
		modules:    map[moduleKey]*pcm{},
		canMotors:  map[canKey]*canMotor{},
		pigeonOpen: map[canKey]bool{},
		buses:      map[string]*canBus{},
		canNodes:   map[string]*node{},
		opts:       o,
		sensors:    map[string]sensorRef{},
		faults:     map[string]*fault{},
	}
	s.ds.Enabled = o.Enabled
	s.bus = s.busFor("")
	pw := s.canDevices(r.Config)
	for _, rj := range r.Joints {
		j, err := s.newJoint(rj, o.Joints[rj.Name], pw)
		if err != nil {
			return nil, err
		}
		s.joints = append(s.joints, j)
		s.byName[j.name] = j
		switch j.kind {
		case kindPWMMotor, kindNidec, kindCANMotor:
			s.motorJoints = append(s.motorJoints, j)
		}
	}
	for _, j := range s.joints {
		if mm := j.rj.URDF.Mimic; mm != nil && j.kind == kindPassive {
			if other := s.byName[mm.Joint]; other != nil && other != j {
				j.mimic, j.mult, j.moff = other, mm.Multiplier, mm.Offset
			}
		}
	}
	for _, rj := range r.Joints {
		for _, d := range rj.Sensors {
			s.sensor(d, s.byName[rj.Name])
		}
	}
	for _, d := range r.LinkSensors {
		s.sensor(d, nil)
	}
	for _, n := range sortedKeys(o.Initial) {
		j := s.byName[n]
		j.pos, j.vel = o.Initial[n].Position, o.Initial[n].Velocity
		j.stops()
	}
	for _, n := range sortedKeys(o.Sensors) {
		if d := s.digital[n]; d != nil {
			d.value = o.Sensors[n]
		} else {
			s.analog[n].value = o.Sensors[n]
		}
	}
	if err := s.setFaults(o.Faults); err != nil {
		return nil, err
	}
	if err := s.setCANFaults(o.CANFaults); err != nil {
		return nil, err
	}
	if o.Drivetrain != nil {
		b, err := s.newBase(o.Drivetrain)
		if err != nil {
			return nil, err
		}
		s.base = b
		for _, m := range s.imus {
			m.mount, m.at, m.onBase = linkPose(r.URDF, r.URDF.Link(m.frame))
			m.onBase = m.onBase && r.URDF.Link(m.frame) != nil
		}
		s.baseIMUs()
	}
	if p := o.Pose; p != nil {
		if s.base == nil {
			return nil, fmt.Errorf("sim: a pose %+v needs a drivetrain", *p)
		}
		s.base.x, s.base.y, s.base.yaw = p.X, p.Y, math.Remainder(p.Yaw, 2*math.Pi)
		s.baseIMUs()
	}
	if err := s.setDisturbances(o.Disturbances); err != nil { // a base push needs the base
		return nil, err
	}
	s.vTerm = s.batt.Voltage - s.batt.Resistance*controllerA
	s.iTotal = controllerA
	s.navx()
	s.publish()
	return s, nil
}

// baseIMUs gives the IMUs fixed to the base the base's motion.
func (s *Sim) baseIMUs() {
	for _, m := range s.imus {
		if m.onBase {
			m.m = s.base.imu(m.mount, m.at)
		}
	}
}

// navx gives every navX the motion its IMU feels; the navX latches a new
// sample at its own update rate.
func (s *Sim) navx() {
	for _, m := range s.imus {
		if m.nav != nil {
			m.nav.set(m.motion(), s.t)
		}
	}
}

// checkOptions applies defaults and refuses bad values.
func checkOptions(r *robot.Robot, o *Options) error {
	bad := func(x float64) bool { return x < 0 || math.IsNaN(x) || math.IsInf(x, 0) }
	switch {
	case o.Step < 0:
		return fmt.Errorf("sim: step %v is negative", o.Step)
	case bad(o.Battery.Voltage), bad(o.Battery.Resistance):
		return fmt.Errorf("sim: battery %+v: values must be positive", o.Battery)
	case bad(o.Pressure):
		return fmt.Errorf("sim: pressure %v psi must be positive", o.Pressure)
	}
	if o.Step == 0 {
		o.Step = defaultStep
	}
	if o.Battery.Voltage == 0 {
		o.Battery.Voltage = defaultVoltage
	}
	if o.Battery.Resistance == 0 {
		o.Battery.Resistance = defaultRes
	}
	if o.Pressure == 0 {
		o.Pressure = fullPSI
	}
	if err := checkDrivetrain(o.Drivetrain); err != nil {
		return err
	}
	if p := o.Pose; p != nil && (notFinite(p.X) || notFinite(p.Y) || notFinite(p.Yaw)) {
		return fmt.Errorf("sim: pose %+v: not numbers", *p)
	}
	for _, n := range sortedKeys(o.Joints) {
		p := o.Joints[n]
		rj := r.Joint(n)
		if rj == nil {
			return fmt.Errorf("sim: joints: %q is no movable URDF joint", n)
		}
		if p.Motor != "" {
			if _, ok := motorTable[p.Motor]; !ok {
				return fmt.Errorf("sim: joint %q: unknown motor %q (one of %v)", n, p.Motor, Motors())
			}
		}
		switch {
		case p.Motors < 0:
			return fmt.Errorf("sim: joint %q: motors %d must be positive", n, p.Motors)
		case bad(p.Gearing):
			return fmt.Errorf("sim: joint %q: gearing %v must be positive", n, p.Gearing)
		case bad(p.Inertia):
			return fmt.Errorf("sim: joint %q: inertia %v must be positive", n, p.Inertia)
		case bad(p.Damping):
			return fmt.Errorf("sim: joint %q: damping %v must not be negative", n, p.Damping)
		case bad(p.Friction):
			return fmt.Errorf("sim: joint %q: friction %v must not be negative", n, p.Friction)
		case math.IsNaN(p.Load) || math.IsInf(p.Load, 0):
			return fmt.Errorf("sim: joint %q: load %v is not a number", n, p.Load)
		case p.Travel < 0:
			return fmt.Errorf("sim: joint %q: travel %v must be positive", n, p.Travel)
		}
		if (p.Motor != "" || p.Motors != 0 || p.Gearing != 0) && !isSpeedController(rj.Actuator) {
			return fmt.Errorf("sim: joint %q: motor, motors and gearing apply to joints driven by a speed controller; %s", n, drivenBy(rj))
		}
	}
	var errs []error
	for _, n := range sortedKeys(o.Initial) {
		st := o.Initial[n]
		switch {
		case r.Joint(n) == nil:
			errs = append(errs, fmt.Errorf("sim: initial state: %q is no movable URDF joint", n))
		case notFinite(st.Position) || notFinite(st.Velocity):
			errs = append(errs, fmt.Errorf("sim: initial state of %q: %+v: not numbers", n, st))
		}
	}
	links := map[string]bool{}
	for _, d := range r.LinkSensors {
		if d.Type != nil && (d.Type.Name == "digital_input" || d.Type.Name == "analog_input") {
			links[d.Name] = true
		}
	}
	for _, n := range sortedKeys(o.Sensors) {
		switch {
		case !links[n]:
			errs = append(errs, fmt.Errorf("sim: sensors: %q is no digital_input or analog_input in a link", n))
		case notFinite(o.Sensors[n]):
			errs = append(errs, fmt.Errorf("sim: sensors: %q: %v is not a number", n, o.Sensors[n]))
		}
	}
	return errors.Join(errs...)
}

func notFinite(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }

func drivenBy(rj *robot.Joint) string {
	if rj.Actuator == nil {
		return "this one has no actuator"
	}
	return "this one is driven by " + rj.Actuator.String()
}

func isSpeedController(d *config.Device) bool {
	if d == nil || d.Type == nil {
		return false
	}
	if _, ok := hal.SpeedControllerPWM[d.Type.Name]; ok {
		return true
	}
	switch d.Type.Name {
	case "nidec", "talon_srx", "can_victor_spx":
		return true
	}
	return false
}

// newJoint builds a joint's plant from the robot and the overrides.
func (s *Sim) newJoint(rj *robot.Joint, p JointParams, pw powerOf) (*joint, error) {
	uj := rj.URDF
	j := &joint{name: rj.Name, rj: rj, sign: 1, bounded: uj.HasLimits(), pdpCh: -1}
	if j.bounded {
		j.lower, j.upper = uj.Limit.Lower, uj.Limit.Upper
		if j.upper < j.lower {
			j.lower, j.upper = j.upper, j.lower
		}
	}
	j.stops() // start at 0, or the nearest limit

	// The plant every joint has (a passive one too).
	mass, inertia := subtree(s.r.URDF, uj)
	switch {
	case p.Inertia > 0:
		j.inertia = p.Inertia
	case uj.Type == urdf.Prismatic && mass > 0:
		j.inertia = mass
	case uj.Type != urdf.Prismatic && inertia > 0:
		j.inertia = inertia
	case uj.Type != urdf.Prismatic && mass > 0:
		j.inertia = mass * fallbackRadius2
	default:
		j.inertia = defaultInertia
	}
	j.damping, j.friction, j.load = p.Damping, p.Friction, p.Load
	if dy := uj.Dynamics; dy != nil {
		if j.damping == 0 && dy.Damping > 0 {
			j.damping = dy.Damping
		}
		if j.friction == 0 && dy.Friction > 0 {
			j.friction = dy.Friction
		}
	}
	j.travel = p.Travel
	if j.travel == 0 {
		j.travel = defaultTravel
	}
	j.rate = j.span() / j.travel.Seconds()

	d := rj.Actuator
	if d == nil || d.Type == nil {
		return j, nil
	}
	typ := d.Type.Name
	if isSpeedController(d) {
		name := p.Motor
		if name == "" {
			name = "cim"
		}
		j.motor = motorTable[name].model()
		j.motors = float64(max(p.Motors, 1))
		switch {
		case p.Gearing > 0:
			j.gear = p.Gearing
		case d.Has("k_eff") && d.Float("k_eff") > 0:
			j.gear = d.Float("k_eff") / (j.motor.kt * j.motors)
		case uj.Limit != nil && uj.Limit.Velocity > 0:
			j.gear = j.motor.free / uj.Limit.Velocity
		default:
			j.gear = defaultGearing
		}
		if !(j.gear > 0) || math.IsInf(j.gear, 0) {
			j.gear = defaultGearing
		}
		if d.Bool("inverted") {
			j.sign = -1
		}
		if rj.PDP != nil {
			j.pdp, j.pdh, j.pdpCh = pw.pdp[rj.PDP], pw.pdh[rj.PDP], rj.PDPChannel
		}
	}
	switch typ {
	case "nidec":
		j.kind, j.pwm, j.dio = kindNidec, d.Int("id"), d.Int("dio_channel")
	case "talon_srx", "can_victor_spx":
		j.kind = kindCANMotor
		model := "talon_srx"
		if typ == "can_victor_spx" {
			model = "victor_spx"
		}
		m := s.canMotorFor(d.CANBus(), model, d.Int("id"))
		m.j = j
		s.canNodes[d.Name] = &m.node
		j.can = m
	case "solenoid":
		j.kind, j.pcm, j.ch = kindSolenoid, s.moduleOf(d), d.Int("id")
	case "double_solenoid":
		j.kind, j.pcm = kindDouble, s.moduleOf(d)
		j.ch, j.rev = d.Int("forward_id"), d.Int("reverse_id")
	case "relay":
		j.kind, j.ch = kindRelay, d.Int("relay_id")
	case "digital_output":
		j.kind, j.dio, j.inv = kindDOut, d.Int("dio_channel"), d.Bool("inverted")
	case "analog_output":
		j.kind, j.ch = kindAOut, d.Int("aout_channel")
		j.scale, j.offset = d.Float("scale"), d.Float("offset")
		if !j.bounded {
			j.rate = math.Abs(j.scale) / j.travel.Seconds()
		}
	case "servo":
		j.kind, j.pwm = kindServo, d.Int("id")
		j.minAngle, j.maxAngle = d.Float("min_angle"), d.Float("max_angle")
		j.minPulse = time.Duration(d.Int("min_pulse_us")) * time.Microsecond
		j.maxPulse = time.Duration(d.Int("max_pulse_us")) * time.Microsecond
		j.rate = servoRate
	default:
		if cal, ok := hal.SpeedControllerPWM[typ]; ok {
			j.kind, j.pwm, j.cal = kindPWMMotor, d.Int("id"), cal
		}
	}
	return j, j.checkChannels(d)
}

// checkChannels refuses channel numbers the roboRIO does not have (the
// robot's validation reports them; a Sim must not index out of range).
func (j *joint) checkChannels(d *config.Device) error {
	bad := func(what string, v, n int) error {
		if v < 0 || v >= n {
			return fmt.Errorf("sim: %s: %s %d is out of range 0-%d: %w", d, what, v, n-1, hal.ErrNoDevice)
		}
		return nil
	}
	var errs []error
	switch j.kind {
	case kindPWMMotor, kindServo:
		errs = append(errs, bad("PWM channel", j.pwm, numPWM))
	case kindNidec:
		errs = append(errs, bad("PWM channel", j.pwm, numPWM), bad("DIO channel", j.dio, numDIO))
	case kindDOut:
		errs = append(errs, bad("DIO channel", j.dio, numDIO))
	case kindRelay:
		errs = append(errs, bad("relay channel", j.ch, numRelay))
	case kindAOut:
		errs = append(errs, bad("analog output", j.ch, numAO))
	case kindSolenoid:
		errs = append(errs, bad("pneumatics channel", j.ch, j.pcm.channels()))
	case kindDouble:
		errs = append(errs, bad("pneumatics channel", j.ch, j.pcm.channels()), bad("pneumatics channel", j.rev, j.pcm.channels()))
	case kindCANMotor:
		errs = append(errs, bad("CAN id", j.can.id, maxCANID+1))
	}
	if j.kind == kindServo && j.maxPulse <= j.minPulse {
		errs = append(errs, fmt.Errorf("sim: %s: max_pulse_us must be greater than min_pulse_us", d))
	}
	if j.kind == kindAOut && (j.scale == 0 || math.IsNaN(j.scale)) {
		errs = append(errs, fmt.Errorf("sim: %s: scale must not be 0", d))
	}
	return errors.Join(errs...)
}

// sensor wires a YAML sensor to its joint (nil: a link sensor).
func (s *Sim) sensor(d *config.Device, j *joint) {
	if d.Type == nil {
		return
	}
	switch d.Type.Name {
	case "digital_input":
		ds := &digitalSensor{j: j, inv: d.Bool("inverted")}
		if j != nil {
			switch d.Str("limit") {
			case "lower":
				ds.limit = -1
			case "upper":
				ds.limit = 1
			}
		} else {
			s.digital[d.Name] = ds
		}
		s.sensors[d.Name] = sensorRef{dig: ds}
		if ch := d.Int("dio_channel"); ch >= 0 && ch < numDIO {
			s.dio[ch].in = ds
		}
	case "analog_input":
		as := &analogSensor{j: j, scale: d.Float("scale"), offset: d.Float("offset")}
		as.value = as.offset
		if j == nil {
			s.analog[d.Name] = as
		}
		s.sensors[d.Name] = sensorRef{an: as}
		if ch := d.Int("ain_channel"); ch >= 0 && ch < numAI {
			s.ai[ch].in = as
		}
	case "encoder":
		es := &encoderSensor{a: d.Int("ch_a"), b: d.Int("ch_b"), j: j, dpp: d.Float("dist_per_pulse"), inv: d.Bool("inverted")}
		s.encoders = append(s.encoders, es)
		s.sensors[d.Name] = sensorRef{enc: es}
	case "navx":
		m := &imuDev{name: d.Name, nav: newNavX(), iface: d.Str("interface"), port: roboRIOPort(d), canID: -1, talonID: -1, frame: d.Str("frame_id")}
		s.imus = append(s.imus, m)
		s.sensors[d.Name] = sensorRef{imu: m}
	case "pigeon_imu":
		m := &imuDev{name: d.Name, canID: -1, talonID: -1, frame: d.Str("frame_id")}
		if d.Has("id") {
			m.canID, m.bus = d.Int("id"), d.CANBus()
			m.can = s.pigeonCAN(m.bus, m.canID)
			s.canNodes[d.Name] = &m.can.node
		} else if t := d.Ref("talon"); t != nil {
			m.talonID, m.bus = t.Int("id"), t.CANBus()
			m.can = s.pigeonOnTalon(m.bus, m.talonID)
		}
		s.imus = append(s.imus, m)
		s.sensors[d.Name] = sensorRef{imu: m}
	}
}

// enabled is the FPGA's view: outputs may move.
func (s *Sim) enabled() bool { return s.ds.Enabled && s.ds.Attached && !s.ds.EStop }

// AdvanceTo integrates the physics up to now, in substeps of at most
// Options.Step, and sends the emulated devices' periodic CAN frames on
// schedule. It does nothing when now is not after the present time.
func (s *Sim) AdvanceTo(now time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.t < now {
		dt := min(s.step, now-s.t)
		s.substep(dt)
		s.t += dt
		s.advanceFaults(dt.Seconds(), s.t)
		s.advanceCANFaults(s.t)
		s.redraw()
		s.navx()
		if s.t >= s.nextStatus || s.t >= s.nextFast {
			s.publish()
		}
	}
	s.clk.advanced(s.t)
}

// publish sends the status frames when they are due.
func (s *Sim) publish() {
	if s.t >= s.nextStatus {
		for _, p := range s.pdps {
			p.publish(s, s.t)
		}
		for _, p := range s.pcms {
			p.publish(s, s.t)
		}
		for _, p := range s.pdhs {
			p.publish(s, s.t)
		}
		for s.nextStatus <= s.t {
			s.nextStatus += statusPeriod
		}
	}
	if s.t >= s.nextFast {
		for _, m := range s.motorList {
			m.publish(s, s.t, s.fastTick)
		}
		for _, m := range s.imus {
			if m.can != nil {
				m.can.publish(m, s.t, s.fastTick)
			}
		}
		for s.nextFast <= s.t {
			s.nextFast += fastPeriod
			s.fastTick++
		}
	}
}

// substep integrates everything over dt.
func (s *Sim) substep(dt time.Duration) {
	h := dt.Seconds()
	now := s.t + dt
	en := s.enabled()
	s.disturbJoints()
	extra := controllerA
	for _, p := range s.pcms {
		p.update(en, now, h)
		extra += p.current()
	}
	for _, j := range s.motorJoints {
		j.duty = s.duty(j, en, now)
	}
	v := s.solveBattery(extra)
	s.vTerm = v
	s.iTotal = (s.batt.Voltage - v) / s.batt.Resistance
	for _, j := range s.joints {
		s.move(j, en, v, h)
		if j.dv != 0 || j.carried != 0 {
			p := j.pos
			j.pos += j.dv * h // a velocity disturbance carries it
			j.stops()
			j.carried = (j.pos - p) / h
		}
	}
	if s.base != nil {
		fx, fy, vx, vy := s.baseDisturbance()
		s.base.force, s.base.vel = [2]float64{fx, fy}, [2]float64{vx, vy}
		s.base.step(h)
		s.baseIMUs()
	}
	for _, j := range s.joints {
		if j.mimic != nil {
			j.pos = j.mult*j.mimic.pos + j.moff
			j.vel = j.mult * (j.mimic.vel + j.mimic.carried)
			j.stops()
		}
	}
	for _, p := range s.pdps {
		p.energy += v * s.iTotal * h
	}
}

// duty is the signed duty a motor joint's controller applies, in the
// plant's direction; 0 is neutral (the motor coasts).
func (s *Sim) duty(j *joint, en bool, now time.Duration) float64 {
	var d float64
	switch j.kind {
	case kindPWMMotor:
		if en { // the FPGA sends no pulses while disabled
			d = j.cal.Duty(s.pwm[j.pwm].width)
		}
	case kindNidec:
		if p := &s.dio[j.dio]; en && s.pwm[j.pwm].width > 0 && p.dutySet {
			d = max(-1, min(1, (p.duty-0.5)*2))
		}
	case kindCANMotor:
		d = j.can.effective(en, now)
	}
	return d * j.sign
}

// solveBattery finds the terminal voltage with every motor's supply
// current at that voltage and extra amps of other loads. A controller at
// duty d passes d × its motor's current from the battery (negative when
// the motor drives current back), and its motor's current at terminal
// voltage V is (d V - back-EMF) / R: linear in V, so V is solved exactly,
// with the back-EMF at the present velocity.
func (s *Sim) solveBattery(extra float64) float64 {
	voc, rb := s.batt.Voltage, s.batt.Resistance
	num, den := voc-rb*extra, 1.0
	for _, j := range s.motorJoints {
		d := j.duty
		if d == 0 {
			continue
		}
		k := j.motors * d / j.motor.r
		num += rb * k * j.backEMF()
		den += rb * k * d
	}
	return max(0, num/den)
}

// move advances one joint's plant by h seconds.
func (s *Sim) move(j *joint, en bool, v, h float64) {
	switch j.kind {
	case kindPassive:
		if j.mimic == nil {
			j.stepMotor(0, true, h)
		}
	case kindPWMMotor, kindNidec, kindCANMotor:
		j.stepMotor(j.duty*v, j.duty == 0, h)
	case kindSolenoid:
		on := j.pcm.out&(1<<uint(j.ch&15)) != 0
		if on && j.state != 1 {
			j.pcm.stroke()
		}
		j.state = -1
		if on {
			j.state = 1
			if j.pcm.pressure < minStrokePSI {
				j.hold()
				return
			}
			j.moveToward(j.upper, h)
			return
		}
		j.moveToward(j.lower, h) // the spring returns it
	case kindDouble:
		f := j.pcm.out&(1<<uint(j.ch&15)) != 0
		r := j.pcm.out&(1<<uint(j.rev&15)) != 0
		dir := j.state // both off or both on: the valve stays
		switch {
		case f && !r:
			dir = 1
		case r && !f:
			dir = -1
		}
		if dir != j.state {
			j.pcm.stroke()
			j.state = dir
		}
		switch {
		case dir == 0 || j.pcm.pressure < minStrokePSI:
			j.hold()
		case dir > 0:
			j.moveToward(j.upper, h)
		default:
			j.moveToward(j.lower, h)
		}
	case kindRelay:
		p := &s.relay[j.ch]
		switch {
		case !en || p.fwd == p.rev: // the FPGA opens relays while disabled
			j.hold()
		case p.fwd:
			j.moveToward(j.upper, h)
		default:
			j.moveToward(j.lower, h)
		}
	case kindDOut:
		p := &s.dio[j.dio]
		switch {
		case p.use != dioOut:
			j.hold()
		case p.level != j.inv:
			j.moveToward(j.upper, h)
		default:
			j.moveToward(j.lower, h)
		}
	case kindAOut:
		p := &s.ao[j.ch]
		if !p.open {
			j.hold()
			return
		}
		target := p.volts/5*j.scale + j.offset
		if j.bounded {
			target = max(j.lower, min(j.upper, target))
		}
		j.moveToward(target, h)
	case kindServo:
		w := s.pwm[j.pwm].width
		if !en || w <= 0 {
			j.hold() // no pulses: the servo stays where it is
			return
		}
		w = max(j.minPulse, min(j.maxPulse, w))
		j.moveToward(j.minAngle+float64(w-j.minPulse)/float64(j.maxPulse-j.minPulse)*(j.maxAngle-j.minAngle), h)
	}
}

// Now is the time since the Sim was made: the physics' time in manual
// mode, the wall clock's in real-time mode.
func (s *Sim) Now() time.Duration { return s.clk.Now() }

// Epoch is the wall-clock time of Now's zero: when the Sim was made. Time
// stamps for the outside world (ROS headers) are Epoch plus Now.
func (s *Sim) Epoch() time.Time { return s.clk.start }

// DS returns the Driver Station's state; it starts attached and disabled,
// in teleop.
func (s *Sim) DS() hal.DSState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ds
}

// SetDS sets the Driver Station's state.
func (s *Sim) SetDS(st hal.DSState) {
	s.mu.Lock()
	s.ds = st
	s.mu.Unlock()
}

// Vin is the roboRIO's input voltage: the battery's terminal voltage less
// 0.05 V of wiring.
func (s *Sim) Vin() (float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.vTerm - vinDrop, nil
}

func noChannel(what string, ch, n int) error {
	return fmt.Errorf("sim: %s %d (0-%d): %w", what, ch, n-1, hal.ErrNoDevice)
}

func inUse(what string, ch int) error {
	return fmt.Errorf("sim: %s %d: %w", what, ch, hal.ErrInUse)
}

// OpenPWM opens a PWM output, 0-19.
func (s *Sim) OpenPWM(ch int) (hal.PWM, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch < 0 || ch >= numPWM {
		return nil, noChannel("PWM channel", ch, numPWM)
	}
	if s.pwm[ch].open {
		return nil, inUse("PWM channel", ch)
	}
	s.pwm[ch].open = true
	return &pwmOut{s: s, ch: ch}, nil
}

func (s *Sim) openDIO(ch int, use dioUse) error {
	if ch < 0 || ch >= numDIO {
		return noChannel("DIO channel", ch, numDIO)
	}
	if s.dio[ch].use != dioFree {
		return inUse("DIO channel", ch)
	}
	s.dio[ch].use = use
	return nil
}

// OpenDigitalIn opens a DIO channel, 0-25, as an input.
func (s *Sim) OpenDigitalIn(ch int) (hal.DigitalIn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.openDIO(ch, dioIn); err != nil {
		return nil, err
	}
	d := &dioInput{s: s, ch: ch}
	if in := s.dio[ch].in; in != nil {
		d.last = in.level() // what a dropped first read reads
	}
	return d, nil
}

// OpenDigitalOut opens a DIO channel, 0-25, as an output.
func (s *Sim) OpenDigitalOut(ch int) (hal.DigitalOut, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.openDIO(ch, dioOut); err != nil {
		return nil, err
	}
	return &dioOutput{s: s, ch: ch}, nil
}

// OpenDutyCycleOut opens a DIO channel, 0-25, as a PWM-generating output.
func (s *Sim) OpenDutyCycleOut(ch int) (hal.DutyCycleOut, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.openDIO(ch, dioDuty); err != nil {
		return nil, err
	}
	return &dutyOutput{s: s, ch: ch}, nil
}

// OpenAnalogIn opens an analog input, 0-7. The sim reads the exact
// voltage; averaging and oversampling change nothing.
func (s *Sim) OpenAnalogIn(ch, averageBits, oversampleBits int) (hal.AnalogIn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch < 0 || ch >= numAI {
		return nil, noChannel("analog input", ch, numAI)
	}
	if averageBits < 0 || oversampleBits < 0 {
		return nil, fmt.Errorf("sim: analog input %d: negative average or oversample bits: %w", ch, hal.ErrUnsupported)
	}
	if s.ai[ch].open {
		return nil, inUse("analog input", ch)
	}
	s.ai[ch].open = true
	a := &aiInput{s: s, ch: ch}
	if in := s.ai[ch].in; in != nil {
		a.last = in.volts(in.q()) // what a dropped first read reads
	}
	return a, nil
}

// OpenAnalogOut opens an analog output, 0-1.
func (s *Sim) OpenAnalogOut(ch int) (hal.AnalogOut, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch < 0 || ch >= numAO {
		return nil, noChannel("analog output", ch, numAO)
	}
	if s.ao[ch].open {
		return nil, inUse("analog output", ch)
	}
	s.ao[ch].open = true
	return &aoOutput{s: s, ch: ch}, nil
}

// OpenEncoder opens a quadrature counter on DIO channels a and b. It counts
// the edges of the YAML encoder wired to those channels; opened with A and
// B swapped, it counts the other way.
func (s *Sim) OpenEncoder(a, b int, enc hal.Encoding) (hal.Encoder, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ch := range [2]int{a, b} {
		if ch < 0 || ch >= numDIO {
			return nil, noChannel("DIO channel", ch, numDIO)
		}
		if s.dio[ch].use != dioFree || a == b {
			return nil, inUse("DIO channel", ch)
		}
	}
	switch enc {
	case hal.X1, hal.X2, hal.X4:
	default:
		return nil, fmt.Errorf("sim: encoder on DIO %d/%d: encoding %d is not 1, 2 or 4: %w", a, b, enc, hal.ErrUnsupported)
	}
	e := &encoderIn{s: s, sign: 1, enc: float64(enc)}
	for _, src := range s.encoders {
		if (src.a == a && src.b == b) || (src.a == b && src.b == a) {
			e.src = src
			if src.inv != (src.a == b) {
				e.sign = -1
			}
			break
		}
	}
	if e.src != nil {
		q := e.src.q()
		if e.src.f != nil {
			q += e.src.f.drift
		}
		e.base = e.raw(q)
	}
	e.a, e.b = a, b
	s.dio[a].use, s.dio[b].use = dioEncoder, dioEncoder
	s.ovr.encs = append(s.ovr.encs, e)
	return e, nil
}

// OpenRelay opens a relay channel, 0-3.
func (s *Sim) OpenRelay(ch int) (hal.Relay, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch < 0 || ch >= numRelay {
		return nil, noChannel("relay channel", ch, numRelay)
	}
	if s.relay[ch].open {
		return nil, inUse("relay channel", ch)
	}
	s.relay[ch].open = true
	return &relayOut{s: s, ch: ch}, nil
}

// CAN returns the default CAN bus, with the emulated devices whose YAML
// can_bus is "" on it. It (and CANBus's) is a hal.CANMonitor too.
func (s *Sim) CAN() hal.CANBus { return s.bus }

// OpenCANMotor opens the emulated Talon SRX ("talon_srx") or Victor SPX
// ("victor_spx") of that CAN id, 0-62, on the default bus.
func (s *Sim) OpenCANMotor(model string, id int) (hal.CANMotor, error) {
	return s.OpenCANMotorOn("", model, id)
}

// OpenCANMotorOn is OpenCANMotor on the bus of that name
// (hal.NamedCANDevices).
func (s *Sim) OpenCANMotorOn(bus, model string, id int) (hal.CANMotor, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if model != "talon_srx" && model != "victor_spx" {
		return nil, fmt.Errorf("sim: CAN motor controller model %q (talon_srx or victor_spx): %w", model, hal.ErrNoDevice)
	}
	if id < 0 || id > maxCANID {
		return nil, noChannel("CAN id", id, maxCANID+1)
	}
	m := s.canMotorFor(bus, model, id)
	if m.model != model {
		return nil, fmt.Errorf("sim: CAN id %d is a %s, not a %s: %w", id, m.model, model, hal.ErrNoDevice)
	}
	if m.open {
		return nil, inUse("CAN motor controller", id)
	}
	m.open = true
	return m, nil
}

// OpenPigeon opens the Pigeon IMU of CAN id id, or, when talonID is 0 or
// more, the one cabled to that Talon SRX, on the default bus.
func (s *Sim) OpenPigeon(id, talonID int) (hal.Pigeon, error) { return s.OpenPigeonOn("", id, talonID) }

// OpenPigeonOn is OpenPigeon on the bus of that name
// (hal.NamedCANDevices).
func (s *Sim) OpenPigeonOn(bus string, id, talonID int) (hal.Pigeon, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := id
	if talonID >= 0 {
		key = 1000 + talonID
		id = talonID
	}
	if id < 0 || id > maxCANID {
		return nil, noChannel("CAN id", id, maxCANID+1)
	}
	if s.pigeonOpen[canKey{bus, key}] {
		return nil, inUse("Pigeon", id)
	}
	p := &pigeon{s: s}
	if talonID >= 0 {
		p.talon = s.canMotors[canKey{bus, talonID}]
	}
	for _, m := range s.imus {
		if m.nav == nil && m.bus == bus && ((talonID >= 0 && m.talonID == talonID) || (talonID < 0 && m.canID == id)) {
			p.imu = m
			break
		}
	}
	s.pigeonOpen[canKey{bus, key}] = true
	return p, nil
}

// SPI returns an SPI port, 0-4: the navX's when one is configured there,
// else a port where nothing answers (reads zeros).
func (s *Sim) SPI(port int) (spi.Port, error) {
	if port < 0 || port >= numSPI {
		return nil, noChannel("SPI port", port, numSPI)
	}
	for _, m := range s.imus {
		if m.nav != nil && m.iface == "spi" && m.port == port {
			return m.nav.spiPort(), nil
		}
	}
	return emptySPI{}, nil
}

// I2C returns an I2C bus, 0-1: the navX's when one is configured there,
// else a bus where no device acknowledges.
func (s *Sim) I2C(port int) (i2c.Bus, error) {
	if port < 0 || port >= numI2C {
		return nil, noChannel("I2C port", port, numI2C)
	}
	for _, m := range s.imus {
		if m.nav != nil && m.iface == "i2c" && m.port == port {
			return m.nav.i2cBus(), nil
		}
	}
	return emptyI2C{}, nil
}

// SetIMU sets the motion the IMU of that YAML name (navx or pigeon_imu)
// feels. An IMU the drive base moved reads what is set from then on.
func (s *Sim) SetIMU(name string, m IMU) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.sensors[name].imu
	if d == nil {
		return fmt.Errorf("sim: no navx or pigeon_imu named %q: %w", name, hal.ErrNoDevice)
	}
	d.m, d.onBase = m, false
	if d.nav != nil {
		d.nav.set(d.motion(), s.t)
	}
	return nil
}

// SetSensor sets what a link sensor senses: a digital_input is active when
// v is not 0; an analog_input reads v in its units (m, rad...).
func (s *Sim) SetSensor(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("sim: sensor %q: %v is not a number", name, v)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.digital[name]; d != nil {
		d.value = v
		return nil
	}
	if a := s.analog[name]; a != nil {
		a.value = v
		return nil
	}
	return fmt.Errorf("sim: no digital_input or analog_input named %q in a link: %w", name, hal.ErrNoDevice)
}

// SetJoint places a joint's plant (held within its limits).
func (s *Sim) SetJoint(name string, pos, vel float64) error {
	if math.IsNaN(pos) || math.IsInf(pos, 0) || math.IsNaN(vel) || math.IsInf(vel, 0) {
		return fmt.Errorf("sim: joint %q: position %v, velocity %v: not numbers", name, pos, vel)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.byName[name]
	if j == nil {
		return fmt.Errorf("sim: no movable joint named %q: %w", name, hal.ErrNoDevice)
	}
	j.pos, j.vel = pos, vel
	j.stops()
	return nil
}

// Scenario is the scenario the Sim was built from: its options, with
// the defaults applied, and the robot's name.
func (s *Sim) Scenario() *Scenario { return ScenarioOf(s.r, s.opts, s.opts.Enabled) }

// Pose is the drive base's true pose and velocity on the field: x, y in
// m, yaw in rad counter-clockwise from the field's x axis, the velocity
// vx, vy in m/s in the field frame and wz in rad/s.
type Pose struct {
	X   float64 `json:"x"`
	Y   float64 `json:"y"`
	Yaw float64 `json:"yaw"`
	VX  float64 `json:"vx"`
	VY  float64 `json:"vy"`
	WZ  float64 `json:"wz"`
}

// Pose returns the drive base's true pose; ok is false without a
// drivetrain.
func (s *Sim) Pose() (p Pose, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.base
	if b == nil {
		return Pose{}, false
	}
	return Pose{X: b.x, Y: b.y, Yaw: b.yaw, VX: b.vx, VY: b.vy, WZ: b.wz}, true
}

// SetPose places the drive base on the field at rest: x, y in m, yaw in
// rad. The wheels keep turning as they were; the floor stops them.
func (s *Sim) SetPose(x, y, yaw float64) error {
	for _, v := range []float64{x, y, yaw} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("sim: pose %v, %v, %v: not numbers", x, y, yaw)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.base
	if b == nil {
		return fmt.Errorf("sim: no drivetrain configured: %w", hal.ErrNoDevice)
	}
	b.x, b.y, b.yaw = x, y, math.Remainder(yaw, 2*math.Pi)
	b.vx, b.vy, b.wz, b.ax, b.ay, b.alpha = 0, 0, 0, 0, 0, 0
	s.baseIMUs()
	return nil
}

// EachJoint calls fn with every movable joint's name and ground truth, in
// the robot's order, all at one instant. fn must not call the Sim.
func (s *Sim) EachJoint(fn func(name string, t JointTruth)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, j := range s.joints {
		fn(j.name, j.truth())
	}
}

func (j *joint) truth() JointTruth {
	return JointTruth{Position: j.pos, Velocity: j.vel + j.carried, Current: j.motors * j.current, Voltage: j.volts,
		Effort: j.motors * j.gear * j.motor.kt * j.current}
}

// Joint returns a joint's ground truth.
func (s *Sim) Joint(name string) (JointTruth, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.byName[name]
	if j == nil {
		return JointTruth{}, false
	}
	return j.truth(), true
}

// PWMPulse is the last width a driver wrote on a PWM channel (0: disabled
// or never written).
func (s *Sim) PWMPulse(ch int) time.Duration {
	if ch < 0 || ch >= numPWM {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pwm[ch].width
}

// DIO is the last level a driver wrote on a DIO output.
func (s *Sim) DIO(ch int) bool {
	if ch < 0 || ch >= numDIO {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dio[ch].level
}

// DutyCycle is the last duty cycle a driver wrote on a DIO duty-cycle
// output, 0 to 1.
func (s *Sim) DutyCycle(ch int) float64 {
	if ch < 0 || ch >= numDIO {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dio[ch].duty
}

// AnalogOut is the last voltage a driver wrote on an analog output, V.
func (s *Sim) AnalogOut(ch int) float64 {
	if ch < 0 || ch >= numAO {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ao[ch].volts
}

// RelayOut is the last contact state a driver wrote on a relay.
func (s *Sim) RelayOut(ch int) (fwd, rev bool) {
	if ch < 0 || ch >= numRelay {
		return false, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.relay[ch].fwd, s.relay[ch].rev
}

// Solenoid is a PCM's actual output on a channel (the default bus's PCM;
// Pneumatics reads any module).
func (s *Sim) Solenoid(pcmID, ch int) bool {
	if ch < 0 || ch > 7 {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pcmByID[pcmID]
	return p != nil && p.out&(1<<uint(ch)) != 0
}

// PCMCommand is what the drivers last asked of a PCM in a Control1 frame:
// its solenoid bits and closed-loop enable. ok is false before any frame.
// Unlike Solenoid, it shows what the robot program sent even while the
// PCM ignores it (robot disabled).
func (s *Sim) PCMCommand(pcmID int) (solenoids byte, closedLoop, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pcmByID[pcmID]
	if p == nil {
		return 0, false, false
	}
	return byte(p.ctrlBits), p.ctrlClosed, p.ctrlOK
}

// Compressor reports whether a PCM runs its compressor, and its tank's
// pressure, psi.
func (s *Sim) Compressor(pcmID int) (on bool, pressurePSI float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pcmByID[pcmID]
	if p == nil {
		return false, 0
	}
	return p.compOn, p.pressure
}

// Battery returns the battery's terminal voltage, V, and current, A.
func (s *Sim) Battery() (volts, amps float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.vTerm, s.iTotal
}

// CANMotorDuty is the last duty a driver set on a CAN motor controller
// (what it applies is in Joint's Voltage: neutral when disabled or stale).
func (s *Sim) CANMotorDuty(id int) float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.canMotors[canKey{"", id}]; m != nil {
		return m.duty
	}
	return 0
}

// Channel handles.

var (
	errNotFinite = errors.New("sim: value is not a finite number")
	errNoAck     = fmt.Errorf("sim: I2C: no device acknowledged: %w", hal.ErrNoDevice)
)

type pwmOut struct {
	s  *Sim
	ch int
}

// SetPulse sets the pulse width; 0 (or less) disables the output.
func (p *pwmOut) SetPulse(w time.Duration) error {
	p.s.mu.Lock()
	p.s.pwm[p.ch].width = max(w, 0)
	p.s.mu.Unlock()
	return nil
}

type dioInput struct {
	s    *Sim
	ch   int
	last bool // the last level read
}

// Get reads the level the sensor wired to the channel drives (low when
// none is), through the sensor's faults.
func (d *dioInput) Get() (bool, error) {
	d.s.mu.Lock()
	defer d.s.mu.Unlock()
	d.last = d.s.dioLevel(d.ch, &d.last)
	return d.last, nil
}

type dioOutput struct {
	s  *Sim
	ch int
}

func (d *dioOutput) Set(high bool) error {
	d.s.mu.Lock()
	d.s.dio[d.ch].level = high
	d.s.mu.Unlock()
	return nil
}

type dutyOutput struct {
	s  *Sim
	ch int
}

// SetDutyCycle sets the duty, 0 to 1 (clamped).
func (d *dutyOutput) SetDutyCycle(duty float64) error {
	if math.IsNaN(duty) || math.IsInf(duty, 0) {
		return errNotFinite
	}
	d.s.mu.Lock()
	p := &d.s.dio[d.ch]
	p.duty, p.dutySet = max(0, min(1, duty)), true
	d.s.mu.Unlock()
	return nil
}

type aiInput struct {
	s    *Sim
	ch   int
	last float64 // the last voltage read
}

// Voltage reads the sensor wired to the input, 0-5 V (0 when none is),
// through the sensor's faults.
func (a *aiInput) Voltage() (float64, error) {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	a.last = a.s.aiVolts(a.ch, &a.last)
	return a.last, nil
}

type aoOutput struct {
	s  *Sim
	ch int
}

// SetVoltage drives the output, clamped to 0-5 V.
func (a *aoOutput) SetVoltage(v float64) error {
	if math.IsNaN(v) {
		return errNotFinite
	}
	a.s.mu.Lock()
	a.s.ao[a.ch].volts = max(0, min(5, v))
	a.s.mu.Unlock()
	return nil
}

type relayOut struct {
	s  *Sim
	ch int
}

func (r *relayOut) Set(fwd, rev bool) error {
	r.s.mu.Lock()
	r.s.relay[r.ch].fwd, r.s.relay[r.ch].rev = fwd, rev
	r.s.mu.Unlock()
	return nil
}

type encoderIn struct {
	s    *Sim
	src  *encoderSensor // nil: nothing wired, counts 0
	sign float64        // -1: counts down when the joint turns positive
	enc  float64        // edges per pulse
	base int64          // the raw count when opened
	last int64          // the last count read
	a, b int            // its DIO channels, as opened
	ovr  *int64         // the count OverrideEncoder holds, if any
}

// raw is the edge count at the position q: trunc(q / dpp × enc).
func (e *encoderIn) raw(q float64) int64 {
	if e.src == nil || e.src.j == nil {
		return 0
	}
	x := math.Trunc(e.sign * q / e.src.dpp * e.enc)
	switch {
	case x != x:
		return 0
	case x >= math.MaxInt64:
		return math.MaxInt64
	case x <= math.MinInt64:
		return math.MinInt64
	}
	return int64(x)
}

// Count is the edges counted since the encoder was opened, through the
// sensor's faults.
func (e *encoderIn) Count() (int64, error) {
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	e.last = e.count(&e.last)
	return e.last, nil
}

// emptySPI is an SPI port with no device: MISO reads zeros.
type emptySPI struct{}

func (emptySPI) String() string { return "sim-spi-empty" }

func (emptySPI) Connect(physic.Frequency, spi.Mode, int) (spi.Conn, error) {
	return emptySPI{}, nil
}

func (emptySPI) Tx(w, r []byte) error {
	clear(r)
	return nil
}

func (emptySPI) Duplex() conn.Duplex { return conn.Full }

func (emptySPI) TxPackets(p []spi.Packet) error {
	for i := range p {
		clear(p[i].R)
	}
	return nil
}

// emptyI2C is an I2C bus where no device acknowledges.
type emptyI2C struct{}

func (emptyI2C) String() string                  { return "sim-i2c-empty" }
func (emptyI2C) Tx(uint16, []byte, []byte) error { return errNoAck }
func (emptyI2C) SetSpeed(physic.Frequency) error { return nil }

// ConfigOptions turns the YAML's `sim:` section into the sim's options.
func ConfigOptions(c *config.File, seed int64, realTime bool) Options {
	o := Options{
		Seed:     seed,
		RealTime: realTime,
		Battery:  Battery{Voltage: c.Sim.Float("battery_voltage"), Resistance: c.Sim.Float("battery_resistance")},
		Pressure: c.Sim.Float("pressure"),
		Joints:   map[string]JointParams{},
	}
	for _, sj := range c.SimJoints {
		p := JointParams{Motor: sj.Str("motor"), Damping: sj.Float("damping"),
			Friction: sj.Float("friction"), Load: sj.Float("load"), Travel: time.Duration(sj.Float("travel") * float64(time.Second))}
		if sj.Has("motors") {
			p.Motors = sj.Int("motors")
		}
		if sj.Has("gearing") {
			p.Gearing = sj.Float("gearing")
		}
		if sj.Has("inertia") {
			p.Inertia = sj.Float("inertia")
		}
		o.Joints[sj.Name] = p
	}
	if len(c.SimSensors) > 0 {
		o.Faults = map[string]SensorFault{}
	}
	for _, e := range c.SimSensors {
		o.Faults[e.Name] = SensorFault{
			Noise:   Gauss{Mu: e.Float("noise.mu"), Sigma: e.Float("noise.sigma")},
			Drift:   Gauss{Mu: e.Float("drift.mu"), Sigma: e.Float("drift.sigma")},
			Dropout: e.Float("dropout"), Stuck: e.Bool("stuck"), Disconnected: e.Bool("disconnected"), FaultAt: e.Float("fault_at"),
		}
	}
	for _, e := range c.SimDisturbances {
		d := Disturbance{Name: e.Name, Joint: e.Str("joint"), Base: e.Bool("base"), Kind: e.Str("kind"),
			Magnitude: e.Float("magnitude"), UpdatePeriod: e.Float("update_period"),
			InitialX: e.Float("initial_x"), InitialY: e.Float("initial_y")}
		for _, k := range [...]struct {
			key string
			dst **float64
		}{{"min_x", &d.MinX}, {"max_x", &d.MaxX}, {"min_y", &d.MinY}, {"max_y", &d.MaxY}} {
			if e.Has(k.key) {
				v := e.Float(k.key)
				*k.dst = &v
			}
		}
		o.Disturbances = append(o.Disturbances, d)
	}
	o.Drivetrain = DrivetrainFromConfig(c.SimDrivetrain)
	for _, e := range c.SimCANFaults {
		o.CANFaults = append(o.CANFaults, CANFault{Device: e.Name, From: e.Float("from"), Until: e.Float("until")})
	}
	return o
}
