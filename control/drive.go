package control

import (
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

// What the drive bases (type_diff_drive.go, type_swerve_drive.go,
// type_mecanum_drive.go) share: a twist command with ros_controllers'
// velocity and acceleration limits, wheels driven at a velocity (the
// device's own loop, or a feedforward plus PID to volts on the roboRIO),
// and odometry integrated as WPILib's Odometry does (Pose2d.exp of each
// cycle's twist, its heading change taken from the base's IMU when there
// is one). The facts, with their sources, are in docs/drive.md.

// Pose is a drive base's odometry: its pose in the odometry frame (m, m,
// rad) and its twist in its own frame (m/s, m/s, rad/s).
type Pose struct {
	X, Y, Yaw  float64
	VX, VY, WZ float64
}

// OdometrySample is one drive base's odometry in a snapshot.
type OdometrySample struct {
	Name      string // the controller
	OdomFrame string // odom_frame_id
	BaseFrame string // base_frame_id
	TF        bool   // enable_odom_tf
	Rate      float64
	Pose      Pose
	OK        bool // every wheel measured this cycle
}

// odometer is a runner with odometry.
type odometer interface {
	odometry(*OdometrySample)
	describe(*OdometrySample)
	resetPose(x, y, yaw float64)
}

// driveKeys are the keys every drive base takes beside its wheels.
func driveKeys(wheelVelocity string) []config.Key {
	keys := []config.Key{
		{Name: "cmd_vel_timeout", Kind: config.Float, Default: 0.5, HasRange: true, Min: 0.001, Max: 60, Unit: "s",
			Doc: "A twist older than this becomes zero, as diff_drive_controller's: the base is driven to rest (see stop_time)."},
		{Name: "stop_time", Kind: config.Float, Default: 1.0, HasRange: true, Min: 0, Max: 60, Unit: "s",
			Doc: "After cmd_vel_timeout the base is driven at zero twist, ramped down through the acceleration limits (in at most 2 s: faster when they would take longer), " +
				"its wheels held at zero velocity for this long once the ramp reaches zero; then their outputs go neutral. " +
				"0: neutral at cmd_vel_timeout (the base coasts or brakes as its devices are set)."},
		{Name: "publish_rate", Kind: config.Float, Default: 50.0, HasRange: true, Min: 0.1, Max: 1000, Unit: "Hz", Doc: "How often odom and its transform are published (at most the loop's rate): its own rate, not the joint state controller's, while this controller runs."},
		{Name: "base_frame_id", Kind: config.String, DefaultDoc: "the URDF's root link", Doc: "The base's frame, the transform's child."},
		{Name: "odom_frame_id", Kind: config.String, Default: "odom", Doc: "The odometry's frame, the transform's parent."},
		{Name: "enable_odom_tf", Kind: config.Bool, Default: true, Doc: "Publish the odom → base transform on /tf."},
		{Name: "imu", Kind: config.String, Ref: []config.Role{config.IMURole}, DefaultDoc: "none: the heading from the wheels",
			Doc: "An IMU on the base whose yaw gives the odometry's heading change (as WPILib's odometry takes a gyro's), and field-relative driving its heading."},
		{Name: "linear.max_velocity", Kind: config.Float, HasRange: true, Min: 0, Max: MaxTwistLinear, Unit: "m/s", DefaultDoc: "no limit",
			Doc: "The largest linear speed commanded (diff_drive_controller's linear/x/max_velocity with has_velocity_limits)."},
		{Name: "linear.max_acceleration", Kind: config.Float, HasRange: true, Min: 0, Max: 1000, Unit: "m/s²", DefaultDoc: "no limit",
			Doc: "The largest change of the commanded linear velocity per second."},
		{Name: "angular.max_velocity", Kind: config.Float, HasRange: true, Min: 0, Max: MaxTwistAngular, Unit: "rad/s", DefaultDoc: "no limit",
			Doc: "The largest turn rate commanded (angular/z/max_velocity)."},
		{Name: "angular.max_acceleration", Kind: config.Float, HasRange: true, Min: 0, Max: 10000, Unit: "rad/s²", DefaultDoc: "no limit",
			Doc: "The largest change of the commanded turn rate per second."},
		{Name: "wheel_radius", Kind: config.Float, HasRange: true, Min: 0.001, Max: 2, Unit: "m", DefaultDoc: "the wheel link's cylinder or sphere in the URDF",
			Doc: "The wheels' radius: joint rad/s × radius = m/s."},
		{Name: "wheel_pid.p", Kind: config.Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "V per rad/s", Doc: "Wheel velocity PID: proportional gain."},
		{Name: "wheel_pid.i", Kind: config.Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "V per rad", Doc: "Wheel velocity PID: integral gain."},
		{Name: "wheel_pid.f", Kind: config.Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "V per rad/s",
			Doc: "Wheel velocity feedforward: volts per rad/s of the wheel set point (about 12 V over the wheel's free speed)."},
		{Name: "max_voltage", Kind: config.Float, Default: 12.0, HasRange: true, Min: 0.1, Max: 24, Unit: "V", Doc: "The wheel and steering outputs' limit."},
	}
	if wheelVelocity != "" {
		keys = append(keys, config.Key{Name: "max_wheel_speed", Kind: config.Float, HasRange: true, Min: 0.01, Max: 100, Unit: "m/s",
			DefaultDoc: "no limit", Doc: wheelVelocity})
	}
	return keys
}

// axisLimit is one velocity's limits (0: none).
type axisLimit struct{ maxVel, maxAcc float64 }

func (l axisLimit) apply(v, last, dt float64) float64 {
	if l.maxVel > 0 {
		v = max(-l.maxVel, min(l.maxVel, v))
	}
	if l.maxAcc > 0 && dt > 0 {
		d := l.maxAcc * dt
		v = max(last-d, min(last+d, v))
	}
	return v
}

// wheel is one wheel joint driven at a velocity, rad/s.
type wheel struct {
	st     *interfaces.JointState
	out    *interfaces.JointCommand
	device bool    // the device's own velocity loop
	sgn    float64 // a drive base's: +1 when a positive joint turn rolls the wheel forward, -1 backward
	pid    PID
	pos    float64 // last position, for odometry
	has    bool
}

// drive drives the wheel at sp rad/s; false without a measured velocity
// (needed on the roboRIO's loop).
func (w *wheel) drive(sp float64, now time.Duration, dt float64) bool {
	return w.driveOn(sp, w.st.Velocity, w.st.Has&interfaces.HasVelocity != 0, now, dt)
}

// driveOn drives the wheel at sp rad/s on a measured velocity meas (a
// side's, whose other wheels turn with it), when has.
func (w *wheel) driveOn(sp, meas float64, has bool, now time.Duration, dt float64) bool {
	if w.device {
		w.out.Put(sp, now)
		return true
	}
	if !has {
		return false
	}
	w.out.Put(w.pid.Update(sp, sp-meas, 0, dt), now)
	return true
}

func (w *wheel) halt() {
	w.out.Reset()
	w.pid.Reset()
}

// delta is the wheel's turn since the last call, rad; false when it is
// not measured (the next measured call starts over).
func (w *wheel) delta() (float64, bool) {
	if w.st.Has&interfaces.HasPosition == 0 {
		w.has = false
		return 0, false
	}
	d := w.st.Position - w.pos
	if !w.has {
		d = 0
	}
	w.pos, w.has = w.st.Position, true
	return d, true
}

// base is what every drive base runner has: limits, odometry, its frames.
type base struct {
	lin, ang  axisLimit
	last      [3]float64 // the limited twist last cycle
	maxWheel  float64    // m/s, 0: none
	radius    float64
	imu       *interfaces.IMUState
	imuYaw    float64
	imuHas    bool
	sample    OdometrySample
	mu        sync.Mutex // guards reset, set from another goroutine
	reset     Pose
	resetSet  bool
	headingOK bool
	hold      time.Duration // stop_time: zero wheel velocity held after a stale twist, 0: none
	zeroAt    time.Duration // when the stop's ramp reached a zero twist
	zeroSet   bool
	brake     [3]float64 // the stop's ramp, per twist field: m/s² or rad/s² (0: none)
	braking   bool       // this cycle's twist is the stop's zero (stopping said so)
}

// MaxStopRamp bounds the stop's ramp to a zero twist after cmd_vel_timeout:
// it ramps down through the acceleration limits, or faster when they
// would take longer (a base at 4 m/s with linear.max_acceleration 0.25
// would drive on for 16 s): each field at least at its speed when the
// twist went stale over MaxStopRamp. So a stale base's outputs are
// neutral at most cmd_vel_timeout + MaxStopRamp (+ a cycle) + stop_time
// after its last twist.
const MaxStopRamp = 2 * time.Second

// newBase reads the keys driveKeys declares.
func newBase(cd *config.Device, b *Binder, wheelJoint string) (*base, error) {
	bs := &base{lin: axisLimit{cd.Float("linear.max_velocity"), cd.Float("linear.max_acceleration")},
		ang:  axisLimit{cd.Float("angular.max_velocity"), cd.Float("angular.max_acceleration")},
		hold: time.Duration(cd.Float("stop_time") * float64(time.Second))}
	if cd.Type.Key("max_wheel_speed") != nil {
		bs.maxWheel = cd.Float("max_wheel_speed")
	}
	r := b.Robot()
	bs.radius = cd.Float("wheel_radius")
	if !cd.Has("wheel_radius") {
		bs.radius = wheelRadius(r, wheelJoint)
		if bs.radius <= 0 {
			return nil, fmt.Errorf("controller %q: wheel joint %q's link has no cylinder or sphere in the URDF: set wheel_radius", b.name, wheelJoint)
		}
	}
	bs.sample = OdometrySample{Name: b.name, OdomFrame: cd.Str("odom_frame_id"), BaseFrame: cd.Str("base_frame_id"),
		TF: cd.Bool("enable_odom_tf"), Rate: cd.Float("publish_rate")}
	if !cd.Has("base_frame_id") && r.URDF.Root != nil {
		bs.sample.BaseFrame = r.URDF.Root.Name
	}
	if cd.Has("imu") {
		h, err := interfaces.State[interfaces.IMUState](b.reg, cd.Str("imu"), interfaces.IMU)
		if err != nil {
			return nil, fmt.Errorf("controller %q: imu: %w", b.name, err)
		}
		bs.imu = h
	}
	return bs, nil
}

// newWheel binds a wheel joint: the device's own velocity loop when it
// closes one (closed_loop: device), else a PID to volts.
func newWheel(cd *config.Device, b *Binder, joint string) (*wheel, error) {
	st, err := b.State(joint)
	if err != nil {
		return nil, err
	}
	w := &wheel{st: st, sgn: 1}
	dev := b.Robot().Config.Device(joint)
	if dev != nil && dev.ClosesLoop() {
		w.device = true
		w.out, err = b.Claim(joint, interfaces.Velocity)
	} else {
		max := cd.Float("max_voltage")
		w.pid = PID{P: cd.Float("wheel_pid.p"), I: cd.Float("wheel_pid.i"), F: cd.Float("wheel_pid.f"), IClamp: max, Max: max}
		w.out, err = b.Claim(joint, interfaces.Voltage)
	}
	return w, err
}

// fieldRanges: a twist beyond MaxTwistLinear or MaxTwistAngular is
// refused (ranges.go).
func (bs *base) fieldRanges() []commandRange { return twistRanges }

// limit applies the velocity and acceleration limits to a twist.
func (bs *base) limit(vx, vy, wz, dt float64) (float64, float64, float64) {
	if v := math.Hypot(vx, vy); bs.lin.maxVel > 0 && v > bs.lin.maxVel {
		vx, vy = vx*bs.lin.maxVel/v, vy*bs.lin.maxVel/v
	}
	acc := [3]float64{bs.lin.maxAcc, bs.lin.maxAcc, bs.ang.maxAcc}
	if bs.braking {
		acc, bs.braking = bs.brake, false
	}
	vx = axisLimit{maxAcc: acc[0]}.apply(vx, bs.last[0], dt)
	vy = axisLimit{maxAcc: acc[1]}.apply(vy, bs.last[1], dt)
	wz = axisLimit{maxVel: bs.ang.maxVel, maxAcc: acc[2]}.apply(wz, bs.last[2], dt)
	bs.last = [3]float64{vx, vy, wz}
	return vx, vy, wz
}

// stopping says whether a base whose twist went stale still drives its
// wheels, at a zero twist (Controller.update runs it so, from
// cmd_vel_timeout on; first on the first such cycle): while its limited
// twist ramps down to zero (within MaxStopRamp), then for stop_time
// more, as diff_drive_controller commands zero wheel velocity after its
// timeout (it for ever; frcd then goes neutral). Never with stop_time 0.
func (bs *base) stopping(now time.Duration, first bool) bool {
	if first {
		bs.zeroSet = false
		acc := [3]float64{bs.lin.maxAcc, bs.lin.maxAcc, bs.ang.maxAcc}
		for i, a := range acc {
			if a > 0 { // 0: no limit, the zero twist at once
				acc[i] = max(a, math.Abs(bs.last[i])/MaxStopRamp.Seconds())
			}
		}
		bs.brake = acc
	}
	switch {
	case bs.hold <= 0:
		return false
	case bs.last != [3]float64{}: // still ramping down
		bs.zeroSet, bs.braking = false, true
		return true
	case !bs.zeroSet:
		bs.zeroAt, bs.zeroSet = now, true
	}
	bs.braking = now-bs.zeroAt < bs.hold
	return bs.braking
}

// heading is the IMU's yaw change since the last call, when there is an
// IMU and it reads.
func (bs *base) heading() (float64, bool) {
	if bs.imu == nil {
		return 0, false
	}
	q := bs.imu.Orientation // x, y, z, w
	if !interfaces.Finite(q[0]+q[1]+q[2]+q[3]) || q == ([4]float64{}) {
		bs.imuHas = false
		return 0, false
	}
	yaw := math.Atan2(2*(q[3]*q[2]+q[0]*q[1]), 1-2*(q[1]*q[1]+q[2]*q[2]))
	d := 0.0
	if bs.imuHas {
		d = math.Remainder(yaw-bs.imuYaw, 2*math.Pi)
	}
	bs.imuYaw, bs.imuHas = yaw, true
	return d, true
}

// integrate adds one cycle's twist in the base frame (m, m, rad) to the
// pose, as WPILib's Pose2d.exp: along the arc, not the chord.
func (bs *base) integrate(dx, dy, dth, dt float64) {
	bs.mu.Lock()
	if bs.resetSet {
		p := &bs.sample.Pose
		p.X, p.Y, p.Yaw = bs.reset.X, bs.reset.Y, bs.reset.Yaw
		bs.resetSet = false
	}
	bs.mu.Unlock()
	p := &bs.sample.Pose
	var s, c float64
	if math.Abs(dth) < 1e-9 {
		s, c = 1-dth*dth/6, dth/2
	} else {
		s, c = math.Sin(dth)/dth, (1-math.Cos(dth))/dth
	}
	tx, ty := dx*s-dy*c, dx*c+dy*s
	sy, cy := math.Sincos(p.Yaw)
	p.X += cy*tx - sy*ty
	p.Y += sy*tx + cy*ty
	p.Yaw = math.Remainder(p.Yaw+dth, 2*math.Pi)
	if dt > 0 {
		p.VX, p.VY, p.WZ = dx/dt, dy/dt, dth/dt
	}
}

// odometry copies the sample, the loop's (from the loop's goroutine).
func (bs *base) odometry(s *OdometrySample) { *s = bs.sample }

// describe copies what never changes after the build (the name, frames,
// rate): safe from any goroutine, unlike odometry, whose pose the loop
// writes every cycle.
func (bs *base) describe(s *OdometrySample) {
	s.Name, s.OdomFrame, s.BaseFrame, s.TF, s.Rate = bs.sample.Name, bs.sample.OdomFrame, bs.sample.BaseFrame, bs.sample.TF, bs.sample.Rate
}

// resetPose places the odometry at a pose from the next cycle on. Safe
// from any goroutine.
func (bs *base) resetPose(x, y, yaw float64) {
	bs.mu.Lock()
	bs.reset, bs.resetSet = Pose{X: x, Y: y, Yaw: yaw}, true
	bs.mu.Unlock()
}

// fieldYaw is the heading field-relative driving turns a twist by: the
// odometry's (which follows the IMU when there is one).
func (bs *base) fieldYaw() float64 { return bs.sample.Pose.Yaw }

// wheelRadius is the radius of a wheel joint's child link's cylinder or
// sphere (collision first, then visual), as diff_drive_controller reads
// it; 0 when it has none.
func wheelRadius(r *robot.Robot, joint string) float64 {
	j := r.URDF.Joint(joint)
	if j == nil {
		return 0
	}
	l := r.URDF.Link(j.Child)
	if l == nil {
		return 0
	}
	for _, g := range append(append([]urdf.Geometry(nil), l.Collisions...), l.Visuals...) {
		if (g.Kind == "cylinder" || g.Kind == "sphere") && g.Radius > 0 {
			return g.Radius
		}
	}
	return 0
}

// jointPlace is where a joint's origin sits in the URDF's root link frame
// (x forward, y left), through every joint above it at its zero: where a
// swerve module turns, where a wheel touches (seen from above).
func jointPlace(u *urdf.Robot, name string) ([2]float64, bool) {
	j := u.Joint(name)
	if j == nil {
		return [2]float64{}, false
	}
	p := j.Origin.XYZ
	for hops := 0; hops < 64; hops++ {
		parent := parentJoint(u, j.Parent)
		if parent == nil {
			return [2]float64{p[0], p[1]}, true
		}
		p = rotate(parent.Origin.RPY, p)
		p = urdf.Vec3{p[0] + parent.Origin.XYZ[0], p[1] + parent.Origin.XYZ[1], p[2] + parent.Origin.XYZ[2]}
		j = parent
	}
	return [2]float64{}, false
}

func parentJoint(u *urdf.Robot, link string) *urdf.Joint {
	for _, j := range u.Joints {
		if j.Child == link {
			return j
		}
	}
	return nil
}

// rotate applies URDF's fixed-axis roll, pitch, yaw: Rz(yaw)·Ry(pitch)·Rx(roll).
func rotate(rpy, v urdf.Vec3) urdf.Vec3 {
	sr, cr := math.Sincos(rpy[0])
	sp, cp := math.Sincos(rpy[1])
	sy, cy := math.Sincos(rpy[2])
	x, y, z := v[0], v[1]*cr-v[2]*sr, v[1]*sr+v[2]*cr
	x, z = x*cp+z*sp, -x*sp+z*cp
	x, y = x*cy-y*sy, x*sy+y*cy
	return urdf.Vec3{x, y, z}
}

// ResetPose places a drive base's odometry at x, y (m) and yaw (rad) in
// its odometry frame, from the next cycle on; an error for a controller
// without odometry or a pose that is not finite. Safe from any goroutine.
func (c *Controller) ResetPose(x, y, yaw float64) error {
	o, ok := c.run.(odometer)
	switch {
	case !ok:
		return fmt.Errorf("controller %q: has no odometry: %w", c.Name, ErrRefused)
	case !interfaces.Finite(x) || !interfaces.Finite(y) || !interfaces.Finite(yaw):
		return fmt.Errorf("controller %q: pose %v, %v, %v: %w", c.Name, x, y, yaw, ErrRefused)
	}
	o.resetPose(x, y, yaw)
	return nil
}

// HasOdometry says whether the controller is a drive base with odometry.
func (c *Controller) HasOdometry() bool {
	_, ok := c.run.(odometer)
	return ok
}
