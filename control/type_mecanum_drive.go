package control

import (
	"fmt"
	"math"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/urdf"
)

func init() { MustRegister(mecanumDriveType) }

// mecanumDriveType drives four mecanum wheels from a twist, as WPILib's
// MecanumDriveKinematics, with odometry as MecanumDriveOdometry.
var mecanumDriveType = &Type{family: kindRunner, New: newMecanumDrive, Takes: Twist, Topic: "cmd_vel",
	Timeout: 500 * time.Millisecond, TimeoutKey: "cmd_vel_timeout", Config: &config.Type{
		Name:    "frcd_controllers/MecanumDriveController",
		Summary: "Drives a mecanum base from geometry_msgs/Twist on cmd_vel, with odometry.",
		Doc: "frcd's own, as WPILib's MecanumDriveKinematics. Command: geometry_msgs/Twist on /NAME/cmd_vel (linear.x " +
			"and .y m/s, angular.z rad/s; the base's frame, or the field's with field_relative). Each wheel sits where its " +
			"joint's origin is in the URDF; its surface speed is WPILib's inverse kinematics row (front left vx − vy − " +
			"(x+y)ω, front right vx + vy + (x−y)ω, rear left vx + vy + (x−y)ω, rear right vx − vy − (x+y)ω), scaled down " +
			"together past max_wheel_speed (MecanumDriveWheelSpeeds.desaturate). Odometry: the least-squares twist of the " +
			"wheels' travel (the pseudo-inverse), its heading change from the IMU when imu is set; published as the diff " +
			"drive's is. A twist older than cmd_vel_timeout stops the base as the diff drive's does (stop_time).",
		Keys: append([]config.Key{
			{Name: "front_left", Kind: config.String, Required: true, Ref: config.SpeedRef, Doc: "The front left wheel joint."},
			{Name: "front_right", Kind: config.String, Required: true, Ref: config.SpeedRef, Doc: "The front right wheel joint."},
			{Name: "rear_left", Kind: config.String, Required: true, Ref: config.SpeedRef, Doc: "The rear left wheel joint."},
			{Name: "rear_right", Kind: config.String, Required: true, Ref: config.SpeedRef, Doc: "The rear right wheel joint."},
			{Name: "field_relative", Kind: config.Bool, Default: false, Doc: "Take the twist's linear velocity in the odometry frame (driver's view) rather than the base's."},
		}, driveKeys("The wheels' top surface speed: faster wheel speeds are scaled down together (desaturate).")...),
		Check: checkRefClaims("front_left", "front_right", "rear_left", "rear_right"),
		Example: "{name: mecanum, type: frcd_controllers/MecanumDriveController, front_left: fl_wheel, front_right: fr_wheel, " +
			"rear_left: rl_wheel, rear_right: rr_wheel, wheel_pid: {p: 0.5, i: 4, f: 0.23}}",
		Facts: config.Facts{Controller: &config.ControllerFacts{Measures: config.Position | config.Velocity,
			ROS2Type: "mecanum_drive_controller/MecanumDriveController", HardwareInterface: "frcd::frcd_controllers", Hints: []string{"mecanum", "mecanum_drive"}}},
	}}

// checkRefClaims claims the joints the string keys name.
func checkRefClaims(keys ...string) func(d *config.Device, c *config.Checker) {
	return func(d *config.Device, c *config.Checker) {
		for _, k := range keys {
			if t := d.Ref(k); t != nil {
				c.ClaimName(d, config.ControllerJoint, t.Name, d.ValuePos(k))
			}
		}
	}
}

type mecanumDrive struct {
	*base
	w     [4]*wheel
	sgn   [4]float64    // +1 when a positive joint turn rolls the wheel forward
	row   [4][3]float64 // inverse kinematics: surface speed = row · (vx, vy, ω)
	inv   [3][3]float64 // (AᵀA)⁻¹, for the pseudo-inverse
	field bool
	speed [4]float64
}

func newMecanumDrive(cd *config.Device, b *Binder) (runner, error) {
	names := [4]string{cd.Str("front_left"), cd.Str("front_right"), cd.Str("rear_left"), cd.Str("rear_right")}
	bs, err := newBase(cd, b, names[0])
	if err != nil {
		return nil, err
	}
	m := &mecanumDrive{base: bs, field: cd.Bool("field_relative")}
	u := b.Robot().URDF
	var p [4][2]float64
	for i, n := range names {
		if m.w[i], err = newWheel(cd, b, n); err != nil {
			return nil, err
		}
		var ok bool
		if p[i], ok = jointPlace(u, n); !ok {
			return nil, fmt.Errorf("controller %q: wheel joint %q is not in the URDF", b.name, n)
		}
		if m.sgn[i] = rollSign(u, n); m.sgn[i] == 0 {
			return nil, fmt.Errorf("controller %q: wheel joint %q does not roll forward or back", b.name, n)
		}
	}
	fl, fr, rl, rr := p[0], p[1], p[2], p[3]
	m.row = [4][3]float64{
		{1, -1, -(fl[0] + fl[1])},
		{1, 1, fr[0] - fr[1]},
		{1, 1, rl[0] - rl[1]},
		{1, -1, -(rr[0] + rr[1])},
	}
	var ata [3][3]float64
	for _, r := range m.row {
		for i := range 3 {
			for j := range 3 {
				ata[i][j] += r[i] * r[j]
			}
		}
	}
	var ok bool
	if m.inv, ok = invert3(ata); !ok {
		return nil, fmt.Errorf("controller %q: the wheels' places do not fix the base's motion", b.name)
	}
	return m, nil
}

// rollSign is +1 when a positive turn of the wheel joint rolls its wheel
// forward (+x of the root link), -1 backward, 0 when it rolls sideways.
func rollSign(u *urdf.Robot, joint string) float64 {
	a := jointAxis(u, joint)
	d := a[1] // the rolling direction is axis × z = (a1, -a0): its x
	n := math.Hypot(a[0], a[1])
	if n < 1e-6 || math.Abs(d) < 0.7*n {
		return 0
	}
	return math.Copysign(1, d)
}

func (m *mecanumDrive) fields() int { return 3 }

func (m *mecanumDrive) observe(_ time.Duration, dt float64) {
	var bx [3]float64 // Aᵀb
	ok := true
	for i, w := range m.w {
		d, has := w.delta()
		if !has {
			ok = false
			continue
		}
		s := d * m.sgn[i] * m.radius
		for k := range 3 {
			bx[k] += m.row[i][k] * s
		}
	}
	gyro, hasGyro := m.heading()
	m.sample.OK = ok
	if !ok {
		return
	}
	t := m.inv
	dx := t[0][0]*bx[0] + t[0][1]*bx[1] + t[0][2]*bx[2]
	dy := t[1][0]*bx[0] + t[1][1]*bx[1] + t[1][2]*bx[2]
	dth := t[2][0]*bx[0] + t[2][1]*bx[1] + t[2][2]*bx[2]
	if hasGyro {
		dth = gyro
	}
	m.integrate(dx, dy, dth, dt)
}

func (m *mecanumDrive) run(cmd []float64, now time.Duration, dt float64) bool {
	vx, vy, wz := cmd[0], cmd[1], cmd[2]
	if m.field {
		sy, cy := math.Sincos(-m.fieldYaw())
		vx, vy = cy*vx-sy*vy, sy*vx+cy*vy
	}
	vx, vy, wz = m.limit(vx, vy, wz, dt)
	top := 0.0
	for i, r := range m.row {
		m.speed[i] = r[0]*vx + r[1]*vy + r[2]*wz
		top = max(top, math.Abs(m.speed[i]))
	}
	scale := 1.0
	if m.maxWheel > 0 && top > m.maxWheel {
		scale = m.maxWheel / top
	}
	ok := true
	for i, w := range m.w {
		ok = w.drive(m.speed[i]*scale*m.sgn[i]/m.radius, now, dt) && ok
	}
	return ok
}

func (m *mecanumDrive) halt() {
	for _, w := range m.w {
		w.halt()
	}
	m.last = [3]float64{}
}
