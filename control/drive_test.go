package control

import (
	"math"
	"testing"

	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/urdf"
)

// Pose2d.exp along a quarter circle of radius 1 (arc π/2, turn π/2) ends
// at (1, 1) facing +y, as WPILib's Pose2d.exp does; a straight twist is
// a straight line.
func TestIntegrateArc(t *testing.T) {
	bs := &base{}
	bs.integrate(math.Pi/2, 0, math.Pi/2, 1)
	p := bs.sample.Pose
	if math.Abs(p.X-1) > 1e-9 || math.Abs(p.Y-1) > 1e-9 || math.Abs(p.Yaw-math.Pi/2) > 1e-9 {
		t.Errorf("quarter circle: %+v", p)
	}
	bs.integrate(2, 0, 0, 1) // now facing +y
	if p := bs.sample.Pose; math.Abs(p.X-1) > 1e-9 || math.Abs(p.Y-3) > 1e-9 {
		t.Errorf("straight on: %+v", p)
	}
	bs.resetPose(-3, 1, 0.5)
	bs.integrate(0, 0, 0, 1)
	if p := bs.sample.Pose; p.X != -3 || p.Y != 1 || p.Yaw != 0.5 {
		t.Errorf("reset: %+v", p)
	}
}

// testSwerve is a square swerve of four modules 0.3 m from the centre
// along each axis, at heading 0, each wheel on a device velocity loop.
func testSwerve(maxWheel float64) (*swerveDrive, []interfaces.JointState, []interfaces.JointCommand, []interfaces.JointCommand) {
	steer := make([]interfaces.JointState, 4)
	wheels := make([]interfaces.JointState, 4)
	sout := make([]interfaces.JointCommand, 4)
	wout := make([]interfaces.JointCommand, 4)
	s := &swerveDrive{base: &base{radius: 0.05, maxWheel: maxWheel}, mods: make([]module, 4), speed: make([]float64, 4), head: make([]float64, 4)}
	for i, p := range [4][2]float64{{0.3, 0.3}, {0.3, -0.3}, {-0.3, 0.3}, {-0.3, -0.3}} {
		steer[i].SetPosition(0)
		steer[i].SetVelocity(0)
		s.mods[i] = module{w: &wheel{st: &wheels[i], out: &wout[i], device: true, sgn: 1}, steer: &steer[i], out: &sout[i],
			pid: PID{P: 1, Max: 12, IClamp: 12}, p: p, sgn: 1}
	}
	return s, steer, sout, wout
}

// SwerveModuleState.optimize: a module asked to head more than 90° from
// where it points turns the short way and drives reversed; with no twist
// the modules keep their headings.
func TestSwerveOptimize(t *testing.T) {
	s, steer, sout, wout := testSwerve(0)
	s.run([]float64{-1, 0, 0}, 0, 0.01) // backwards: heading π, 180° away
	for i := range 4 {
		if math.Abs(sout[i].Value) > 1e-9 || math.Abs(wout[i].Value+20) > 1e-9 {
			t.Errorf("module %d: steer %v V, wheel %v rad/s; want 0 and -20 (reversed)", i, sout[i].Value, wout[i].Value)
		}
	}
	for i := range steer {
		steer[i].SetPosition(0.5)
	}
	s.run([]float64{0, 0, 0}, 0, 0.01)
	for i := range 4 {
		if sout[i].Value != 0 || wout[i].Value != 0 {
			t.Errorf("no twist, module %d: steer %v V, wheel %v rad/s; want both 0 (keep the heading)", i, sout[i].Value, wout[i].Value)
		}
	}
	s.run([]float64{0, 1, 0}, 0, 0.01) // left: heading π/2, 1.07 rad from 0.5
	for i := range 4 {
		if math.Abs(sout[i].Value-(math.Pi/2-0.5)) > 1e-9 || math.Abs(wout[i].Value-20) > 1e-9 {
			t.Errorf("left, module %d: steer %v V, wheel %v rad/s", i, sout[i].Value, wout[i].Value)
		}
	}
}

// desaturateWheelSpeeds: a spin whose module speeds (10 rad/s × 0.424 m
// = 4.24 m/s) exceed max_wheel_speed 2 m/s scales every module to 2 m/s.
func TestSwerveDesaturate(t *testing.T) {
	s, steer, _, wout := testSwerve(2)
	for i := range steer { // point each module along the spin first
		steer[i].SetPosition(math.Atan2(s.mods[i].p[0], -s.mods[i].p[1]))
	}
	s.run([]float64{0, 0, 10}, 0, 0.01)
	for i := range 4 {
		if math.Abs(math.Abs(wout[i].Value)-2/0.05) > 1e-9 {
			t.Errorf("module %d: wheel %v rad/s, want ±40", i, wout[i].Value)
		}
	}
}

// The odometry's least squares: every module rolling 0.1 m forward is a
// 0.1 m straight move; modules rolling along a spin are a pure turn.
func TestSwerveOdometry(t *testing.T) {
	s, steer, _, _ := testSwerve(0)
	s.inv, _ = moduleInverse(s.mods)
	for i := range s.mods {
		s.mods[i].w.st.SetPosition(0)
	}
	s.observe(0, 0.01)
	for i := range s.mods {
		s.mods[i].w.st.SetPosition(0.1 / 0.05)
	}
	s.observe(0, 0.01)
	if p := s.sample.Pose; math.Abs(p.X-0.1) > 1e-9 || math.Abs(p.Y) > 1e-9 || math.Abs(p.Yaw) > 1e-9 {
		t.Errorf("straight: %+v", p)
	}
	r := math.Hypot(0.3, 0.3)
	for i := range steer {
		steer[i].SetPosition(math.Atan2(s.mods[i].p[0], -s.mods[i].p[1]))
		s.mods[i].w.st.SetPosition(0.1/0.05 + 0.01*r/0.05) // 0.01 rad of spin
	}
	s.observe(0, 0.01)
	if p := s.sample.Pose; math.Abs(p.Yaw-0.01) > 1e-9 || math.Abs(p.X-0.1) > 1e-9 {
		t.Errorf("spin: %+v", p)
	}
}

// A joint's place and axis in the root frame go through its parents'
// origins, rotations included.
func TestJointPlace(t *testing.T) {
	u, list := urdf.Parse("r.urdf", []byte(`<robot name="r"><link name="base"/><link name="m"/><link name="w"/>
  <joint name="mount" type="fixed"><parent link="base"/><child link="m"/><origin xyz="1 0 0" rpy="0 0 1.5707963267948966"/></joint>
  <joint name="wheel" type="continuous"><parent link="m"/><child link="w"/><origin xyz="0.5 0 0"/><axis xyz="0 1 0"/></joint>
</robot>`))
	if list.Errors() > 0 {
		t.Fatal(list)
	}
	p, ok := jointPlace(u, "wheel")
	if !ok || math.Abs(p[0]-1) > 1e-9 || math.Abs(p[1]-0.5) > 1e-9 {
		t.Errorf("place %v %v, want (1, 0.5)", p, ok)
	}
	if a := jointAxis(u, "wheel"); math.Abs(a[0]+1) > 1e-9 || math.Abs(a[1]) > 1e-9 {
		t.Errorf("axis %v, want (-1, 0, 0)", a)
	}
	if s := rollSign(u, "wheel"); s != 0 {
		t.Errorf("a wheel turning about -x rolls sideways: sign %v", s)
	}
}

// The trajectory splines meet their points: a cubic segment starts and
// ends at its points' positions and velocities, a quintic one at their
// positions, velocities (and its midpoint is between them); positions
// alone are linear.
func TestTrajectorySplines(t *testing.T) {
	a := trajPoint{t: 1, pos: []float64{0}, vel: []float64{1}, acc: []float64{0}, hasVel: true}
	b := trajPoint{t: 3, pos: []float64{2}, vel: []float64{-1}, acc: []float64{0}, hasVel: true}
	for _, quintic := range []bool{false, true} {
		a.hasAcc, b.hasAcc = quintic, quintic
		p0, v0 := sample(&a, &b, 0, 1)
		p1, v1 := sample(&a, &b, 0, 3-1e-9)
		if math.Abs(p0) > 1e-9 || math.Abs(v0-1) > 1e-9 || math.Abs(p1-2) > 1e-6 || math.Abs(v1+1) > 1e-6 {
			t.Errorf("quintic %v: start %v, %v; end %v, %v", quintic, p0, v0, p1, v1)
		}
	}
	a.hasVel, b.hasVel = false, false
	if p, v := sample(&a, &b, 0, 2); p != 1 || v != 1 {
		t.Errorf("linear midpoint %v, %v", p, v)
	}
}
