package control

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

// limitsURDF: joints with limits (arm -1..2 rad, 1 rad/s, 1 N·m; hood
// 0..0.8 rad as a scorpion's hood; wrist -0.5..0.5 on a servo whose range
// is -1..0.3; lift 0..1 m on a device loop; turret ±1.5 rad), continuous
// wheels for the drive bases, and outputs that drive no joint.
const limitsURDF = `<robot name="limits">
  <link name="base"/><link name="a"/><link name="h"/><link name="w"/><link name="l"/><link name="t"/><link name="s"/>
  <link name="lw"/><link name="rw"/><link name="m1"/><link name="m2"/><link name="m3"/><link name="m4"/>
  <link name="av"/><link name="ef"/><link name="tj"/><link name="g1"/><link name="g2"/><link name="c"/><link name="f"/>
  <link name="st1"/><link name="st2"/><link name="st3"/><link name="st4"/><link name="dr1"/><link name="dr2"/><link name="dr3"/><link name="dr4"/>
  <joint name="arm" type="revolute"><parent link="base"/><child link="a"/><limit lower="-1" upper="2" effort="1" velocity="1"/><sensor name="arm_enc"/></joint>
  <joint name="volts" type="revolute"><parent link="base"/><child link="av"/><limit lower="-1" upper="2" effort="1" velocity="1"/></joint>
  <joint name="effort" type="revolute"><parent link="base"/><child link="ef"/><limit lower="-1" upper="1" effort="2" velocity="1"/></joint>
  <joint name="tj" type="revolute"><parent link="base"/><child link="tj"/><limit lower="-0.7" upper="1.2" effort="1" velocity="1"/></joint>
  <joint name="g1" type="continuous"><parent link="base"/><child link="g1"/></joint>
  <joint name="g2" type="continuous"><parent link="base"/><child link="g2"/></joint>
  <joint name="claw" type="revolute"><parent link="base"/><child link="c"/><limit lower="0" upper="1" effort="1" velocity="1"/></joint>
  <joint name="flap" type="prismatic"><parent link="base"/><child link="f"/><limit lower="0" upper="0.3" effort="1" velocity="1"/></joint>
  <joint name="hood" type="revolute"><parent link="base"/><child link="h"/><limit lower="0" upper="0.8" effort="1" velocity="1"/></joint>
  <joint name="wrist" type="revolute"><parent link="base"/><child link="w"/><limit lower="-0.5" upper="0.5" effort="1" velocity="1"/></joint>
  <joint name="lift" type="prismatic"><parent link="base"/><child link="l"/><limit lower="0" upper="1" effort="10" velocity="2"/></joint>
  <joint name="turret" type="revolute"><parent link="base"/><child link="t"/><limit lower="-1.5" upper="1.5" effort="5" velocity="3"/></joint>
  <joint name="spin" type="continuous"><parent link="base"/><child link="s"/><limit effort="5" velocity="50"/></joint>
  <joint name="left" type="continuous"><parent link="base"/><child link="lw"/><origin xyz="0 0.3 0"/><axis xyz="0 1 0"/></joint>
  <joint name="right" type="continuous"><parent link="base"/><child link="rw"/><origin xyz="0 -0.3 0"/><axis xyz="0 1 0"/></joint>
  <joint name="fl" type="continuous"><parent link="base"/><child link="m1"/><origin xyz="0.3 0.3 0"/><axis xyz="0 1 0"/></joint>
  <joint name="fr" type="continuous"><parent link="base"/><child link="m2"/><origin xyz="0.3 -0.3 0"/><axis xyz="0 1 0"/></joint>
  <joint name="rl" type="continuous"><parent link="base"/><child link="m3"/><origin xyz="-0.3 0.3 0"/><axis xyz="0 1 0"/></joint>
  <joint name="rr" type="continuous"><parent link="base"/><child link="m4"/><origin xyz="-0.3 -0.3 0"/><axis xyz="0 1 0"/></joint>
  <joint name="s1" type="continuous"><parent link="base"/><child link="st1"/><origin xyz="0.3 0.3 0"/><axis xyz="0 0 1"/></joint>
  <joint name="s2" type="continuous"><parent link="base"/><child link="st2"/><origin xyz="0.3 -0.3 0"/><axis xyz="0 0 1"/></joint>
  <joint name="s3" type="continuous"><parent link="base"/><child link="st3"/><origin xyz="-0.3 0.3 0"/><axis xyz="0 0 1"/></joint>
  <joint name="s4" type="continuous"><parent link="base"/><child link="st4"/><origin xyz="-0.3 -0.3 0"/><axis xyz="0 0 1"/></joint>
  <joint name="d1" type="continuous"><parent link="st1"/><child link="dr1"/><axis xyz="0 1 0"/></joint>
  <joint name="d2" type="continuous"><parent link="st2"/><child link="dr2"/><axis xyz="0 1 0"/></joint>
  <joint name="d3" type="continuous"><parent link="st3"/><child link="dr3"/><axis xyz="0 1 0"/></joint>
  <joint name="d4" type="continuous"><parent link="st4"/><child link="dr4"/><axis xyz="0 1 0"/></joint>
</robot>`

const limitsDevices = `joints:
  - {name: pdp, type: pdp, id: 0}
  - {name: arm, type: talon, id: 0}
  - {name: volts, type: talon, id: 3}
  - {name: effort, type: talon, id: 4, pdp_ch: 3, k_eff: 2}
  - {name: tj, type: talon_fx, id: 20}
  - {name: g1, type: talon, id: 5}
  - {name: g2, type: talon, id: 6}
  - {name: arm_enc, type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 0.01}
  - {name: hood, type: servo, id: 1}
  - {name: wrist, type: servo, id: 2, min_angle: -1, max_angle: 0.3}
  - {name: lift, type: talon_fx, id: 1, closed_loop: device, kp: 2}
  - {name: turret, type: talon_fx, id: 2}
  - {name: spin, type: talon_fx, id: 3, closed_loop: device, kv: 0.1}
  - {name: left, type: talon_fx, id: 4, closed_loop: device, kv: 0.1}
  - {name: right, type: talon_fx, id: 5, closed_loop: device, kv: 0.1}
  - {name: fl, type: talon_fx, id: 6}
  - {name: fr, type: talon_fx, id: 7}
  - {name: rl, type: talon_fx, id: 8}
  - {name: rr, type: talon_fx, id: 9}
  - {name: s1, type: talon_fx, id: 10}
  - {name: s2, type: talon_fx, id: 11}
  - {name: s3, type: talon_fx, id: 12}
  - {name: s4, type: talon_fx, id: 13}
  - {name: d1, type: talon_fx, id: 14}
  - {name: d2, type: talon_fx, id: 15}
  - {name: d3, type: talon_fx, id: 16}
  - {name: d4, type: talon_fx, id: 17}
  - {name: claw, type: solenoid, id: 2}
  - {name: flap, type: double_solenoid, forward_id: 0, reverse_id: 1}
  - {name: hatch, type: relay, relay_id: 0, direction: both}
  - {name: compressor, type: compressor, pcm_id: 0}
  - {name: light, type: digital_output, dio_channel: 5}
  - {name: gauge, type: analog_output, aout_channel: 0, scale: 100, offset: 20}
  - {name: strip, type: addressable_led, dio_channel: 6, length: 8}
controllers:
`

// limitsControllers: one controller of every registered type on the
// robot above (TestCommandLimits fails for a type missing here).
var limitsControllers = map[string]string{
	config.JointVoltageController:               "{name: arm_volts, type: %s, joint: volts}",
	config.JointGroupVoltage:                    "{name: wheels_volts, type: %s, joints: [g1, g2]}",
	config.JointPositionController:              "{name: arm_pos, type: %s, joint: arm, pid: {p: 20, d: 1}, max_voltage: 24}",
	config.JointVelocityController:              "{name: spin_vel, type: %s, joint: spin}",
	config.JointEffortController:                "{name: arm_eff, type: %s, joint: effort, pid: {p: 3}}",
	config.ServoPositionController:              "{name: hood_position, type: %s, joint: hood}",
	config.ProfiledPositionController:           "{name: turret_goal, type: %s, joint: turret, pid: {p: 10}, max_acceleration: 6}",
	config.JointStateController:                 "{name: js, type: %s}",
	imuSensorType.Config.Name:                   "",
	config.SolenoidController:                   "{name: claw_c, type: %s, joint: claw}",
	config.DoubleSolenoidController:             "{name: flap_c, type: %s, joint: flap}",
	config.RelayController:                      "{name: hatch_c, type: %s, joint: hatch}",
	config.CompressorController:                 "{name: comp_c, type: %s, joint: compressor}",
	config.DigitalOutputController:              "{name: light_c, type: %s, joint: light}",
	config.AnalogOutputController:               "{name: gauge_c, type: %s, joint: gauge}",
	config.LEDColorController:                   "{name: strip_c, type: %s, joint: strip}",
	jointTrajectoryType.Config.Name:             "{name: traj, type: %s, joints: [tj, lift], pid: {p: 20, d: 1}}",
	"diff_drive_controller/DiffDriveController": "{name: diff, type: %s, left_wheel: [left], right_wheel: [right], wheel_radius: 0.05, wheel_pid: {p: 0.2, f: 0.25}}",
	"frcd_controllers/MecanumDriveController":   "{name: mecanum, type: %s, front_left: fl, front_right: fr, rear_left: rl, rear_right: rr, wheel_radius: 0.05, wheel_pid: {p: 0.2, f: 0.25}}",
	"frcd_controllers/SwerveDriveController":    "{name: swerve, type: %s, drive: [d1, d2, d3, d4], steer: [s1, s2, s3, s4], wheel_radius: 0.05, steer_pid: {p: 8}, wheel_pid: {p: 0.1, f: 0.12}}",
}

// limitsRig is the robot above with every command handle its devices
// would register (every interface, for every device: the controllers
// claim theirs) and every state they would offer.
type limitsRig struct {
	l       *Loop
	r       *robot.Robot
	cmds    map[string]*interfaces.JointCommand // by Key(name, iface)
	rates   map[string]*interfaces.RateState
	analogs map[string]*interfaces.AnalogState
}

func newLimitsRig(t *testing.T) *limitsRig {
	t.Helper()
	yaml := limitsDevices
	for name, typ := range types {
		entry, ok := limitsControllers[name]
		if !ok {
			t.Errorf("controller type %s has no controller in limitsControllers: its command paths are not checked", name)
			continue
		}
		if typ.family != familyNone || entry != "" {
			yaml += "  - " + fmt.Sprintf(entry, name) + "\n"
		}
	}
	u, ul := urdf.Parse("limits.urdf", []byte(limitsURDF))
	c, cl := config.Parse("limits.yaml", []byte(yaml))
	r, xl := robot.Check(u, c)
	if ul.Errors()+cl.Errors()+xl.Errors() > 0 {
		t.Fatalf("robot: %v %v %v\n%s", ul, cl, xl, yaml)
	}
	g := &limitsRig{r: r, cmds: map[string]*interfaces.JointCommand{}, rates: map[string]*interfaces.RateState{}, analogs: map[string]*interfaces.AnalogState{}}
	reg := interfaces.NewRegistry()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	var log []string
	var devs []Device
	for _, d := range r.Config.Devices {
		for _, iface := range []string{interfaces.Voltage, interfaces.Position, interfaces.Velocity, interfaces.Analog} {
			h := &interfaces.JointCommand{}
			g.cmds[interfaces.Key(d.Name, iface)] = h
			must(interfaces.RegisterCommand(reg, d.Name, d.Name, iface, h))
		}
		must(interfaces.RegisterCommand(reg, d.Name, d.Name, interfaces.Binary, &interfaces.BinaryCommand{}))
		must(interfaces.RegisterCommand(reg, d.Name, d.Name, interfaces.Ternary, &interfaces.TernaryCommand{}))
		rate, an := &interfaces.RateState{}, &interfaces.AnalogState{}
		g.rates[d.Name], g.analogs[d.Name] = rate, an
		must(interfaces.RegisterState(reg, d.Name, interfaces.Rate, rate))
		must(interfaces.RegisterState(reg, d.Name, interfaces.Analog, an))
		must(interfaces.RegisterState(reg, d.Name, interfaces.Position, an))
		for _, iface := range []string{interfaces.Voltage, interfaces.Effort} {
			must(interfaces.RegisterState(reg, d.Name, iface, &interfaces.AnalogState{}))
		}
		must(interfaces.RegisterState(reg, d.Name, interfaces.Binary, &interfaces.BinaryState{}))
		must(interfaces.RegisterState(reg, d.Name, interfaces.Ternary, &interfaces.TernaryState{}))
		must(interfaces.RegisterState(reg, d.Name, interfaces.PDP, &interfaces.PDPState{}))
		must(interfaces.RegisterState(reg, d.Name, interfaces.Compressor, &interfaces.CompressorState{}))
		devs = append(devs, &fakeDev{name: d.Name, log: &log, quiet: true})
	}
	l, err := New(r, reg, devs, &fakeDS{hal.DSState{Enabled: true, Attached: true}}, Options{})
	must(err)
	g.l = l
	return g
}

// limitsOf is what the test holds joint name's position and velocity to:
// the URDF's limits within a servo's range, its velocity limit (without
// them, ±MaxJointPosition and ±MaxJointVelocity); the test's own reading
// of the robot, not ranges.go's.
func (g *limitsRig) limitsOf(name string) (pos, vel [2]float64, ok bool) {
	pos, vel = [2]float64{-MaxJointPosition, MaxJointPosition}, [2]float64{-MaxJointVelocity, MaxJointVelocity}
	var uj *urdf.Joint
	for _, j := range g.r.Joints {
		if j.Name == name {
			uj = j.URDF
		}
	}
	if uj == nil {
		return pos, vel, false
	}
	if uj.HasLimits() {
		pos = [2]float64{uj.Limit.Lower, uj.Limit.Upper}
	}
	if uj.Limit != nil && uj.Limit.Velocity > 0 {
		vel = [2]float64{-uj.Limit.Velocity, uj.Limit.Velocity}
	}
	if d := g.r.Config.Device(name); d != nil && d.Type.Name == "servo" {
		a, b := d.Float("min_angle"), d.Float("max_angle")
		pos = [2]float64{max(pos[0], min(a, b)), min(pos[1], max(a, b))}
	}
	return pos, vel, true
}

// randomCommand is a command for a joint whose limits span lo..hi: in
// range, just past it, far past it, absurd, or not finite.
func randomCommand(rng *rand.Rand, lo, hi float64) float64 {
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || hi-lo > 1e3 {
		lo, hi = -3, 3
	}
	span := hi - lo
	switch rng.IntN(8) {
	case 0, 1, 2:
		return lo + rng.Float64()*span
	case 3:
		return hi + rng.Float64()*0.1*span
	case 4:
		return lo - rng.Float64()*0.1*span
	case 5:
		return (rng.Float64()*2 - 1) * 10 * (math.Abs(lo) + math.Abs(hi) + 1)
	case 6:
		return []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[rng.IntN(3)]
	}
	// 1e39: finite as a float64, ±Inf as a float32 (a SPARK's set point)
	return []float64{1e300, -1e300, 1e39, -1e39, 5, -5}[rng.IntN(6)]
}

// TestCommandLimits drives every registered controller type through every
// command path it offers (Command, CommandGroup, CommandJoints,
// FollowTrajectory) with random commands, in range, past the joint's
// limits, absurd and not finite, while the measured positions wander
// over (and past) the limits; after every cycle no position or velocity
// command handle of a joint, and no PID's set point, is past the joint's
// URDF limits (and a servo's range), and no voltage past the battery's
// plausible ±16 V.
func TestCommandLimits(t *testing.T) {
	g := newLimitsRig(t)
	rng := rand.New(rand.NewPCG(36, 1))
	now := time.Duration(0)
	const cycles = 3000
	for cycle := range cycles {
		now += 10 * time.Millisecond
		for name, r := range g.rates {
			pos, _, _ := g.limitsOf(name)
			lo, hi := pos[0], pos[1]
			if math.IsInf(lo, 0) {
				lo, hi = -3, 3
			}
			*r = interfaces.RateState{State: lo - 0.2 + rng.Float64()*(hi-lo+0.4), Rate: rng.Float64()*4 - 2}
			g.analogs[name].Value = r.State
		}
		for _, c := range g.l.Controllers() {
			g.command(t, rng, c, now)
		}
		g.l.Cycle(now)
		for key, h := range g.cmds {
			if !h.Set {
				continue
			}
			name, iface := splitKey(key)
			pos, vel, joint := g.limitsOf(name)
			// every value a device may put on the wire as a float32 (a
			// SPARK's set point) is one: never ±Inf there
			bad := !interfaces.Finite(h.Value) || math.Abs(h.Value) > math.MaxFloat32
			switch {
			case iface == interfaces.Position && joint:
				bad = bad || h.Value < pos[0]-1e-12 || h.Value > pos[1]+1e-12
			case iface == interfaces.Velocity && joint:
				bad = bad || h.Value < vel[0]-1e-12 || h.Value > vel[1]+1e-12
			case iface == interfaces.Voltage:
				bad = bad || math.Abs(h.Value) > MaxCommandVolts
			}
			if bad {
				t.Fatalf("cycle %d: %s = %v, past its limits (position %v, velocity %v)", cycle, key, h.Value, pos, vel)
			}
		}
		for _, c := range g.l.Controllers() {
			if c.joint == nil || !c.st.Active || c.device && c.kind == kindVelocity {
				continue
			}
			pos, vel, _ := g.limitsOf(c.Joints[0])
			lim := pos
			switch c.kind {
			case kindVelocity:
				lim = vel
			case kindEffort:
				lim = [2]float64{-c.joint.maxEffort, c.joint.maxEffort}
			}
			if c.continuous {
				continue
			}
			if sp := c.st.SetPoint; sp < lim[0]-1e-12 || sp > lim[1]+1e-12 {
				t.Fatalf("cycle %d: %s's set point %v is past its joint's limits %v", cycle, c.Name, sp, lim)
			}
		}
	}
	var clamped, refused uint64
	for _, c := range g.l.Controllers() {
		clamped += c.Clamped()
		refused += c.Refused()
	}
	t.Logf("%d cycles: %d commands refused, %d clamped by their controller, %d handle values held by the loop", cycles, refused, clamped, g.l.Stats().Clamped)
	if refused == 0 || clamped == 0 {
		t.Errorf("refused %d, clamped %d: the random commands should have needed both", refused, clamped)
	}
}

// command sends c a random command on each of its paths.
func (g *limitsRig) command(t *testing.T, rng *rand.Rand, c *Controller, now time.Duration) {
	lim := func(j string) (float64, float64) {
		pos, _, _ := g.limitsOf(j)
		return pos[0], pos[1]
	}
	switch c.Takes() {
	case JointTrajectory:
		if rng.IntN(20) != 0 {
			return
		}
		tr := &Trajectory{Joints: c.Joints}
		n := 1 + rng.IntN(3)
		for i := range n {
			p := TrajectoryPoint{Time: float64(i+1) * (0.1 + rng.Float64())}
			for _, j := range c.Joints {
				lo, hi := lim(j)
				p.Positions = append(p.Positions, randomCommand(rng, lo, hi))
				p.Velocities = append(p.Velocities, rng.Float64()*20-10)
			}
			tr.Points = append(tr.Points, p)
		}
		_, _ = c.FollowTrajectory(tr, now)
	case Float64Array:
		vs := make([]float64, max(c.Width(), 1))
		for i := range vs {
			vs[i] = randomCommand(rng, -12, 12)
		}
		_ = c.CommandGroup(vs, now)
	case Twist:
		// m/s and rad/s: in range, near the bounds, absurd (1e39), not finite
		vs := []float64{randomCommand(rng, -120, 120), randomCommand(rng, -120, 120), randomCommand(rng, -1200, 1200)}
		err := c.CommandGroup(vs, now)
		beyond := math.Abs(vs[0]) > MaxTwistLinear || math.Abs(vs[1]) > MaxTwistLinear || math.Abs(vs[2]) > MaxTwistAngular
		if beyond && !errors.Is(err, ErrRefused) {
			t.Fatalf("%s took twist %v (beyond ±%g m/s, ±%g rad/s): %v", c.Name, vs, MaxTwistLinear, MaxTwistAngular, err)
		}
	default:
		lo, hi := lim(c.Joints[0])
		if c.kind == kindVelocity || c.kind == kindEffort {
			lo, hi = -c.joint.maxVelocity, c.joint.maxVelocity
		}
		if rng.IntN(2) == 0 {
			_ = c.Command(randomCommand(rng, lo, hi), now)
		} else if c.ForwardTopic() != "" {
			_ = c.CommandJoints([]float64{randomCommand(rng, lo, hi)}, now)
		}
	}
}

func splitKey(key string) (name, iface string) {
	for i := len(key) - 1; i >= 0; i-- {
		if key[i] == '/' {
			return key[:i], key[i+1:]
		}
	}
	return key, ""
}

// TestLoopHoldsHandles: whatever a controller writes, the loop holds a
// joint's position handle to the joint's limits within the servo's range
// before the devices write, and counts it (the backstop behind
// Controller.Command's own clamp, here taken away).
func TestLoopHoldsHandles(t *testing.T) {
	g := newLimitsRig(t)
	c := g.l.Controller("hood_position")
	c.valid, c.limit = anyValue, anyValue
	if err := c.Command(5, 10*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	g.l.Cycle(10 * time.Millisecond)
	if h := g.cmds["hood/position"]; h.Value != 0.8 || g.l.Stats().Clamped != 1 {
		t.Errorf("hood/position %v, %d held; want 0.8, 1", h.Value, g.l.Stats().Clamped)
	}
}

// TestHugeTwistRefused: a twist of 1e39 m/s (finite, ±Inf as the float32
// a SPARK's set point carries) was taken and its wheels' device loops
// got 2e40 rad/s. A twist beyond ±MaxTwistLinear m/s or
// ±MaxTwistAngular rad/s is refused and counted, on every drive base;
// one within is taken.
func TestHugeTwistRefused(t *testing.T) {
	g := newLimitsRig(t)
	for _, name := range []string{"diff", "mecanum", "swerve"} {
		c := g.l.Controller(name)
		for _, tw := range [][]float64{{1e39, 0, 0}, {0, -1e39, 0}, {0, 0, 1e39}, {MaxTwistLinear * 1.01, 0, 0}, {0, 0, -MaxTwistAngular * 1.01}} {
			before := c.Refused()
			if err := c.CommandGroup(tw, 10*time.Millisecond); !errors.Is(err, ErrRefused) || c.Refused() != before+1 {
				t.Errorf("%s: twist %v: %v, refused %d → %d; want ErrRefused, counted", name, tw, err, before, c.Refused())
			}
		}
		if err := c.CommandGroup([]float64{MaxTwistLinear, 0, MaxTwistAngular}, 10*time.Millisecond); err != nil {
			t.Errorf("%s: a twist at the bounds: %v", name, err)
		}
	}
}

// TestLoopHoldsUnlimitedVelocity: a wheel joint without a URDF velocity
// limit (continuous, no <limit>) driven by its device's loop: whatever
// the drive base writes (its twist check taken away here), the loop
// holds the velocity handle to ±MaxJointVelocity, never a value a
// float32 makes +Inf.
func TestLoopHoldsUnlimitedVelocity(t *testing.T) {
	g := newLimitsRig(t)
	c := g.l.Controller("diff")
	c.fieldValid = nil
	if err := c.CommandGroup([]float64{1e39, 0, 0}, 10*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	g.l.Cycle(10 * time.Millisecond)
	for _, key := range []string{"left/velocity", "right/velocity"} {
		if h := g.cmds[key]; !h.Set || math.Abs(h.Value) != MaxJointVelocity {
			t.Errorf("%s = %v (set %v); want ±%g", key, h.Value, h.Set, MaxJointVelocity)
		}
	}
	if g.l.Stats().Clamped == 0 {
		t.Error("the held handles were not counted")
	}
}

// TestTrajectoryGoalLandingAtTimeout: a goal that lands while the loop
// expires a timed-out one (after update read the command's stamp, before
// the halt) was aborted with it as "disabled, e-stopped or stopped" on
// an enabled robot. The timed-out goal is aborted as timed out; the new
// one is left for the next cycle, which runs it.
func TestTrajectoryGoalLandingAtTimeout(t *testing.T) {
	g := newLimitsRig(t)
	c := g.l.Controller("traj")
	c.timeout = 100 * time.Millisecond
	for _, name := range []string{"tj", "lift"} {
		*g.rates[name] = interfaces.RateState{State: 0.5}
	}
	goal := func(now time.Duration) uint64 {
		id, err := c.FollowTrajectory(&Trajectory{Joints: c.Joints, Points: []TrajectoryPoint{{Time: 5, Positions: []float64{0.6, 0.6}}}}, now)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	first := goal(10 * time.Millisecond)
	g.l.Cycle(20 * time.Millisecond)
	if done, _, _, msg := c.TrajectoryResult(first); done {
		t.Fatalf("the first goal ended at once: %s", msg)
	}
	var second uint64
	at := 200 * time.Millisecond // past the first goal's timeout
	c.afterRead = func() {
		c.afterRead = nil
		second = goal(at)
	}
	g.l.Cycle(at)
	if done, _, _, msg := c.TrajectoryResult(first); !done || msg != msgTimeout {
		t.Errorf("the timed-out goal: done %v, %q; want %q", done, msg, msgTimeout)
	}
	if done, _, _, msg := c.TrajectoryResult(second); done {
		t.Fatalf("the goal that landed at the timeout ended: %q", msg)
	}
	g.l.Cycle(at + 10*time.Millisecond)
	if done, _, _, msg := c.TrajectoryResult(second); done {
		t.Errorf("the goal that landed at the timeout ended on the next cycle: %q", msg)
	}
	if !g.cmds["tj/voltage"].Set && !g.cmds["tj/position"].Set {
		t.Error("the new goal drives nothing")
	}
}
