package sim

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

// The drive test robot: a 40 kg base (yaw inertia 2.5 kg·m²) on four
// 3 in wheels at (±0.3, ±0.3) m, each driven by a Spark on PWM 0-3 (left
// front, right front, left rear, right rear) through the gearing that
// makes its free speed 20 rad/s (1.52 m/s on the floor). Encoders on the
// two front wheels; a Pigeon in the base and a navX on a mount turned
// 90° about z, 0.2 m ahead. Swerve robots add a steering joint above each
// wheel, on PWM 4-7.
const (
	driveHalf   = 0.3
	driveRadius = 0.0762
	driveFree   = 20.0 // rad/s at the wheel
	driveMass   = 40.0
	driveIz     = 2.5
)

var wheelCorners = []struct {
	name string
	x, y float64
}{{"lf", 1, 1}, {"rf", 1, -1}, {"lr", -1, 1}, {"rr", -1, -1}}

func driveURDF(swerve bool) string {
	var b strings.Builder
	b.WriteString(`<robot name="drive">
  <link name="base_link">
    <inertial><mass value="40"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="2.5"/></inertial>
    <sensor name="pigeon" type="imu"/>
  </link>
  <link name="navx_mount"><sensor name="navx" type="imu"/></link>
  <joint name="navx_mount_joint" type="fixed"><parent link="base_link"/><child link="navx_mount"/><origin xyz="0.2 0 0.1" rpy="0 0 1.5707963267948966"/></joint>
`)
	for _, c := range wheelCorners {
		parent, at := "base_link", fmt.Sprintf("%g %g 0", c.x*driveHalf, c.y*driveHalf)
		if swerve {
			fmt.Fprintf(&b, `  <link name="%[1]s_module"/>
  <joint name="%[1]s_steer" type="continuous"><parent link="base_link"/><child link="%[1]s_module"/><origin xyz="%[2]s"/><axis xyz="0 0 1"/></joint>
`, c.name, at)
			parent, at = c.name+"_module", "0 0 0"
		}
		fmt.Fprintf(&b, `  <link name="%[1]s_wheel">
    <inertial><mass value="0.001"/><inertia ixx="0.0001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.0001"/></inertial>
    <collision><origin rpy="1.5708 0 0"/><geometry><cylinder radius="0.0762" length="0.05"/></geometry></collision>
  </link>
  <joint name="%[1]s_drive" type="continuous"><parent link="%[2]s"/><child link="%[1]s_wheel"/><origin xyz="%[3]s"/><axis xyz="0 1 0"/>
    <sensor name="%[1]s_enc" type="encoder"/></joint>
`, c.name, parent, at)
	}
	b.WriteString("</robot>\n")
	return b.String()
}

func driveYAML(swerve bool, drivetrain string) string {
	var b strings.Builder
	b.WriteString("joints:\n  - {name: pigeon, type: pigeon_imu, frame_id: base_link, id: 3}\n  - {name: navx, type: navx, frame_id: navx_mount, interface: spi, id: 4}\n")
	for i, c := range wheelCorners {
		fmt.Fprintf(&b, "  - {name: %s_drive, type: spark, id: %d}\n", c.name, i)
		fmt.Fprintf(&b, "  - {name: %s_enc, type: encoder, ch_a: %d, ch_b: %d, dist_per_pulse: 0.001}\n", c.name, 2*i, 2*i+1)
		if swerve {
			fmt.Fprintf(&b, "  - {name: %s_steer, type: spark, id: %d}\n", c.name, 4+i)
		}
	}
	b.WriteString("sim:\n  joints:\n")
	for _, c := range wheelCorners {
		fmt.Fprintf(&b, "    - {name: %s_drive, motor: cim, inertia: 0.002, gearing: 27.9}\n", c.name)
	}
	b.WriteString("  drivetrain:\n" + drivetrain)
	return b.String()
}

// driveRig is a drive robot with its motors' PWM outputs.
type driveRig struct {
	s   *Sim
	pwm [8]hal.PWM
	now time.Duration
}

func newDriveRig(t testing.TB, swerve bool, drivetrain string) *driveRig {
	t.Helper()
	r := loadRobot(t, driveURDF(swerve), driveYAML(swerve, drivetrain))
	rig := &driveRig{s: newSim(t, r, ConfigOptions(r.Config, 1, false))}
	rig.s.SetDS(enabled)
	n := 4
	if swerve {
		n = 8
	}
	for i := 0; i < n; i++ {
		p, err := rig.s.OpenPWM(i)
		if err != nil {
			t.Fatal(err)
		}
		rig.pwm[i] = p
	}
	return rig
}

// set sets the wheels' duties: left front, right front, left rear, right
// rear.
func (g *driveRig) set(d ...float64) {
	for i, x := range d {
		_ = g.pwm[i].SetPulse(frc.PWMSpark.Pulse(x))
	}
}

func (g *driveRig) run(d time.Duration) {
	g.now += d
	g.s.AdvanceTo(g.now)
}

func (g *driveRig) pose(t testing.TB) Pose {
	t.Helper()
	p, ok := g.s.Pose()
	if !ok {
		t.Fatal("no pose")
	}
	return p
}

func (g *driveRig) wheelVel(t testing.TB, name string) float64 {
	return truth(t, g.s, name+"_drive").Velocity
}

// bodyVel is the base's velocity in its own frame.
func bodyVel(p Pose) (fwd, left float64) {
	sy, cy := math.Sincos(p.Yaw)
	return cy*p.VX + sy*p.VY, -sy*p.VX + cy*p.VY
}

const (
	tankYAML    = "    type: tank\n    left: [lf_drive, lr_drive]\n    right: [rf_drive, rr_drive]\n"
	mecanumYAML = "    type: mecanum\n    front_left: lf_drive\n    front_right: rf_drive\n    rear_left: lr_drive\n    rear_right: rr_drive\n"
	swerveYAML  = "    type: swerve\n    drive: [lf_drive, rf_drive, lr_drive, rr_drive]\n    steer: [lf_steer, rf_steer, lr_steer, rr_steer]\n"
)

// TestDriveDefaults checks the base's parameters from the URDF.
func TestDriveDefaults(t *testing.T) {
	g := newDriveRig(t, false, tankYAML)
	b := g.s.base
	// The wheels' 1 g each count in the mass; their tensor adds to izz.
	wheelsIz := 4 * (0.0001 + 0.001*2*driveHalf*driveHalf)
	if !near(b.mass, driveMass+0.004, 1e-9) || !near(b.iz, driveIz+wheelsIz, 1e-9) {
		t.Errorf("mass %v, yaw inertia %v", b.mass, b.iz)
	}
	for _, w := range b.wheels {
		if w.r != driveRadius || w.d0 != [2]float64{1, 0} || !near(math.Abs(w.p[0]), driveHalf, 1e-12) || !near(math.Abs(w.p[1]), driveHalf, 1e-12) {
			t.Errorf("wheel %s: radius %v, rolling %v, at %v", w.j.name, w.r, w.d0, w.p)
		}
		if want := 1.0 * b.mass * gravity / 4; !near(w.limit, want, 1e-9) {
			t.Errorf("wheel %s: traction limit %v, want %v", w.j.name, w.limit, want)
		}
	}
	g = newDriveRig(t, false, tankYAML+"    wheel_radius: 0.05\n    mass: 60\n    friction: 0.5\n")
	if b := g.s.base; b.mass != 60 || !near(b.iz, (driveIz+wheelsIz)*60/(driveMass+0.004), 1e-9) || b.wheels[0].r != 0.05 || b.mu != 0.5 {
		t.Errorf("overrides: mass %v, yaw inertia %v, radius %v, friction %v", b.mass, b.iz, b.wheels[0].r, b.mu)
	}
}

// TestDriveKinematics drives each base gently (no slip) straight, sideways
// and in place, and checks the base's velocity against its wheels' by
// each drive's inverse kinematics.
func TestDriveKinematics(t *testing.T) {
	track := 2 * driveHalf
	r := driveRadius
	// w holds the wheels' speeds: left front, right front, left rear,
	// right rear.
	tankFwd := func(w [4]float64) float64 { return r * (w[0] + w[1] + w[2] + w[3]) / 4 }
	tankYaw := func(w [4]float64) float64 { return r * (w[1] + w[3] - w[0] - w[2]) / 2 / track }
	mecLeft := func(w [4]float64) float64 { return r * (-w[0] + w[1] + w[2] - w[3]) / 4 }
	mecYaw := func(w [4]float64) float64 { return r * (-w[0] + w[1] - w[2] + w[3]) / 4 / (2 * driveHalf) }
	cases := []struct {
		name               string
		swerve             bool
		yaml               string
		steer              float64 // swerve modules' angle
		duty               [4]float64
		fwd, left, yawRate func(w [4]float64) float64
	}{
		{"tank straight", false, tankYAML, 0, [4]float64{0.4, 0.4, 0.4, 0.4}, tankFwd, zero, zero},
		{"tank spin", false, tankYAML, 0, [4]float64{-0.4, 0.4, -0.4, 0.4}, tankFwd, zero, tankYaw},
		{"tank curve", false, tankYAML, 0, [4]float64{0.2, 0.4, 0.2, 0.4}, tankFwd, zero, tankYaw},
		{"mecanum forward", false, mecanumYAML, 0, [4]float64{0.4, 0.4, 0.4, 0.4}, tankFwd, mecLeft, mecYaw},
		{"mecanum strafe left", false, mecanumYAML, 0, [4]float64{-0.4, 0.4, 0.4, -0.4}, tankFwd, mecLeft, mecYaw},
		{"mecanum spin", false, mecanumYAML, 0, [4]float64{-0.4, 0.4, -0.4, 0.4}, tankFwd, mecLeft, mecYaw},
		{"swerve straight", true, swerveYAML, 0, [4]float64{0.4, 0.4, 0.4, 0.4}, tankFwd, zero, zero},
		{"swerve sideways", true, swerveYAML, math.Pi / 2, [4]float64{0.4, 0.4, 0.4, 0.4}, zero, tankFwd, zero},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newDriveRig(t, c.swerve, c.yaml)
			if c.swerve {
				for _, w := range wheelCorners {
					if err := g.s.SetJoint(w.name+"_steer", c.steer, 0); err != nil {
						t.Fatal(err)
					}
				}
			}
			g.set(c.duty[:]...)
			g.run(3 * time.Second)
			p := g.pose(t)
			fwd, left := bodyVel(p)
			var w [4]float64
			for i, wc := range wheelCorners {
				w[i] = g.wheelVel(t, wc.name)
				if !near(math.Abs(w[i]), math.Abs(c.duty[i])*driveFree, 0.15*driveFree) {
					t.Errorf("wheel %s at %v rad/s, want about %v", wc.name, w[i], c.duty[i]*driveFree)
				}
			}
			for _, v := range []struct {
				what      string
				got, want float64
			}{{"forward", fwd, c.fwd(w)}, {"left", left, c.left(w)}, {"yaw rate", p.WZ, c.yawRate(w)}} {
				// The tires' sideways give (the centripetal force over
				// their stiffness) is within 1 mm/s here.
				if !near(v.got, v.want, 1e-3+1e-4*math.Abs(v.want)) {
					t.Errorf("%s velocity %.5f, want %.5f (wheels at %.4f rad/s)", v.what, v.got, v.want, w)
				}
			}
			if v := math.Max(math.Max(math.Abs(fwd), math.Abs(left)), math.Abs(p.WZ)); v < 0.2 {
				t.Errorf("the base hardly moves: %+v", p)
			}
			for _, wh := range g.s.base.wheels {
				if s := wh.surface - wh.ground; math.Abs(s) > 1e-4 {
					t.Errorf("wheel %s slips at %.5f m/s on a gentle run", wh.j.name, s)
				}
			}
			t.Logf("pose %+v; wheels %.4f rad/s", p, w)
		})
	}
}

func zero([4]float64) float64 { return 0 }

// TestDriveSlip: full voltage from standstill on a slippery floor spins
// the wheels faster than the ground moves under them; on a grippy floor,
// they slip far less.
func TestDriveSlip(t *testing.T) {
	slip := func(mu float64) (surface, ground float64) {
		g := newDriveRig(t, false, tankYAML+fmt.Sprintf("    friction: %g\n", mu))
		g.set(1, 1, 1, 1)
		g.run(200 * time.Millisecond)
		w := g.s.base.wheels[0]
		return w.surface, w.ground
	}
	ls, lg := slip(0.1)
	hs, hg := slip(1)
	t.Logf("friction 0.1: surface %.3f m/s, ground %.3f m/s; friction 1: surface %.3f, ground %.3f", ls, lg, hs, hg)
	if !(ls > 2*lg) || !(lg > 0) {
		t.Errorf("slippery floor: wheel surface %.3f m/s, ground %.3f m/s: want the surface well ahead", ls, lg)
	}
	if !(hs-hg < 0.1*hs) || !(hs-hg < (ls-lg)/4) {
		t.Errorf("grippy floor: surface %.3f, ground %.3f: want little slip", hs, hg)
	}
	// Full acceleration on friction 0.1 is at most 0.1 g.
	g := newDriveRig(t, false, tankYAML+"    friction: 0.1\n")
	g.set(1, 1, 1, 1)
	g.run(time.Second)
	if v := g.pose(t).VX; v > 0.1*gravity*1.0001 || v < 0.09*gravity {
		t.Errorf("after 1 s at friction 0.1 the base moves at %.4f m/s; want just under %.4f", v, 0.1*gravity)
	}
}

// TestDrivePush: a sideways push beyond the floor's grip slides the base;
// one within it does not move it.
func TestDrivePush(t *testing.T) {
	for _, c := range []struct {
		force float64
		moves bool
	}{{0.5 * driveMass * gravity, false}, {2 * driveMass * gravity, true}} {
		g := newDriveRig(t, false, tankYAML)
		// A base disturbance holding its initial value: a steady push.
		if err := g.s.SetDisturbances([]Disturbance{{Base: true, Kind: DisturbForce, UpdatePeriod: 1e6, InitialY: c.force}}); err != nil {
			t.Fatal(err)
		}
		g.run(time.Second)
		p := g.pose(t)
		if moves := p.Y > 0.1; moves != c.moves {
			t.Errorf("push %.0f N: base at y %.4f m", c.force, p.Y)
		}
		// Within the grip, the tires give: the base creeps at the push
		// over their stiffness, 0.5 × tireSlip per second here.
		if !c.moves && (p.Y > 0.5*tireSlip*1.01 || p.Y < 0) {
			t.Errorf("push %.0f N within grip: base creeps to y %.5f m", c.force, p.Y)
		}
	}
	g := newDriveRig(t, false, tankYAML)
	if err := g.s.SetDisturbances([]Disturbance{{Base: true, Kind: DisturbVelocity, UpdatePeriod: 1e6, InitialX: 0.5}}); err != nil {
		t.Fatal(err)
	}
	g.run(time.Second)
	if p := g.pose(t); !near(p.X, 0.5, 1e-9) || p.VX != 0 {
		t.Errorf("a moving floor at 0.5 m/s for 1 s: pose %+v", p)
	}
}

// TestDriveSquare drives a tank base around a 2 m square, steering by the
// true pose, and integrates odometry from its encoders as a robot program
// would: the truth returns near its start; the odometry drifts from the
// truth, through the wheels' slip: far more on a slippery floor than on a
// grippy one.
func TestDriveSquare(t *testing.T) {
	slippery, slipperyYaw := driveSquare(t, 0.8)
	grippy, grippyYaw := driveSquare(t, 5)
	if slippery < 0.1 || slipperyYaw < 0.05 {
		t.Errorf("on friction 0.8, odometry stays within %.3f m and %.3f rad of the truth: the wheels never slipped", slippery, slipperyYaw)
	}
	if grippy > slippery/5 || grippyYaw > slipperyYaw/5 {
		t.Errorf("on friction 5, odometry drifts %.3f m and %.3f rad: not much less than on 0.8", grippy, grippyYaw)
	}
}

func driveSquare(t *testing.T, mu float64) (drift, yawDrift float64) {
	g := newDriveRig(t, false, tankYAML+fmt.Sprintf("    friction: %g\n", mu))
	var encs [2]hal.Encoder
	for i := range encs {
		e, err := g.s.OpenEncoder(2*i, 2*i+1, hal.X1)
		if err != nil {
			t.Fatal(err)
		}
		encs[i] = e
	}
	const side, dt = 2.0, 10 * time.Millisecond
	dpp := 0.001 * driveRadius // encoder counts are 0.001 rad of the wheel
	corners := [][2]float64{{side, 0}, {side, side}, {0, side}, {0, 0}}
	var ox, oy, oyaw float64 // odometry
	var last [2]int64
	for _, c := range corners {
		for step := 0; ; step++ {
			if step > 3000 {
				t.Fatalf("no corner %v after 30 s: pose %+v", c, g.pose(t))
			}
			p := g.pose(t)
			dx, dy := c[0]-p.X, c[1]-p.Y
			dist := math.Hypot(dx, dy)
			if dist < 0.05 {
				break
			}
			errYaw := math.Remainder(math.Atan2(dy, dx)-p.Yaw, 2*math.Pi)
			turn := max(-0.6, min(0.6, 3*errYaw))
			fwd := 0.0
			if math.Abs(errYaw) < 0.3 {
				fwd = max(0.15, min(0.8, dist)) * (1 - math.Abs(errYaw)/0.3)
			}
			l, r := fwd-turn, fwd+turn
			if m := max(math.Abs(l), math.Abs(r)); m > 1 {
				l, r = l/m, r/m
			}
			g.set(l, r, l, r)
			g.run(dt)
			var d [2]float64
			for i, e := range encs {
				n, _ := e.Count()
				d[i], last[i] = float64(n-last[i])*dpp, n
			}
			dist, dth := (d[0]+d[1])/2, (d[1]-d[0])/(2*driveHalf)
			ox += dist * math.Cos(oyaw+dth/2)
			oy += dist * math.Sin(oyaw+dth/2)
			oyaw += dth
		}
	}
	g.set(0, 0, 0, 0)
	g.run(time.Second)
	p := g.pose(t)
	home := math.Hypot(p.X, p.Y)
	drift = math.Hypot(ox-p.X, oy-p.Y)
	yawDrift = math.Abs(math.Remainder(oyaw-p.Yaw, 2*math.Pi))
	t.Logf("friction %g, after the square: truth (%.3f, %.3f, %.3f rad), %.3f m from the start; odometry (%.3f, %.3f, %.3f rad): %.3f m and %.3f rad off the truth",
		mu, p.X, p.Y, p.Yaw, home, ox, oy, oyaw, drift, yawDrift)
	if home > 0.1 {
		t.Errorf("friction %g: the truth ends %.3f m from the start, want within 0.1 m", mu, home)
	}
	return drift, yawDrift
}

// TestDriveIMUs: the IMUs on the base follow its heading, turn rate and
// acceleration, in their own frames; SetPose moves them too, and SetIMU
// takes one off the base.
func TestDriveIMUs(t *testing.T) {
	g := newDriveRig(t, false, tankYAML)
	pig, err := g.s.OpenPigeon(3, -1)
	if err != nil {
		t.Fatal(err)
	}
	g.set(-0.5, 0.5, -0.5, 0.5)
	g.run(1500 * time.Millisecond)
	p := g.pose(t)
	q, gyro, acc, _ := pig.Read()
	yaw := 2 * math.Atan2(q[3], q[0])
	if !near(math.Remainder(yaw-p.Yaw, 2*math.Pi), 0, 1e-9) || q[1] != 0 || q[2] != 0 || !near(gyro[2], p.WZ, 1e-12) || p.WZ < 1 {
		t.Errorf("pigeon: yaw %v, gyro %v; base yaw %v, turning at %v rad/s", yaw, gyro, p.Yaw, p.WZ)
	}
	// A steady spin: the body velocity u turns with the base, so a point
	// at r from the centre accelerates by w × u - w² r, in the base frame.
	ux, uy := bodyVel(p)
	if want := [2]float64{-p.WZ * uy, p.WZ * ux}; !near(acc[0], want[0], 1e-3) || !near(acc[1], want[1], 1e-3) || acc[2] != 0 {
		t.Errorf("pigeon at the centre of a steady spin feels %v, want %v", acc, want)
	}
	// The navX sits 0.2 m ahead, turned 90°: its x axis points left and
	// its y axis back, so the centripetal -w² × 0.2 m along the base's x is
	// along its +y.
	nav := g.s.sensors["navx"].imu.m
	nyaw := 2 * math.Atan2(nav.Orientation[3], nav.Orientation[0])
	if !near(math.Remainder(nyaw-p.Yaw-math.Pi/2, 2*math.Pi), 0, 1e-9) || !near(nav.AngularVelocity[2], p.WZ, 1e-12) {
		t.Errorf("navX yaw %v, turn rate %v; want the base's %v + 90°, %v", nyaw, nav.AngularVelocity, p.Yaw, p.WZ)
	}
	bx, by := -p.WZ*uy-p.WZ*p.WZ*0.2, p.WZ*ux
	if got := nav.LinearAcceleration; !near(got[0], by, 1e-3) || !near(got[1], -bx, 1e-3) || p.WZ*p.WZ*0.2 < 0.5 {
		t.Errorf("navX acceleration %v, want (%.4f, %.4f, 0)", got, by, -bx)
	}
	if err := g.s.SetPose(1, 2, 3); err != nil {
		t.Fatal(err)
	}
	if p := g.pose(t); p != (Pose{X: 1, Y: 2, Yaw: 3}) {
		t.Errorf("after SetPose: %+v", p)
	}
	if q, _, _, _ := pig.Read(); !near(2*math.Atan2(q[3], q[0]), 3, 1e-12) {
		t.Errorf("pigeon after SetPose reads %v", q)
	}
	fixed := IMU{Orientation: [4]float64{1, 0, 0, 0}}
	if err := g.s.SetIMU("pigeon", fixed); err != nil {
		t.Fatal(err)
	}
	g.run(100 * time.Millisecond)
	if q, _, _, _ := pig.Read(); q != fixed.Orientation {
		t.Errorf("pigeon set by SetIMU reads %v after a step", q)
	}
	if err := g.s.SetPose(math.NaN(), 0, 0); err == nil {
		t.Error("SetPose(NaN) succeeded")
	}
	s := newSim(t, competition(t), Options{})
	if _, ok := s.Pose(); ok && s.base == nil {
		t.Error("Pose ok without a drivetrain")
	}
}

// TestDriveErrors: New refuses drivetrains the YAML checks would refuse,
// for options that come from elsewhere (a scenario file).
func TestDriveErrors(t *testing.T) {
	r := loadRobot(t, driveURDF(true), driveYAML(true, swerveYAML))
	for _, c := range []struct {
		dt   Drivetrain
		want string
	}{
		{Drivetrain{Type: "omni"}, `type "omni" is not tank, mecanum or swerve`},
		{Drivetrain{Type: "tank", Left: []string{"lf_drive"}}, "tank needs left and right"},
		{Drivetrain{Type: "tank", Left: []string{"lf_drive"}, Right: []string{"lf_drive"}}, `"lf_drive" is named twice`},
		{Drivetrain{Type: "tank", Left: []string{"lf_drive"}, Right: []string{"nope"}}, `"nope" is no movable URDF joint`},
		{Drivetrain{Type: "tank", Left: []string{"lf_steer"}, Right: []string{"rf_drive"}}, `wheel joint "lf_steer" turns about a vertical axis`},
		{Drivetrain{Type: "mecanum", FrontLeft: "lf_drive", FrontRight: "rf_drive", RearLeft: "lr_drive"}, `"" is no movable URDF joint`},
		{Drivetrain{Type: "swerve", Drive: []string{"lf_drive"}, Steer: []string{"lf_steer"}}, "4 drive and 4 steer joints, not 1 and 1"},
		{Drivetrain{Type: "swerve", Drive: []string{"lf_drive", "rf_drive", "lr_drive", "rr_drive"}, Steer: []string{"lf_steer", "rf_steer", "lr_steer", "lf_drive"}}, `steer joint "lf_drive" is no movable URDF joint or is named twice`},
		{Drivetrain{Type: "tank", Left: []string{"lf_drive"}, Right: []string{"rf_drive"}, Mass: math.NaN()}, "values must be positive"},
		{Drivetrain{Type: "tank", Left: []string{"lf_drive"}, Right: []string{"rf_drive"}, Friction: -1}, "values must be positive"},
	} {
		if _, err := New(r, Options{Drivetrain: &c.dt}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.dt, err, c.want)
		}
	}
}

// TestDriveStable: the example robot's tank drive at full voltage, back
// and forth and spinning, at 1 ms steps, stays finite and within its
// free speed.
func TestDriveStable(t *testing.T) {
	r := competition(t)
	s := newSim(t, r, ConfigOptions(r.Config, 1, false))
	if s.base == nil {
		t.Fatal("the example robot has no drivetrain")
	}
	s.SetDS(enabled)
	right, _ := s.OpenPWM(0)
	rear, _ := s.OpenPWM(1)
	lf, _ := s.OpenCANMotor(frc.TalonSRX, 1)
	lr, _ := s.OpenCANMotor(frc.VictorSPX, 2)
	now := time.Duration(0)
	for i := 0; i < 600; i++ {
		l, rr := 1.0, 1.0
		switch (i / 100) % 3 {
		case 1:
			l, rr = -1, -1
		case 2:
			l, rr = -1, 1
		}
		_ = lf.SetDuty(l)
		_ = lr.SetDuty(l)
		// Inverted on the right (the driver negates, so does the plant).
		_ = right.SetPulse(frc.PWMSpark.Pulse(-rr))
		_ = rear.SetPulse(frc.PWMVictorSP.Pulse(-rr))
		now += 10 * time.Millisecond
		s.AdvanceTo(now)
		p, _ := s.Pose()
		for _, v := range []float64{p.X, p.Y, p.Yaw, p.VX, p.VY, p.WZ} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("step %d: pose %+v", i, p)
			}
		}
		if v := math.Hypot(p.VX, p.VY); v > 6 {
			t.Fatalf("step %d: base at %.2f m/s", i, v)
		}
		for _, w := range s.base.wheels {
			if math.Abs(w.j.vel) > 1.01*w.j.motor.free/w.j.gear*defaultVoltage/12 {
				t.Fatalf("step %d: wheel %s at %.2f rad/s, beyond its free speed", i, w.j.name, w.j.vel)
			}
		}
	}
	p, _ := s.Pose()
	t.Logf("after 6 s of full-voltage driving: %+v", p)
}
