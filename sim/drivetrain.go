package sim

import (
	"errors"
	"fmt"
	"math"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/urdf"
)

// Drivetrain makes wheel joints drive the robot's base around the field
// (Options.Drivetrain). Zero numbers take the defaults of the package doc.
type Drivetrain struct {
	// Type is "tank" (differential), "mecanum" or "swerve".
	Type string `json:"type"`
	// Tank: each side's wheel joints.
	Left  []string `json:"left,omitempty"`
	Right []string `json:"right,omitempty"`
	// Mecanum: one wheel joint each.
	FrontLeft  string `json:"front_left,omitempty"`
	FrontRight string `json:"front_right,omitempty"`
	RearLeft   string `json:"rear_left,omitempty"`
	RearRight  string `json:"rear_right,omitempty"`
	// Swerve: the four modules' drive and steering joints, in one order.
	Drive []string `json:"drive,omitempty"`
	Steer []string `json:"steer,omitempty"`
	// WheelRadius is the wheels' radius, m.
	WheelRadius float64 `json:"wheel_radius,omitempty"`
	// Mass is the robot's mass, kg; YawInertia its moment of inertia about
	// the vertical axis, kg·m².
	Mass       float64 `json:"mass,omitempty"`
	YawInertia float64 `json:"yaw_inertia,omitempty"`
	// Friction is the tire-floor friction coefficient.
	Friction float64 `json:"friction,omitempty"`
}

// Drivetrain defaults and constants.
const (
	defaultWheelRadius = 0.0762 // m, a 6 in wheel
	defaultRobotMass   = 50.0   // kg
	defaultFriction    = 1.0
	gravity            = 9.80665 // m/s²
	// tireSlip is the slip speed at which a wheel's traction reaches its
	// limit (friction × normal force): the tire's stiffness is that limit
	// over tireSlip.
	tireSlip = 0.01 // m/s
	// solverIterations is how many passes the traction solver makes over
	// the contacts each substep.
	solverIterations = 12
)

// DrivetrainFromConfig turns a `sim: drivetrain:` section into a
// Drivetrain; nil gives nil.
func DrivetrainFromConfig(d *config.Device) *Drivetrain {
	if d == nil {
		return nil
	}
	return &Drivetrain{
		Type: d.Str("type"), Left: d.List("left"), Right: d.List("right"),
		FrontLeft: d.Str("front_left"), FrontRight: d.Str("front_right"), RearLeft: d.Str("rear_left"), RearRight: d.Str("rear_right"),
		Drive: d.List("drive"), Steer: d.List("steer"),
		WheelRadius: d.Float("wheel_radius"), Mass: d.Float("mass"), YawInertia: d.Float("yaw_inertia"), Friction: d.Float("friction"),
	}
}

// wheel is one wheel's contact with the floor.
type wheel struct {
	j     *joint
	steer *joint     // swerve: the module's steering joint
	sgn   float64    // swerve: +1 when steering turns the module counter-clockwise seen from above
	p     [2]float64 // contact point in the base frame (x forward, y left), m
	d0    [2]float64 // rolling direction of a positive wheel turn at steering 0, base frame
	r     float64    // radius, m
	diag  float64    // mecanum: +1 or -1, the diagonal its rollers lie on; 0 for a plain wheel
	limit float64    // traction limit: friction × normal force, N
	k     float64    // tire stiffness, N per m/s of slip

	// Solver state of one substep.
	e, n      [2]float64 // gripping direction, and its lateral (plain wheels grip it too)
	ratio     float64    // surface speed along e per unit of joint velocity
	lateral   bool       // grips along n too (swerve modules)
	pe, pn    float64    // impulses along e and n this substep, N·s
	invI      float64    // 1 / the joint's implicit inertia
	surface   float64    // wheel surface speed along e, m/s
	ground    float64    // ground speed of the contact along e, m/s
	velBefore float64    // the joint's velocity before the traction
}

// base is the drive base: its field pose (truth) and the wheels moving it.
type base struct {
	kind     string
	wheels   []*wheel
	mass, iz float64
	mu       float64

	// Tank: the sideways grip, at the middle of the wheels, across the
	// rolling direction (the wheels do not scrub when turning, as a
	// drop-center drive).
	tank    bool
	center  [2]float64
	across  [2]float64
	latK    float64
	latLim  float64
	latP    float64
	latSlip float64

	// Field pose and velocity: x, y in m, yaw in rad (counter-clockwise
	// from the field's x axis), vx, vy in m/s in the field frame, wz in
	// rad/s; ax, ay, alpha the last substep's accelerations.
	x, y, yaw, vx, vy, wz float64
	ax, ay, alpha         float64

	// External disturbances on the base, field frame: a force, N, and a
	// velocity, m/s, added to the motion (a moving floor's). Zero unless
	// set through Sim.SetBaseDisturbance.
	force, vel [2]float64
}

// newBase builds the drive base from its options.
func (s *Sim) newBase(o *Drivetrain) (*base, error) {
	u := s.r.URDF
	b := &base{kind: o.Type, mu: o.Friction}
	if b.mu == 0 {
		b.mu = defaultFriction
	}
	wheelJoint := func(name string) (*wheel, error) {
		j := s.byName[name]
		if j == nil {
			return nil, fmt.Errorf("sim: drivetrain: %q is no movable URDF joint", name)
		}
		if j.rj.URDF.Type != urdf.Continuous || !isSpeedController(j.rj.Actuator) {
			return nil, fmt.Errorf("sim: drivetrain: wheel joint %q must be continuous and driven by a speed controller", name)
		}
		rot, at, _ := linkPose(u, u.Link(j.rj.URDF.Child))
		axis := rot.apply(j.rj.URDF.Axis)
		// A positive turn about the axis rolls the wheel along axis × z.
		d := [2]float64{axis[1], -axis[0]}
		n := math.Hypot(d[0], d[1])
		if n < 1e-6 {
			return nil, fmt.Errorf("sim: drivetrain: wheel joint %q turns about a vertical axis", name)
		}
		w := &wheel{j: j, p: [2]float64{at[0], at[1]}, d0: [2]float64{d[0] / n, d[1] / n}, r: o.WheelRadius}
		if w.r == 0 {
			w.r = cylinderRadius(u.Link(j.rj.URDF.Child))
		}
		return w, nil
	}
	seen := map[string]bool{}
	add := func(names ...string) error {
		for _, name := range names {
			if seen[name] {
				return fmt.Errorf("sim: drivetrain: joint %q is named twice", name)
			}
			seen[name] = true
			w, err := wheelJoint(name)
			if err != nil {
				return err
			}
			b.wheels = append(b.wheels, w)
		}
		return nil
	}
	var err error
	switch o.Type {
	case config.DrivetrainTank:
		if len(o.Left) == 0 || len(o.Right) == 0 {
			return nil, errors.New("sim: drivetrain: tank needs left and right wheel joints")
		}
		b.tank = true
		err = add(append(append([]string(nil), o.Left...), o.Right...)...)
	case config.DrivetrainMecanum:
		err = add(o.FrontLeft, o.FrontRight, o.RearLeft, o.RearRight)
		for i, w := range b.wheels {
			// Front left and rear right rollers lie along one diagonal,
			// front right and rear left along the other.
			w.diag = []float64{-1, 1, 1, -1}[i]
		}
	case config.DrivetrainSwerve:
		if len(o.Drive) != 4 || len(o.Steer) != 4 {
			return nil, fmt.Errorf("sim: drivetrain: swerve needs 4 drive and 4 steer joints, not %d and %d", len(o.Drive), len(o.Steer))
		}
		if err = add(o.Drive...); err != nil {
			return nil, err
		}
		for i, name := range o.Steer {
			j := s.byName[name]
			if j == nil || seen[name] {
				return nil, fmt.Errorf("sim: drivetrain: steer joint %q is no movable URDF joint or is named twice", name)
			}
			seen[name] = true
			rot, at, _ := linkPose(u, u.Link(j.rj.URDF.Child))
			axis := rot.apply(j.rj.URDF.Axis)
			if math.Abs(axis[2]) < 0.99*math.Sqrt(dot(axis, axis)) {
				return nil, fmt.Errorf("sim: drivetrain: steer joint %q does not turn about the vertical axis", name)
			}
			w := b.wheels[i]
			w.steer, w.sgn, w.lateral = j, math.Copysign(1, axis[2]), true
			w.p = [2]float64{at[0], at[1]} // the module turns about its steering axis
		}
	default:
		return nil, fmt.Errorf("sim: drivetrain: type %q is not tank, mecanum or swerve", o.Type)
	}
	if err != nil {
		return nil, err
	}
	mass, iz := newBodies(u).about(u.Root, urdf.Vec3{0, 0, 1})
	b.mass, b.iz = o.Mass, o.YawInertia
	if b.mass == 0 {
		b.mass = mass
	}
	if b.mass == 0 {
		b.mass = defaultRobotMass
	}
	if b.iz == 0 && iz > 0 {
		b.iz = iz * b.mass / mass // the URDF's, for the mass given
	}
	if b.iz == 0 {
		var y2 float64 // mass × (track / 2)²
		for _, w := range b.wheels {
			y2 += w.p[1] * w.p[1] / float64(len(b.wheels))
		}
		b.iz = b.mass * max(y2, fallbackRadius2)
	}
	for _, w := range b.wheels {
		w.limit = b.mu * b.mass * gravity / float64(len(b.wheels))
		w.k = w.limit / tireSlip
		b.center[0] += w.p[0] / float64(len(b.wheels))
		b.center[1] += w.p[1] / float64(len(b.wheels))
	}
	if b.tank {
		d := b.wheels[0].d0
		b.across = [2]float64{-d[1], d[0]}
		b.latLim = b.mu * b.mass * gravity
		b.latK = b.latLim / tireSlip
	}
	return b, nil
}

// cylinderRadius is the radius of a wheel link's cylinder (collision
// first, then visual), else the default.
func cylinderRadius(l *urdf.Link) float64 {
	if l != nil {
		for _, g := range append(append([]urdf.Geometry(nil), l.Collisions...), l.Visuals...) {
			if g.Kind == "cylinder" && g.Radius > 0 {
				return g.Radius
			}
		}
	}
	return defaultWheelRadius
}

func checkDrivetrain(o *Drivetrain) error {
	if o == nil {
		return nil
	}
	bad := func(x float64) bool { return x < 0 || math.IsNaN(x) || math.IsInf(x, 0) }
	if bad(o.WheelRadius) || bad(o.Mass) || bad(o.YawInertia) || bad(o.Friction) {
		return fmt.Errorf("sim: drivetrain: wheel_radius %v, mass %v, yaw_inertia %v, friction %v: values must be positive", o.WheelRadius, o.Mass, o.YawInertia, o.Friction)
	}
	return nil
}

func cross(a, b [2]float64) float64 { return a[0]*b[1] - a[1]*b[0] }

// step moves the base and its wheels over h seconds, after the wheel
// joints' plants have taken their own step (their motors, without the
// floor). The traction of each wheel is a stiff linear function of its
// slip, limited to friction × its normal force, solved implicitly with the
// base's and the wheels' velocities (projected Gauss-Seidel over the
// contacts), so that the step is stable for any stiffness; the solved
// traction pushes the base and reacts on the wheel joints.
func (b *base) step(h float64) {
	// The base's velocity in its own frame, after the external force.
	vx0, vy0, wz0 := b.vx, b.vy, b.wz
	fx, fy := b.force[0]/b.mass*h, b.force[1]/b.mass*h
	sy, cy := math.Sincos(b.yaw)
	u := [2]float64{cy*(b.vx+fx) + sy*(b.vy+fy), -sy*(b.vx+fx) + cy*(b.vy+fy)}
	w := b.wz
	for _, wh := range b.wheels {
		d := wh.d0
		if wh.steer != nil {
			ss, cs := math.Sincos(wh.sgn * wh.steer.pos)
			d = [2]float64{cs*d[0] - ss*d[1], ss*d[0] + cs*d[1]}
		}
		n := [2]float64{-d[1], d[0]}
		wh.e, wh.n, wh.ratio = d, n, wh.r
		if wh.diag != 0 {
			// The rollers let the wheel slide along one diagonal; it grips
			// across them, and its rolling speed counts along that
			// direction by cos 45°.
			wh.e = [2]float64{(d[0] + wh.diag*n[0]) / math.Sqrt2, (d[1] + wh.diag*n[1]) / math.Sqrt2}
			wh.ratio = wh.r / math.Sqrt2
		}
		j := wh.j
		wh.invI = 1 / (j.inertia + h*j.viscous(j.duty == 0))
		wh.velBefore = j.vel
		wh.pe, wh.pn = 0, 0
	}
	b.latP = 0
	// contact applies an impulse P along dir at point p: to the base, and
	// (-P × ratio) to a wheel joint.
	apply := func(p, dir [2]float64, P float64) {
		u[0] += P * dir[0] / b.mass
		u[1] += P * dir[1] / b.mass
		w += P * cross(p, dir) / b.iz
	}
	ground := func(p, dir [2]float64) float64 {
		return u[0]*dir[0] + u[1]*dir[1] + w*cross(p, dir)
	}
	baseW := func(p, dir [2]float64) float64 {
		c := cross(p, dir)
		return 1/b.mass + c*c/b.iz
	}
	for it := 0; it < solverIterations; it++ {
		for _, wh := range b.wheels {
			gamma := 1 / (h * wh.k)
			lim := h * wh.limit
			// Along e: the wheel's surface speed against the ground's.
			slip := wh.ratio*wh.j.vel - ground(wh.p, wh.e)
			W := wh.ratio*wh.ratio*wh.invI + baseW(wh.p, wh.e)
			pe := wh.pe + (slip-gamma*wh.pe)/(W+gamma)
			pn := wh.pn
			if wh.lateral {
				pn += (-ground(wh.p, wh.n) - gamma*wh.pn) / (baseW(wh.p, wh.n) + gamma)
			}
			if m := math.Hypot(pe, pn); m > lim {
				pe, pn = pe*lim/m, pn*lim/m
			}
			dpe, dpn := pe-wh.pe, pn-wh.pn
			wh.pe, wh.pn = pe, pn
			apply(wh.p, wh.e, dpe)
			wh.j.vel -= dpe * wh.ratio * wh.invI
			if wh.lateral {
				apply(wh.p, wh.n, dpn)
			}
		}
		if b.tank {
			gamma := 1 / (h * b.latK)
			lim := h * b.latLim
			P := b.latP + (-ground(b.center, b.across)-gamma*b.latP)/(baseW(b.center, b.across)+gamma)
			P = max(-lim, min(lim, P))
			apply(b.center, b.across, P-b.latP)
			b.latP = P
		}
	}
	for _, wh := range b.wheels {
		j := wh.j
		j.pos += (j.vel - wh.velBefore) * h
		if j.duty != 0 && j.motors > 0 {
			j.current = (j.volts - j.backEMF()) / j.motor.r
		}
		wh.surface = wh.ratio * j.vel
		wh.ground = ground(wh.p, wh.e)
	}
	b.latSlip = ground(b.center, b.across)
	b.vx = cy*u[0] - sy*u[1]
	b.vy = sy*u[0] + cy*u[1]
	b.wz = w
	b.ax, b.ay, b.alpha = (b.vx-vx0)/h, (b.vy-vy0)/h, (b.wz-wz0)/h
	b.x += (b.vx + b.vel[0]) * h
	b.y += (b.vy + b.vel[1]) * h
	b.yaw = math.Remainder(b.yaw+b.wz*h, 2*math.Pi)
}

// imu is the motion an IMU fixed to the base feels: rot and at place its
// frame in the base's.
func (b *base) imu(rot mat3, at urdf.Vec3) IMU {
	sy, cy := math.Sincos(b.yaw)
	// The IMU point's acceleration in the field: the base's, plus the
	// tangential and centripetal terms of its offset.
	px, py := cy*at[0]-sy*at[1], sy*at[0]+cy*at[1]
	ax := b.ax - b.alpha*py - b.wz*b.wz*px
	ay := b.ay + b.alpha*px - b.wz*b.wz*py
	// Into the base frame, then the IMU's.
	inv := rot.t()
	acc := inv.apply(urdf.Vec3{cy*ax + sy*ay, -sy*ax + cy*ay, 0})
	gyro := inv.apply(urdf.Vec3{0, 0, b.wz})
	q := quat(mat3{{cy, -sy, 0}, {sy, cy, 0}, {0, 0, 1}}.mul(rot))
	return IMU{Orientation: q, AngularVelocity: [3]float64(gyro), LinearAcceleration: [3]float64(acc)}
}

// quat is a rotation matrix's unit quaternion w, x, y, z (w ≥ 0).
func quat(m mat3) [4]float64 {
	var q [4]float64
	tr := m[0][0] + m[1][1] + m[2][2]
	switch {
	case tr > 0:
		s := 2 * math.Sqrt(tr+1)
		q = [4]float64{s / 4, (m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s}
	case m[0][0] > m[1][1] && m[0][0] > m[2][2]:
		s := 2 * math.Sqrt(1+m[0][0]-m[1][1]-m[2][2])
		q = [4]float64{(m[2][1] - m[1][2]) / s, s / 4, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s}
	case m[1][1] > m[2][2]:
		s := 2 * math.Sqrt(1+m[1][1]-m[0][0]-m[2][2])
		q = [4]float64{(m[0][2] - m[2][0]) / s, (m[0][1] + m[1][0]) / s, s / 4, (m[1][2] + m[2][1]) / s}
	default:
		s := 2 * math.Sqrt(1+m[2][2]-m[0][0]-m[1][1])
		q = [4]float64{(m[1][0] - m[0][1]) / s, (m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, s / 4}
	}
	if q[0] < 0 {
		for i := range q {
			q[i] = -q[i]
		}
	}
	return q
}
