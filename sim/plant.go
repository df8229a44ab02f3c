package sim

import (
	"math"
	"time"

	"github.com/frcd/frcd/frc"

	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

// jointKind is what drives a joint's plant.
type jointKind int

const (
	kindPassive  jointKind = iota // nothing drives it: inertia, damping, friction, load
	kindPWMMotor                  // a PWM speed controller
	kindNidec                     // a Nidec Brushless: PWM enable line + DIO duty cycle
	kindCANMotor                  // a CTRE Talon SRX or Victor SPX on CAN
	kindSolenoid                  // single-acting piston on one PCM channel
	kindDouble                    // double-acting piston on two PCM channels
	kindRelay                     // a motor on a Spike relay's contacts
	kindDOut                      // a digital output
	kindAOut                      // an analog output
	kindServo                     // a hobby servo on PWM
)

// canController is an emulated CAN motor controller driving a joint: a
// CTRE one behind hal.CANMotor (canMotor) or a REV SPARK on its frames
// (spark).
type canController interface {
	// effective is the duty (-1 to 1, the controller's direction) it
	// applies at now; 0 is neutral.
	effective(enabled bool, now time.Duration) float64
	// canID is its CAN id.
	canID() int
	// limits is its neutral mode and current limits (driveLimits).
	limits() *driveLimits
}

// joint is one movable URDF joint's plant and what it is wired to.
type joint struct {
	name string
	rj   *robot.Joint
	kind jointKind

	bounded      bool // revolute or prismatic with <limit>: held between lower and upper
	lower, upper float64

	pos, vel float64 // rad and rad/s, or m and m/s

	// The DC motor + gearbox + inertia plant (passive joints use it with
	// no motor).
	motor    motorModel
	motors   float64 // motors in the gearbox
	gear     float64 // motor rad per joint unit
	inertia  float64 // kg·m² or kg
	damping  float64 // N·m·s/rad or N·s/m
	friction float64 // N·m or N
	load     float64 // N·m or N, toward negative

	// Disturbances over the present substep: a force (N·m or N) added to
	// the plant's, and a velocity (rad/s or m/s) that carries the joint;
	// carried is how fast it actually did (0 against a stop).
	ext, dv, carried float64

	sign float64 // -1 when the motor is wired reversed (YAML inverted)
	pwm  int     // PWM channel (speed controllers, nidec enable line, servo)
	dio  int     // nidec duty-cycle DIO, digital_output channel
	cal  frc.PWMCalibration
	can  canController // a CAN motor controller (kindCANMotor)
	// jumper: a PWM controller's brake/coast jumper (or B/C CAL button)
	// is on brake (JointParams.Brake).
	jumper bool

	duty    float64 // the controller's output, -1 to 1, plant direction; 0 coasts
	volts   float64 // applied to each motor, plant direction
	current float64 // per motor, A, signed in the plant direction

	pdp   *pdp // the PDP or PDH (one of them) whose channel pdpCh powers it
	pdh   *pdh
	pdpCh int

	// Positional actuators.
	travel time.Duration // time for the whole range
	rate   float64       // units per second
	pcm    *pcm
	ch     int // module channel (forward for a double solenoid), relay channel, AO channel
	rev    int // module reverse channel
	inv    bool
	scale  float64 // analog output: joint units at 5 V, less the offset
	offset float64
	state  int8 // last air-driven direction of a piston: -1 lower, 1 upper, 0 none

	minAngle, maxAngle float64
	minPulse, maxPulse time.Duration
	target             float64
	hasTarget          bool

	mimic      *joint
	mult, moff float64
}

// servoRate is how fast a hobby servo turns, rad/s.
const servoRate = 6.0

// stepMotor integrates the motor plant over dt seconds with volts applied
// to each motor, or with the motors disconnected (coasting) when coast.
// The back-EMF and damping terms are implicit, so that the step is stable
// for any gearing and inertia.
func (j *joint) stepMotor(volts float64, coast bool, dt float64) {
	m := &j.motor
	// drive: N·m (or N) per applied volt; c: viscous coefficient.
	c := j.viscous(coast)
	var drive float64
	if !coast && j.motors > 0 {
		drive = j.motors * j.gear * m.kt / m.r
	} else {
		volts = 0
	}
	p := j.inertia*j.vel + dt*(drive*volts-j.load+j.ext)
	if f := dt * j.friction; f > 0 {
		switch {
		case math.Abs(p) <= f:
			p = 0
		case p > 0:
			p -= f
		default:
			p += f
		}
	}
	j.vel = p / (j.inertia + dt*c)
	j.pos += j.vel * dt
	j.stops()
	j.volts = volts
	j.current = 0
	if !coast && j.motors > 0 {
		j.current = (volts - j.gear*j.vel/m.kv) / m.r
	}
}

// viscous is the plant's viscous coefficient, N·m·s/rad or N·s/m: the
// joint's damping, its motors' drag and, while a controller drives them
// (not coast), their back-EMF through the winding resistance.
func (j *joint) viscous(coast bool) float64 {
	m := &j.motor
	c := j.damping + j.motors*j.gear*j.gear*m.loss
	if !coast && j.motors > 0 {
		c += j.motors * j.gear * m.kt / m.r * j.gear / m.kv
	}
	return c
}

// backEMF is each motor's back-EMF at the present velocity, V.
func (j *joint) backEMF() float64 { return j.gear * j.vel / j.motor.kv }

// moveToward moves a positional actuator toward target at rate units per
// second; vel is that rate while it moves, 0 once there.
func (j *joint) moveToward(target, dt float64) {
	step := j.rate * dt
	d := target - j.pos
	switch {
	case d > step:
		j.pos += step
		j.vel = j.rate
	case d < -step:
		j.pos -= step
		j.vel = -j.rate
	default:
		j.pos = target
		j.vel = 0
	}
	j.volts, j.current = 0, 0
	j.stops()
}

// hold stops a positional actuator where it is.
func (j *joint) hold() {
	j.vel, j.volts, j.current = 0, 0, 0
	j.stops()
}

// stops holds a bounded joint within its limits: the position is clamped
// and velocity into the stop is zeroed.
func (j *joint) stops() {
	if !j.bounded {
		return
	}
	if j.pos <= j.lower {
		j.pos = j.lower
		if j.vel < 0 {
			j.vel = 0
		}
	}
	if j.pos >= j.upper {
		j.pos = j.upper
		if j.vel > 0 {
			j.vel = 0
		}
	}
}

// span is the joint's range for positional actuators: upper - lower, or 1
// for an unbounded joint.
func (j *joint) span() float64 {
	if j.bounded && j.upper > j.lower {
		return j.upper - j.lower
	}
	return 1
}

// mat3 is a 3×3 rotation or inertia matrix.
type mat3 [3][3]float64

var ident = mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

func (a mat3) mul(b mat3) mat3 {
	var c mat3
	for i := 0; i < 3; i++ {
		for k := 0; k < 3; k++ {
			for n := 0; n < 3; n++ {
				c[i][k] += a[i][n] * b[n][k]
			}
		}
	}
	return c
}

func (a mat3) t() mat3 {
	var c mat3
	for i := 0; i < 3; i++ {
		for k := 0; k < 3; k++ {
			c[i][k] = a[k][i]
		}
	}
	return c
}

func (a mat3) apply(v urdf.Vec3) urdf.Vec3 {
	var out urdf.Vec3
	for i := 0; i < 3; i++ {
		out[i] = a[i][0]*v[0] + a[i][1]*v[1] + a[i][2]*v[2]
	}
	return out
}

// rpy is URDF's fixed-axis roll, pitch, yaw rotation: Rz(yaw)·Ry(pitch)·Rx(roll).
func rpy(v urdf.Vec3) mat3 {
	sr, cr := math.Sincos(v[0])
	sp, cp := math.Sincos(v[1])
	sy, cy := math.Sincos(v[2])
	return mat3{
		{cy * cp, cy*sp*sr - sy*cr, cy*sp*cr + sy*sr},
		{sy * cp, sy*sp*sr + cy*cr, sy*sp*cr - cy*sr},
		{-sp, cp * sr, cp * cr},
	}
}

func dot(a, b urdf.Vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// body is a link and everything below it (joints at zero), in the link's
// frame: its mass (kg), first moment Σ m·r (kg·m) and inertia tensor about
// the link's origin (kg·m²).
type body struct {
	mass  float64
	first urdf.Vec3
	iner  mat3
}

// bodies computes each link's body once, children before parents, so that
// every joint's inertia costs time linear in the robot's size, not the size
// of its subtree (a chain of n joints would cost n²).
type bodies struct {
	u    *urdf.Robot
	memo map[*urdf.Link]*body
}

func newBodies(u *urdf.Robot) *bodies { return &bodies{u: u, memo: map[*urdf.Link]*body{}} }

// of returns a link's body. A link reached again while its own body is
// being summed (a cycle, which the URDF checks refuse) counts once.
func (bs *bodies) of(l *urdf.Link) *body {
	if l == nil {
		return &body{}
	}
	if b, ok := bs.memo[l]; ok {
		if b == nil {
			return &body{} // in progress: a cycle
		}
		return b
	}
	bs.memo[l] = nil
	b := &body{}
	if in := l.Inertial; in != nil && in.Mass > 0 {
		r := rpy(in.Origin.RPY)
		t := mat3{{in.Ixx, in.Ixy, in.Ixz}, {in.Ixy, in.Iyy, in.Iyz}, {in.Ixz, in.Iyz, in.Izz}}
		b.add(&body{mass: in.Mass, iner: r.mul(t).mul(r.t())}, ident, in.Origin.XYZ)
	}
	for _, c := range l.Children {
		if c == nil {
			continue
		}
		b.add(bs.of(bs.u.Link(c.Child)), rpy(c.Origin.RPY), c.Origin.XYZ)
	}
	bs.memo[l] = b
	return b
}

// add adds body c, whose frame is rotated by rot and moved by p in b's
// frame: the parallel-axis theorem, with c's first moment h = rot·Σm·r:
// I += rot·I_c·rotᵀ + (2 p·h + m|p|²)E - p hᵀ - h pᵀ - m p pᵀ.
func (b *body) add(c *body, rot mat3, p urdf.Vec3) {
	if c.mass == 0 && c.iner == (mat3{}) {
		return
	}
	h := rot.apply(c.first)
	ic := rot.mul(c.iner).mul(rot.t())
	diag := 2*dot(p, h) + c.mass*dot(p, p)
	for i := 0; i < 3; i++ {
		for k := 0; k < 3; k++ {
			v := ic[i][k] - p[i]*h[k] - h[i]*p[k] - c.mass*p[i]*p[k]
			if i == k {
				v += diag
			}
			b.iner[i][k] += v
		}
	}
	b.mass += c.mass
	b.first = add(b.first, add(h, urdf.Vec3{c.mass * p[0], c.mass * p[1], c.mass * p[2]}))
}

// subtree returns the mass of everything a joint moves (its child link and
// all links below it, with the joints below at zero) and their moment of
// inertia about the joint's axis, kg·m². The joint's frame is its child
// link's frame.
func (bs *bodies) subtree(uj *urdf.Joint) (mass, inertia float64) {
	return bs.about(bs.u.Link(uj.Child), uj.Axis)
}

// about returns the mass of a link and all links below it (joints at zero)
// and their moment of inertia about the axis through the link's origin,
// kg·m².
func (bs *bodies) about(top *urdf.Link, axis urdf.Vec3) (mass, inertia float64) {
	if n := math.Sqrt(dot(axis, axis)); n > 0 {
		axis = urdf.Vec3{axis[0] / n, axis[1] / n, axis[2] / n}
	} else {
		axis = urdf.Vec3{1, 0, 0}
	}
	b := bs.of(top)
	return b.mass, dot(axis, b.iner.apply(axis))
}

// linkPose is a link's frame in the root link's frame, the joints on the
// way at zero; fixed says whether every joint on the way is fixed (the
// link moves with the root). A link no chain joins to the root is at the
// origin, not fixed.
func linkPose(u *urdf.Robot, l *urdf.Link) (rot mat3, at urdf.Vec3, fixed bool) {
	rot, fixed = ident, true
	for i := 0; l != nil && l.Parent != nil && i < len(u.Links); i++ {
		j := l.Parent
		r := rpy(j.Origin.RPY)
		rot = r.mul(rot)
		at = add(j.Origin.XYZ, r.apply(at))
		fixed = fixed && j.Type == urdf.Fixed
		l = u.Link(j.Parent)
	}
	if l != u.Root {
		return ident, urdf.Vec3{}, false
	}
	return rot, at, fixed
}

func add(a, b urdf.Vec3) urdf.Vec3 { return urdf.Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
