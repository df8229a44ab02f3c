package control

import (
	"fmt"
	"math"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/urdf"
)

func init() { MustRegister(swerveDriveType) }

// swerveDriveType drives N swerve modules from a twist, as WPILib's
// SwerveDriveKinematics, with SwerveModuleState.optimize and
// desaturateWheelSpeeds, and odometry as SwerveDriveOdometry.
var swerveDriveType = &Type{family: kindRunner, New: newSwerveDrive, Takes: Twist, Topic: "cmd_vel",
	Timeout: 500 * time.Millisecond, TimeoutKey: "cmd_vel_timeout", Config: &config.Type{
		Name:    "frcd_controllers/SwerveDriveController",
		Summary: "Drives a swerve base of N modules from geometry_msgs/Twist on cmd_vel, with odometry.",
		Doc: "frcd's own, as WPILib's SwerveDriveKinematics. Command: geometry_msgs/Twist on /NAME/cmd_vel (linear.x " +
			"and .y m/s, angular.z rad/s, in the base frame, or the field's with field_relative). Each module sits where " +
			"its steering joint's origin is in the URDF (not retyped here); its wheel rolls along the direction its drive " +
			"joint's axis gives. Each cycle every module gets the speed and heading of its point, the speeds are scaled " +
			"down together when one exceeds max_wheel_speed (desaturateWheelSpeeds), and a module more than 90° from its " +
			"heading turns the short way and drives reversed (SwerveModuleState.optimize); with no twist the modules keep " +
			"their headings. Steering: steer_pid to volts on the steering joint's measured angle; wheels: their devices' " +
			"own velocity loops (closed_loop: device) or wheel_pid. Odometry: the least-squares twist of the modules' " +
			"wheel travel along their measured headings, its heading change from the IMU when imu is set, as " +
			"SwerveDriveOdometry; published as the diff drive's is. A twist older than cmd_vel_timeout stops the base " +
			"as the diff drive's does (stop_time).",
		Keys: append([]config.Key{
			{Name: "drive", Kind: config.StringList, Required: true, Ref: config.SpeedRef, Doc: "Each module's drive (wheel) joint."},
			{Name: "steer", Kind: config.StringList, Required: true, Ref: config.SpeedRef, Doc: "Each module's steering joint, in the order of drive."},
			{Name: "field_relative", Kind: config.Bool, Default: false, Doc: "Take the twist's linear velocity in the odometry frame (driver's view) rather than the base's."},
			{Name: "steer_pid.p", Kind: config.Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "V per rad", Doc: "Steering PID: proportional gain."},
			{Name: "steer_pid.i", Kind: config.Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "V per rad·s", Doc: "Steering PID: integral gain."},
			{Name: "steer_pid.d", Kind: config.Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "V per rad/s", Doc: "Steering PID: derivative gain, on the measured rate."},
		}, driveKeys("The modules' top wheel speed: faster module speeds are scaled down together (WPILib's desaturateWheelSpeeds).")...),
		Check: checkClaims("drive", "steer"),
		Example: "{name: swerve, type: frcd_controllers/SwerveDriveController, drive: [fl_drive, fr_drive, rl_drive, rr_drive], " +
			"steer: [fl_steer, fr_steer, rl_steer, rr_steer], steer_pid: {p: 8, d: 0.1}, wheel_pid: {p: 0.1, f: 0.12}, max_wheel_speed: 4.5}",
		Facts: config.Facts{Controller: &config.ControllerFacts{Measures: config.Position | config.Velocity,
			HardwareInterface: "frcd::frcd_controllers", Hints: []string{"swerve", "swerve_drive"}}},
	}}

// module is one swerve module.
type module struct {
	w        *wheel
	steer    *interfaces.JointState
	out      *interfaces.JointCommand
	pid      PID
	p        [2]float64 // where it turns, base frame, m
	heading0 float64    // the rolling direction of a positive wheel turn at steering 0, rad
	sgn      float64    // +1 when a positive steering turn turns it counter-clockwise seen from above
}

// angle is the module's rolling direction now, rad, base frame.
func (m *module) angle() float64 { return m.heading0 + m.sgn*m.steer.Position }

type swerveDrive struct {
	*base
	mods  []module
	field bool
	speed []float64 // this cycle's module speeds, m/s
	head  []float64 // and headings, rad
	// odometry's normal equations (AᵀA) of the modules' places, and its
	// inverse: constant.
	inv [3][3]float64
}

func newSwerveDrive(cd *config.Device, b *Binder) (runner, error) {
	dn, sn := cd.List("drive"), cd.List("steer")
	if len(dn) < 2 || len(dn) != len(sn) {
		return nil, fmt.Errorf("controller %q: drive and steer name one joint per module, at least 2 modules: %d and %d", b.name, len(dn), len(sn))
	}
	bs, err := newBase(cd, b, dn[0])
	if err != nil {
		return nil, err
	}
	s := &swerveDrive{base: bs, field: cd.Bool("field_relative"), mods: make([]module, len(dn)),
		speed: make([]float64, len(dn)), head: make([]float64, len(dn))}
	u := b.Robot().URDF
	max := cd.Float("max_voltage")
	for i := range dn {
		m := &s.mods[i]
		if m.w, err = newWheel(cd, b, dn[i]); err != nil {
			return nil, err
		}
		if m.steer, err = b.State(sn[i]); err != nil {
			return nil, err
		}
		if m.out, err = b.Claim(sn[i], interfaces.Voltage); err != nil {
			return nil, err
		}
		m.pid = PID{P: cd.Float("steer_pid.p"), I: cd.Float("steer_pid.i"), D: cd.Float("steer_pid.d"), IClamp: max, Max: max}
		var ok bool
		if m.p, ok = jointPlace(u, sn[i]); !ok {
			return nil, fmt.Errorf("controller %q: steer joint %q is not in the URDF", b.name, sn[i])
		}
		axis := jointAxis(u, sn[i])
		m.sgn = math.Copysign(1, axis[2])
		if math.Abs(axis[2]) < 0.99*math.Sqrt(axis[0]*axis[0]+axis[1]*axis[1]+axis[2]*axis[2]) {
			return nil, fmt.Errorf("controller %q: steer joint %q does not turn about the vertical axis", b.name, sn[i])
		}
		wa := jointAxis(u, dn[i]) // a positive turn about the axis rolls the wheel along axis × z
		if math.Hypot(wa[1], wa[0]) < 1e-6 {
			return nil, fmt.Errorf("controller %q: drive joint %q turns about a vertical axis", b.name, dn[i])
		}
		m.heading0 = math.Atan2(-wa[0], wa[1])
	}
	var ok bool
	if s.inv, ok = moduleInverse(s.mods); !ok {
		return nil, fmt.Errorf("controller %q: the modules' places do not fix a rotation (all at one point?)", b.name)
	}
	return s, nil
}

func (s *swerveDrive) fields() int { return 3 }

func (s *swerveDrive) observe(_ time.Duration, dt float64) {
	var bx, by, bw float64 // Aᵀb
	ok := true
	for i := range s.mods {
		m := &s.mods[i]
		d, has := m.w.delta()
		if !has || m.steer.Has&interfaces.HasPosition == 0 {
			ok = false
			continue
		}
		sa, ca := math.Sincos(m.angle())
		mx, my := d*s.radius*ca, d*s.radius*sa
		bx += mx
		by += my
		bw += -m.p[1]*mx + m.p[0]*my
	}
	gyro, hasGyro := s.heading()
	s.sample.OK = ok
	if !ok {
		return
	}
	t := s.inv
	dx := t[0][0]*bx + t[0][1]*by + t[0][2]*bw
	dy := t[1][0]*bx + t[1][1]*by + t[1][2]*bw
	dth := t[2][0]*bx + t[2][1]*by + t[2][2]*bw
	if hasGyro {
		dth = gyro
	}
	s.integrate(dx, dy, dth, dt)
}

func (s *swerveDrive) run(cmd []float64, now time.Duration, dt float64) bool {
	vx, vy, wz := cmd[0], cmd[1], cmd[2]
	if s.field { // the field's frame to the base's
		sy, cy := math.Sincos(-s.fieldYaw())
		vx, vy = cy*vx-sy*vy, sy*vx+cy*vy
	}
	vx, vy, wz = s.limit(vx, vy, wz, dt)
	top := 0.0
	for i := range s.mods {
		m := &s.mods[i]
		mx, my := vx-wz*m.p[1], vy+wz*m.p[0]
		s.speed[i], s.head[i] = math.Hypot(mx, my), math.Atan2(my, mx)
		top = max(top, s.speed[i])
	}
	if s.maxWheel > 0 && top > s.maxWheel { // desaturateWheelSpeeds
		for i := range s.speed {
			s.speed[i] *= s.maxWheel / top
		}
	}
	ok := true
	for i := range s.mods {
		m := &s.mods[i]
		if m.steer.Has&interfaces.HasPosition == 0 {
			ok = false
			continue
		}
		now0 := m.angle()
		want, speed := s.head[i], s.speed[i]
		if speed == 0 {
			want = now0 // no twist: keep the heading
		}
		delta := wrapAngle(want - now0)
		if math.Abs(delta) > math.Pi/2 { // optimize: the short way, the wheel reversed
			delta, speed = wrapAngle(delta+math.Pi), -speed
		}
		var rate float64
		if m.steer.Has&interfaces.HasVelocity != 0 {
			rate = m.sgn * m.steer.Velocity
		}
		m.out.Put(m.sgn*m.pid.Update(0, delta, rate, dt), now)
		ok = m.w.drive(speed/s.radius, now, dt) && ok
	}
	return ok
}

func (s *swerveDrive) halt() {
	for i := range s.mods {
		s.mods[i].w.halt()
		s.mods[i].out.Reset()
		s.mods[i].pid.Reset()
	}
	s.last = [3]float64{}
}

// moduleInverse is (AᵀA)⁻¹ of the modules' odometry equations (module
// travel x = dx − dθ·y, y = dy + dθ·x): the least squares of
// SwerveDriveKinematics' pseudo-inverse. false when the places fix no
// rotation.
func moduleInverse(mods []module) ([3][3]float64, bool) {
	var ata [3][3]float64
	for _, m := range mods {
		x, y := m.p[0], m.p[1]
		ata[0][0]++
		ata[1][1]++
		ata[0][2] -= y
		ata[2][0] -= y
		ata[1][2] += x
		ata[2][1] += x
		ata[2][2] += x*x + y*y
	}
	return invert3(ata)
}

// jointAxis is a joint's axis in the URDF's root link frame, at every
// joint's zero.
func jointAxis(u *urdf.Robot, name string) urdf.Vec3 {
	j := u.Joint(name)
	if j == nil {
		return urdf.Vec3{}
	}
	v := rotate(j.Origin.RPY, j.Axis)
	for hops := 0; hops < 64; hops++ {
		p := parentJoint(u, j.Parent)
		if p == nil {
			break
		}
		v, j = rotate(p.Origin.RPY, v), p
	}
	return v
}

// invert3 inverts a 3×3 matrix; false when it is singular.
func invert3(m [3][3]float64) ([3][3]float64, bool) {
	c := func(r0, r1, c0, c1 int) float64 { return m[r0][c0]*m[r1][c1] - m[r0][c1]*m[r1][c0] }
	det := m[0][0]*c(1, 2, 1, 2) - m[0][1]*c(1, 2, 0, 2) + m[0][2]*c(1, 2, 0, 1)
	if math.Abs(det) < 1e-12 {
		return [3][3]float64{}, false
	}
	inv := [3][3]float64{
		{c(1, 2, 1, 2), -c(0, 2, 1, 2), c(0, 1, 1, 2)},
		{-c(1, 2, 0, 2), c(0, 2, 0, 2), -c(0, 1, 0, 2)},
		{c(1, 2, 0, 1), -c(0, 2, 0, 1), c(0, 1, 0, 1)},
	}
	for i := range inv {
		for j := range inv[i] {
			inv[i][j] /= det
		}
	}
	return inv, true
}
