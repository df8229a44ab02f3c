package control_test

// The profiled position controller on the deterministic sim: the loop
// over real drivers and the sim's plants, stepped by the daemon.

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

const profiledURDF = `<robot name="p">
  <link name="base"/><link name="arm"/><link name="table"/>
  <joint name="arm_joint" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 1 0"/>
    <limit lower="-0.5" upper="2.0" effort="100" velocity="3"/><sensor name="arm_encoder" type="encoder"/></joint>
  <joint name="table_joint" type="continuous"><parent link="base"/><child link="table"/><axis xyz="0 0 1"/>
    <limit effort="100" velocity="2"/><sensor name="table_encoder" type="encoder"/></joint>
</robot>`

// The arm: a 775pro through 200:1 turning 0.5 kg·m², with a 0.001 rad
// encoder; its free speed at 12 V is about 9.8 rad/s, so about 1.22 V per
// rad/s holds a speed (pid.f).
const profiledYAML = `joints:
  - {name: arm_joint, type: talon_srx, id: 1}
  - {name: arm_encoder, type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 0.001}
  - {name: table_joint, type: can_victor_spx, id: 2}
  - {name: table_encoder, type: encoder, ch_a: 2, ch_b: 3, dist_per_pulse: 0.001}
controllers:
  arm: {type: frcd_controllers/ProfiledPositionController, joint: arm_joint, pid: {p: 60, i: 20, d: 1, i_clamp: 1, f: 1.22}, max_acceleration: 10, tolerance: 0.01}
  table: {type: frcd_controllers/ProfiledPositionController, joint: table_joint, pid: {p: 60, i: 20, d: 1, i_clamp: 1, f: 1.22}, max_velocity: 1.5, max_acceleration: 4}
loop: {rate_hz: 200}
sim:
  joints:
    - {name: arm_joint, motor: 775pro, gearing: 200, inertia: 0.5}
    - {name: table_joint, motor: 775pro, gearing: 200, inertia: 0.5}
`

const (
	armVmax, armAmax = 3.0, 10.0 // the URDF limit, and max_acceleration
	dt               = 0.005     // 200 Hz
)

func profiledRobot(t testing.TB, yaml string) *daemon.Daemon {
	t.Helper()
	u, ul := urdf.Parse("p.urdf", []byte(profiledURDF))
	c, cl := config.Parse("p.yaml", []byte(yaml))
	r, xl := robot.Check(u, c)
	if ul.Errors()+cl.Errors()+xl.Errors() > 0 {
		t.Fatalf("robot: %v %v %v", ul, cl, xl)
	}
	d, err := daemon.NewSim(r, daemon.SimOptions{Enabled: true}, daemon.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// mover steps a daemon and checks, every cycle, a joint's setpoint
// (within the limits exactly) and its true motion (within a tracking
// margin).
type mover struct {
	t        *testing.T
	d        *daemon.Daemon
	ctl      *control.Controller
	joint    string
	vmax     float64
	amax     float64
	spVel    float64 // the last cycle's
	truthVel float64
	moving   bool
	maxErr   float64 // the largest |truth - setpoint| seen while moving
	maxV     float64 // the largest true |velocity| seen
	maxA     float64 // the largest true |acceleration| seen, cycle to cycle
}

func newMover(t *testing.T, d *daemon.Daemon, name, joint string, vmax, amax float64) *mover {
	return &mover{t: t, d: d, ctl: d.Loop.Controller(name), joint: joint, vmax: vmax, amax: amax}
}

// Tracking margins for the truth. The controller has no acceleration
// feedforward, so the PID makes the torque each phase of the profile needs
// from the tracking error: at each corner of the profile, where the
// commanded acceleration steps by up to 2 amax, the joint lags until the
// error has grown enough, then catches up. The lag stays under trackErr
// (measured: at most 0.0066 rad, with the encoder's 0.001 rad steps). The
// PID's correction at a corner is about p × 0.005 rad = 0.3 V, and the
// plant (a 775pro through 200:1 on 0.5 kg·m², kt × G / R / J) turns a volt
// into 23.7 rad/s²: the true acceleration may exceed the profile's by
// accMargin for the cycles it takes to close the lag (about 20 ms), and
// the velocity by what that adds up to, velMargin.
const (
	trackErr  = 0.01 // rad
	accMargin = 7.0  // rad/s²: 23.7 rad/s² per V × 0.3 V
	velMargin = 0.15 // rad/s: 7 rad/s² × 20 ms
)

func (m *mover) step(n int) {
	m.t.Helper()
	for i := 0; i < n; i++ {
		m.d.Step()
		sp, v, moving := m.ctl.Setpoint()
		tr, _ := m.d.Sim.Joint(m.joint)
		if moving && m.moving {
			if math.Abs(v) > m.vmax+1e-9 {
				m.t.Fatalf("t=%v: setpoint velocity %v beyond %v", m.d.Now(), v, m.vmax)
			}
			if a := math.Abs(v-m.spVel) / dt; a > m.amax*(1+1e-9) {
				m.t.Fatalf("t=%v: setpoint acceleration %v beyond %v", m.d.Now(), a, m.amax)
			}
			m.maxErr = math.Max(m.maxErr, math.Abs(tr.Position-sp))
			m.maxV = math.Max(m.maxV, math.Abs(tr.Velocity))
			m.maxA = math.Max(m.maxA, math.Abs(tr.Velocity-m.truthVel)/dt)
		}
		m.spVel, m.truthVel, m.moving = v, tr.Velocity, moving
	}
}

// checkTruth checks the true motion so far against the margins.
func (m *mover) checkTruth() {
	m.t.Helper()
	m.t.Logf("%s: largest tracking error %.4f, velocity %.3f (limit %v), acceleration %.3f (limit %v)", m.joint, m.maxErr, m.maxV, m.vmax, m.maxA, m.amax)
	if m.maxErr > trackErr {
		m.t.Errorf("tracking error %v beyond %v", m.maxErr, trackErr)
	}
	if m.maxV > m.vmax+velMargin {
		m.t.Errorf("true velocity %v beyond %v + %v", m.maxV, m.vmax, velMargin)
	}
	if m.maxA > m.amax+accMargin {
		m.t.Errorf("true acceleration %v beyond %v + %v", m.maxA, m.amax, accMargin)
	}
}

func (m *mover) goal(v float64) {
	m.t.Helper()
	if err := m.ctl.Command(v, m.d.Now()); err != nil {
		m.t.Fatal(err)
	}
}

func truth(t *testing.T, d *daemon.Daemon, joint string) (pos, vel, volts float64) {
	t.Helper()
	tr, ok := d.Sim.Joint(joint)
	if !ok {
		t.Fatalf("no joint %s", joint)
	}
	return tr.Position, tr.Velocity, tr.Voltage
}

// seconds is a number of cycles.
func seconds(s float64) int { return int(math.Round(s / dt)) }

// TestProfiledMove: a 1.5 rad move at 3 rad/s (the URDF's limit) and 10
// rad/s² (0.3 s up to speed, 0.2 s cruising, 0.3 s braking) keeps the
// setpoint within the limits at every cycle and the arm within a small
// margin of it, arrives within tolerance, says so, and holds.
func TestProfiledMove(t *testing.T) {
	d := profiledRobot(t, profiledYAML)
	m := newMover(t, d, "arm", "arm_joint", armVmax, armAmax)
	m.step(10)
	if _, _, moving := m.ctl.Setpoint(); moving {
		t.Fatal("moving before any goal")
	}
	m.goal(1.5)
	m.step(seconds(0.4))
	if _, v, _ := m.ctl.Setpoint(); v != armVmax {
		t.Errorf("mid-move setpoint velocity %v, want the limit %v (a trapezoid)", v, armVmax)
	}
	if _, _, reached, _ := m.ctl.Goal(); reached {
		t.Error("reached mid-move")
	}
	m.step(seconds(0.4)) // the plan starts on the cycle after the command: 0.795 s along
	if _, v, _ := m.ctl.Setpoint(); v == 0 {
		t.Errorf("at rest a cycle early")
	}
	m.step(1)
	if sp, v, _ := m.ctl.Setpoint(); sp != 1.5 || v != 0 {
		t.Errorf("setpoint %v, %v after 0.8 s, want the goal at rest", sp, v)
	}
	m.step(seconds(0.5))
	m.checkTruth()
	pos, vel, _ := truth(t, d, "arm_joint")
	if math.Abs(pos-1.5) > 0.01 || math.Abs(vel) > 0.05 {
		t.Errorf("arm at %v rad, %v rad/s; want 1.5 within 0.01, at rest", pos, vel)
	}
	goal, held, reached, ok := m.ctl.Goal()
	if goal != 1.5 || !held || !reached || !ok {
		t.Errorf("Goal() = %v, %v, %v, %v; want 1.5 held and reached", goal, held, reached, ok)
	}
	// A goal holds: no timeout by default.
	m.step(seconds(3))
	if pos, _, _ := truth(t, d, "arm_joint"); math.Abs(pos-1.5) > 0.01 {
		t.Errorf("after holding 3 s the arm is at %v", pos)
	}
	if st := d.Loop.Stats(); st.Stale != 0 || st.NoFeedback != 0 {
		t.Errorf("stale %d, no feedback %d", st.Stale, st.NoFeedback)
	}
	if m.ctl.Timeout() != 0 {
		t.Errorf("Timeout() = %v, want 0 (none)", m.ctl.Timeout())
	}
}

// TestProfiledRetarget: a new goal mid-move, the other way, replans from
// the moving setpoint: the acceleration limit holds through the reversal.
// The same goal again changes nothing.
func TestProfiledRetarget(t *testing.T) {
	d := profiledRobot(t, profiledYAML)
	m := newMover(t, d, "arm", "arm_joint", armVmax, armAmax)
	m.goal(1.5)
	m.step(seconds(0.4)) // cruising at 3 rad/s
	sp0, v0, _ := m.ctl.Setpoint()
	m.goal(1.5) // again: no new plan
	m.step(1)
	if sp, v, _ := m.ctl.Setpoint(); v != armVmax || math.Abs(sp-(sp0+armVmax*dt)) > 1e-12 {
		t.Errorf("the same goal again moved the setpoint from %v, %v to %v, %v", sp0, v0, sp, v)
	}
	m.goal(-0.3)
	m.step(seconds(3))
	m.checkTruth()
	if pos, _, _ := truth(t, d, "arm_joint"); math.Abs(pos+0.3) > 0.01 {
		t.Errorf("arm at %v, want -0.3", pos)
	}
}

// TestProfiledDisable: disabled mid-move the output is neutral at once
// and the goal is dropped; re-enabled, nothing moves until a new goal,
// whose profile starts from where the arm is, moving as it moves: no jump.
func TestProfiledDisable(t *testing.T) {
	d := profiledRobot(t, profiledYAML)
	m := newMover(t, d, "arm", "arm_joint", armVmax, armAmax)
	m.goal(1.5)
	m.step(seconds(0.2)) // at 2 rad/s
	m.checkTruth()
	d.SetEnabled(false)
	m.step(1)
	if _, _, v := truth(t, d, "arm_joint"); v != 0 || d.Sim.PWMPulse(0) != 0 {
		t.Errorf("disabled: %v V on the arm, PWM %v", v, d.Sim.PWMPulse(0))
	}
	if _, held, _, _ := m.ctl.Goal(); held {
		t.Error("the goal is still held after disabling")
	}
	m.step(seconds(0.1)) // coasting
	d.SetEnabled(true)
	m.step(seconds(0.2))
	if _, _, v := truth(t, d, "arm_joint"); v != 0 {
		t.Errorf("re-enabled without a goal: %v V on the arm", v)
	}
	if _, _, moving := m.ctl.Setpoint(); moving {
		t.Error("a profile runs with no goal")
	}
	pos, vel, _ := truth(t, d, "arm_joint")
	t.Logf("re-enabled: arm at %.4f rad coasting at %.4f rad/s", pos, vel)
	if math.Abs(vel) < 1 {
		t.Fatalf("the arm coasts at only %v rad/s: the test wants it moving", vel)
	}
	m = newMover(t, d, "arm", "arm_joint", armVmax, armAmax) // margins afresh
	m.goal(1.5)
	m.step(1)
	js, _ := d.Loop.JointState("arm_joint")
	if sp, spv, _ := m.ctl.Setpoint(); sp != js.Position || spv != js.Velocity {
		t.Errorf("the new profile starts at %v, %v; want the measured %v, %v", sp, spv, js.Position, js.Velocity)
	}
	m.step(1) // the sim now applies the first output
	if _, _, v := truth(t, d, "arm_joint"); math.Abs(v-1.22*js.Velocity) > 1 {
		t.Errorf("first output %v V; want within 1 V of the feedforward %v V: no jump", v, 1.22*js.Velocity)
	}
	m.step(seconds(2))
	m.checkTruth()
	if pos, _, _ := truth(t, d, "arm_joint"); math.Abs(pos-1.5) > 0.01 {
		t.Errorf("arm at %v, want 1.5", pos)
	}
}

// TestProfiledRefusals: goals that are not finite or beyond the joint's
// limits are refused and counted, never reach the output, and leave the
// held goal in force.
func TestProfiledRefusals(t *testing.T) {
	d := profiledRobot(t, profiledYAML)
	m := newMover(t, d, "arm", "arm_joint", armVmax, armAmax)
	m.goal(0.5)
	m.step(seconds(1.5))
	for _, g := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 2.01, -0.51, 1e300} {
		if err := m.ctl.Command(g, d.Now()); !errors.Is(err, control.ErrRefused) {
			t.Errorf("goal %v: %v, want refused", g, err)
		}
		m.step(1)
		if _, _, v := truth(t, d, "arm_joint"); math.IsNaN(v) || math.Abs(v) > 1 {
			t.Errorf("after goal %v: %v V on the arm", g, v)
		}
	}
	if n := m.ctl.Refused(); n != 6 {
		t.Errorf("refused %d, want 6", n)
	}
	// The limits themselves are goals.
	m.goal(2.0)
	m.step(seconds(1.5))
	if pos, _, _ := truth(t, d, "arm_joint"); math.Abs(pos-2.0) > 0.01 {
		t.Errorf("arm at %v, want 2.0", pos)
	}
	if st := d.Loop.Stats(); st.Refused != 0 {
		t.Errorf("the loop's safety caught %d values that should never have reached an output", st.Refused)
	}
}

// TestProfiledContinuous: a continuous joint goes the shortest way round:
// from 0 to 2π - 0.5 is 0.5 rad backwards.
func TestProfiledContinuous(t *testing.T) {
	d := profiledRobot(t, profiledYAML)
	m := newMover(t, d, "table", "table_joint", 1.5, 4)
	m.goal(2*math.Pi - 0.5)
	hi := 0.0
	for i := 0; i < seconds(2); i++ {
		m.step(1)
		pos, _, _ := truth(t, d, "table_joint")
		hi = math.Max(hi, pos)
	}
	m.checkTruth()
	if pos, _, _ := truth(t, d, "table_joint"); math.Abs(pos+0.5) > 0.01 || hi > 0.01 {
		t.Errorf("table at %v (highest %v), want -0.5 reached backwards", pos, hi)
	}
}

// TestProfiledTimeout: with a timeout, a goal older than it makes the
// output neutral.
func TestProfiledTimeout(t *testing.T) {
	d := profiledRobot(t, strings.Replace(profiledYAML, "tolerance: 0.01}", "tolerance: 0.01, timeout: 0.5}", 1))
	m := newMover(t, d, "arm", "arm_joint", armVmax, armAmax)
	if m.ctl.Timeout() != 500*time.Millisecond {
		t.Errorf("Timeout() = %v", m.ctl.Timeout())
	}
	m.goal(1.5)
	m.step(seconds(0.5))
	if _, _, v := truth(t, d, "arm_joint"); v == 0 {
		t.Error("no output within the timeout")
	}
	m.step(2)
	if _, _, v := truth(t, d, "arm_joint"); v != 0 || d.Loop.Stats().Stale != 1 {
		t.Errorf("after the timeout: %v V, stale %d", v, d.Loop.Stats().Stale)
	}
}

// TestProfiledCycleDoesNotAllocate: planning and following a profile in
// the loop's cycle allocates nothing.
func TestProfiledCycleDoesNotAllocate(t *testing.T) {
	d := profiledRobot(t, profiledYAML)
	ctl := d.Loop.Controller("arm")
	goals := []float64{1.5, -0.3, 0.7}
	n := 0
	if a := testing.AllocsPerRun(500, func() {
		if n++; n%50 == 0 {
			_ = ctl.Command(goals[n/50%3], d.Now())
		}
		d.Step()
	}); a != 0 {
		t.Errorf("a cycle allocates %v times", a)
	}
}
