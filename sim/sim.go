package sim

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/robot"
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

// Sim is a simulated robot and a complete hal.Backend over it. The hal
// methods and AdvanceTo are for the loop's goroutine; the inspection
// getters (Joint, Battery, PWMPulse...) may be called from any goroutine.
type Sim struct {
	bodies *bodies // each link's mass and inertia, summed once at start-up

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
	leds  [maxLEDs * 3]byte // the LED buffer every addressable_led's window is of, r, g, b
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
	cancoders  []*cancoder      // the emulated CANcoders (phoenix6.go)
	canFaults  []canFault       // scheduled silences
	fastTick   int              // fastPeriod ticks sent so far
	senders    []sender         // the parts' own CAN devices (addSender)
	nextFast   time.Duration

	base *base // nil without a drivetrain
	// accelOpen: the built-in accelerometer is open (part_built_in_accel.go).
	accelOpen bool

	nextStatus time.Duration
	opts       Options // as built: the Scenario, and the seed each fault and disturbance seeds its own streams from

	ovr overrides // set from outside the robot program (override.go)
}

var _ hal.Backend = (*Sim)(nil)

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
