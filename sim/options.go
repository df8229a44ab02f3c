package sim

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/robot"
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
	// SparkFirmware is the firmware the emulated SPARKs report; its zero
	// value gives SparkRelease(26, model): REV's current releases.
	SparkFirmware frc.SparkFirmware
}

// SparkRelease is the REV release of that major firmware version the
// emulated SPARK of that model (frc.SparkModel*) reports: 25.0.4, or
// 26.1.5 on a SPARK MAX and 26.1.6 on a SPARK Flex (REV's current
// releases for the 2026 season); another major is major.0.0.
func SparkRelease(major uint8, model uint8) frc.SparkFirmware {
	switch {
	case major == 25:
		return frc.SparkFirmware{Major: 25, Fix: 4, HWRev: 2}
	case major == 26 && model == frc.SparkModelFlex:
		return frc.SparkFirmware{Major: 26, Minor: 1, Fix: 6, HWRev: 1}
	case major == 26:
		return frc.SparkFirmware{Major: 26, Minor: 1, Fix: 5, HWRev: 2}
	}
	return frc.SparkFirmware{Major: major}
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
	// Brake: a PWM motor controller's brake/coast jumper (or B/C CAL
	// button) is on brake, as the team set it on the robot: frcd cannot
	// set it over PWM. Default coast.
	Brake bool
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
		if settableInLink(d.Type) {
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
			Friction: sj.Float("friction"), Load: sj.Float("load"), Travel: time.Duration(sj.Float("travel") * float64(time.Second)),
			Brake: sj.Str("jumper") == "brake"}
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
	if c.Sim.Has("spark_firmware") {
		if m, err := strconv.Atoi(c.Sim.Str("spark_firmware")); err == nil && m > 0 && m < 256 {
			o.SparkFirmware = frc.SparkFirmware{Major: uint8(m)} // the release of that major, per model (sparkJoint)
		}
	}
	for _, e := range c.SimCANFaults {
		o.CANFaults = append(o.CANFaults, CANFault{Device: e.Name, From: e.Float("from"), Until: e.Float("until")})
	}
	return o
}
