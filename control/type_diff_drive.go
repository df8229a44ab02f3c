package control

import (
	"fmt"
	"math"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(diffDriveType) }

// diffDriveType is ros_controllers' diff_drive_controller: a twist on
// cmd_vel drives the left and right wheels (DifferentialDriveKinematics),
// and wheel odometry integrates the pose.
var diffDriveType = &Type{family: kindRunner, New: newDiffDrive, Takes: Twist, Topic: "cmd_vel",
	Timeout: 500 * time.Millisecond, TimeoutKey: "cmd_vel_timeout", Config: &config.Type{
		Name:    "diff_drive_controller/DiffDriveController",
		Summary: "Drives a differential (tank) base from geometry_msgs/Twist on cmd_vel, with wheel odometry.",
		Doc: "As ros_controllers' diff_drive_controller. Command: geometry_msgs/Twist on /NAME/cmd_vel (linear.x m/s, " +
			"angular.z rad/s; the rest ignored). Each side's wheels turn at (v ∓ ω × wheel_separation / 2) / wheel_radius " +
			"rad/s (forward as their URDF axes say), after the velocity and acceleration limits, through the wheel devices' own velocity loops " +
			"(closed_loop: device) or wheel_pid to volts. A twist older than cmd_vel_timeout becomes zero: the base " +
			"is driven to rest through the acceleration limits and held at zero wheel velocity for stop_time, then its " +
			"outputs go neutral. Odometry " +
			"integrates the mean of each side's wheels (and the IMU's heading when imu is set) every cycle, enabled or " +
			"not, as WPILib's DifferentialDriveOdometry: nav_msgs/Odometry on /NAME/odom, the odom → base transform on " +
			"/tf, the pose on NT4 (struct:Pose2d and a Field2d) and in the log; /NAME/reset_pose places it.",
		Keys: append([]config.Key{
			{Name: "left_wheel", Kind: config.StringList, Required: true, Ref: config.SpeedRef, Doc: "The left side's wheel joints."},
			{Name: "right_wheel", Kind: config.StringList, Required: true, Ref: config.SpeedRef, Doc: "The right side's wheel joints."},
			{Name: "wheel_separation", Kind: config.Float, HasRange: true, Min: 0.01, Max: 10, Unit: "m",
				DefaultDoc: "the distance between the first left and right wheel joints in the URDF", Doc: "The track width."},
		}, driveKeys("")...),
		Check: checkClaims("left_wheel", "right_wheel"),
		Example: "{name: drive, type: diff_drive_controller/DiffDriveController, left_wheel: [left_wheel_joint], " +
			"right_wheel: [right_wheel_joint], wheel_pid: {p: 0.5, i: 4, f: 0.23}}",
		Facts: config.Facts{Controller: &config.ControllerFacts{Measures: config.Position | config.Velocity,
			HardwareInterface: "hardware_interface::VelocityJointInterface", Hints: []string{"diff_drive", "tank", "differential"}}},
	}}

// checkClaims claims the joints the list keys name: one controller per
// joint.
func checkClaims(keys ...string) func(d *config.Device, c *config.Checker) {
	return func(d *config.Device, c *config.Checker) {
		for _, k := range keys {
			if list, _ := d.Value(k); list.Set {
				for i, name := range list.List {
					c.ClaimName(d, config.ControllerJoint, name, list.ListAt[i])
				}
			}
		}
	}
}

// diffDrive is a differential drive base.
type diffDrive struct {
	*base
	left, right []*wheel
	sep         float64 // m
}

func newDiffDrive(cd *config.Device, b *Binder) (runner, error) {
	ln, rn := cd.List("left_wheel"), cd.List("right_wheel")
	if len(ln) == 0 || len(rn) == 0 {
		return nil, fmt.Errorf("controller %q: needs left and right wheels", b.name)
	}
	bs, err := newBase(cd, b, ln[0])
	if err != nil {
		return nil, err
	}
	d := &diffDrive{base: bs, sep: cd.Float("wheel_separation")}
	if !cd.Has("wheel_separation") {
		l, okl := jointPlace(b.Robot().URDF, ln[0])
		r, okr := jointPlace(b.Robot().URDF, rn[0])
		d.sep = math.Hypot(l[0]-r[0], l[1]-r[1])
		if !okl || !okr || d.sep < 0.01 {
			return nil, fmt.Errorf("controller %q: no wheel separation from the URDF's %q and %q: set wheel_separation", b.name, ln[0], rn[0])
		}
	}
	for i, n := range append(append([]string(nil), ln...), rn...) {
		w, err := newWheel(cd, b, n)
		if err != nil {
			return nil, err
		}
		if w.sgn = rollSign(b.Robot().URDF, n); w.sgn == 0 {
			return nil, fmt.Errorf("controller %q: wheel joint %q does not roll forward or back", b.name, n)
		}
		if i < len(ln) {
			d.left = append(d.left, w)
		} else {
			d.right = append(d.right, w)
		}
	}
	return d, nil
}

func (d *diffDrive) fields() int { return 3 }

// side is the mean turn of a side's measured wheels since the last
// cycle, rad: a side's wheels turn together (chained or geared), so one
// encoder measures them all; false when none is measured.
func side(ws []*wheel) (float64, bool) {
	var sum float64
	n := 0
	for _, w := range ws {
		if v, has := w.delta(); has {
			sum += v * w.sgn
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// sideVelocity is the mean velocity of a side's measured wheels, rad/s.
func sideVelocity(ws []*wheel) (float64, bool) {
	var sum float64
	n := 0
	for _, w := range ws {
		if w.st.Has&interfaces.HasVelocity != 0 {
			sum += w.st.Velocity * w.sgn
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

func (d *diffDrive) observe(_ time.Duration, dt float64) {
	l, okl := side(d.left)
	r, okr := side(d.right)
	gyro, hasGyro := d.heading()
	d.sample.OK = okl && okr
	if !d.sample.OK {
		return
	}
	dl, dr := l*d.radius, r*d.radius
	dth := (dr - dl) / d.sep
	if hasGyro {
		dth = gyro
	}
	d.integrate((dl+dr)/2, 0, dth, dt)
}

func (d *diffDrive) run(cmd []float64, now time.Duration, dt float64) bool {
	vx, _, wz := d.limit(cmd[0], 0, cmd[2], dt)
	vl := (vx - wz*d.sep/2) / d.radius
	vr := (vx + wz*d.sep/2) / d.radius
	ok := true
	ml, hasl := sideVelocity(d.left)
	for _, w := range d.left {
		ok = w.driveOn(vl*w.sgn, ml*w.sgn, hasl, now, dt) && ok
	}
	mr, hasr := sideVelocity(d.right)
	for _, w := range d.right {
		ok = w.driveOn(vr*w.sgn, mr*w.sgn, hasr, now, dt) && ok
	}
	return ok
}

func (d *diffDrive) halt() {
	for _, w := range d.left {
		w.halt()
	}
	for _, w := range d.right {
		w.halt()
	}
	d.last = [3]float64{}
}
