package control

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(jointTrajectoryType) }

// jointTrajectoryType is ros_controllers' joint_trajectory_controller
// with a PID per joint to volts (effort_controllers/'s), or each joint's
// device's own position loop.
var jointTrajectoryType = &Type{family: kindRunner, New: newJointTrajectory, Takes: JointTrajectory, Timeout: NoTimeout,
	Config: &config.Type{
		Name:    "effort_controllers/JointTrajectoryController",
		Summary: "Moves several joints along a trajectory: FollowJointTrajectory (actionlib) and trajectory_msgs/JointTrajectory on command.",
		Doc: "As ros_controllers' joint_trajectory_controller (effort_controllers/: a PID per joint on the roboRIO, output in " +
			"volts; a joint whose device closes its own position loop gets the trajectory's position instead). Goals: the " +
			"control_msgs/FollowJointTrajectory action on /NAME/follow_joint_trajectory, or trajectory_msgs/JointTrajectory " +
			"on /NAME/command (no result). A goal names every joint of the controller, in any order; it starts from the " +
			"measured state when it arrives, and between points each joint follows a linear (positions only), cubic (with " +
			"velocities) or quintic (with accelerations) spline, as joint_trajectory_controller's. While it runs, a joint " +
			"further than its path tolerance from the trajectory aborts it (PATH_TOLERANCE_VIOLATED); after the last point " +
			"it succeeds once every joint is within its goal tolerance and moving slower than stopped_velocity_tolerance, " +
			"or aborts after goal_time (GOAL_TOLERANCE_VIOLATED). A new goal or a cancel preempts the running one; the joints " +
			"then hold where they are. The last point holds while enabled; disabled, the goal aborts and nothing moves on " +
			"re-enable until a new goal. State: control_msgs/JointTrajectoryControllerState on /NAME/state (desired, " +
			"actual and error positions and velocities) while a trajectory runs or holds. Gains: /NAME/gains/JOINT/ and " +
			"/NAME/velocity_ff/JOINT on the parameter server, retuned at run time.",
		Keys: append([]config.Key{
			{Name: "joints", Kind: config.StringList, Required: true, Ref: config.SpeedRef, Doc: "The joints the trajectories move."},
			{Name: "constraints.goal_time", Kind: config.Float, Default: 0.0, HasRange: true, Min: 0, Max: 3600, Unit: "s",
				Doc: "How long after the last point the joints may take to reach the goal; 0 waits as long as it takes (a goal's goal_time_tolerance overrides it)."},
			{Name: "constraints.stopped_velocity_tolerance", Kind: config.Float, Default: 0.01, HasRange: true, Min: 0, Max: 1e6, Unit: "rad/s or m/s",
				Doc: "The speed under which a joint counts as stopped at the goal."},
			{Name: "constraints.goal", Kind: config.Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "rad or m",
				Doc: "Every joint's goal tolerance (joint_trajectory_controller's per-joint constraints/JOINT/goal); 0: not checked."},
			{Name: "constraints.trajectory", Kind: config.Float, Default: 0.0, HasRange: true, Min: 0, Max: 1e6, Unit: "rad or m",
				Doc: "Every joint's path tolerance (constraints/JOINT/trajectory); 0: not checked."},
			goalTimeoutKey,
		}, config.PIDKeys("rad/s or m/s")...),
		Check: checkClaims("joints"),
		Example: "{name: arm_trajectory, type: effort_controllers/JointTrajectoryController, joints: [shoulder_joint, elbow_joint], " +
			"pid: {p: 20, d: 1, f: 2}, constraints: {goal: 0.02, goal_time: 1}}",
		Facts: config.Facts{Controller: &config.ControllerFacts{Measures: config.Position,
			ROS2Type: "joint_trajectory_controller/JointTrajectoryController", HardwareInterface: "hardware_interface::EffortJointInterface", Hints: []string{"trajectory", "joint_trajectory"}}},
	}}

// goalTimeoutKey is the trajectory controller's timeout: a deadline on
// each goal from when it arrives, not a command's lifetime (a goal is one
// command; joint_trajectory_controller has no such key).
var goalTimeoutKey = config.Key{Name: "timeout", Kind: config.Float, HasRange: true, Min: 0.001, Max: 3600, Unit: "s",
	DefaultDoc: "none: a goal runs to its end, then its last point holds while enabled",
	Doc: "A deadline on every goal, from when it arrives: a goal (or the hold of its last point) still running " +
		"this long after it arrived aborts (error_string: it ran past the controller's timeout) and the joints' " +
		"outputs go neutral, nothing holding them. Set it longer than the longest trajectory plus its goal time, or not at all."}

// trajJoint is one joint a trajectory moves.
type trajJoint struct {
	st     *interfaces.JointState
	out    *interfaces.JointCommand
	device bool
	pid    PID
	lim    commandRange // where the joint may be put (positionLimit): points beyond, give or take PositionMargin, are refused; the path is clamped to it
}

type jointTrajectory struct {
	c        *Controller
	joints   []trajJoint
	names    []string
	goal     trajGoal
	cur      trajBuf
	id       uint64        // the goal running, 0 when holding
	start    time.Duration // when it started
	has      bool          // cur holds a trajectory (or a hold)
	stopping bool          // the goal is an empty one: it succeeds once the joints have stopped, wherever
	goalTol  float64
	pathTol  float64
	goalTime float64
	stopVel  float64
}

func newJointTrajectory(cd *config.Device, b *Binder) (runner, error) {
	names := cd.List("joints")
	if len(names) == 0 {
		return nil, fmt.Errorf("controller %q: no joints", b.name)
	}
	jt := &jointTrajectory{names: names, goalTol: cd.Float("constraints.goal"), pathTol: cd.Float("constraints.trajectory"),
		goalTime: cd.Float("constraints.goal_time"), stopVel: cd.Float("constraints.stopped_velocity_tolerance")}
	max := cd.Float("max_voltage")
	iclamp := max
	if cd.Has("pid.i_clamp") {
		iclamp = cd.Float("pid.i_clamp")
	}
	for _, n := range names {
		st, err := b.State(n)
		if err != nil {
			return nil, err
		}
		j := trajJoint{st: st, lim: b.positionLimit(n)}
		if dev := b.Robot().Config.Device(n); dev != nil && dev.ClosesLoop() {
			j.device = true
			j.out, err = b.Claim(n, interfaces.Position)
		} else {
			j.pid = PID{P: cd.Float("pid.p"), I: cd.Float("pid.i"), D: cd.Float("pid.d"), F: cd.Float("pid.f"), IClamp: iclamp, Max: max}
			j.out, err = b.Claim(n, interfaces.Voltage)
		}
		if err != nil {
			return nil, err
		}
		jt.joints = append(jt.joints, j)
	}
	nj := len(names)
	jt.goal.pending = newTrajBuf(nj, MaxTrajectoryPoints+1)
	jt.cur = newTrajBuf(nj, MaxTrajectoryPoints+1)
	fb := &jt.goal.feedback
	fb.Desired, fb.DesiredVel, fb.Actual, fb.ActualVel = make([]float64, nj), make([]float64, nj), make([]float64, nj), make([]float64, nj)
	return jt, nil
}

// pids are the PIDs of the joints the roboRIO drives (not those whose
// device closes its own loop), for SetGain.
func (jt *jointTrajectory) pids() (joints []string, pids []*PID) {
	for i := range jt.joints {
		if !jt.joints[i].device {
			joints, pids = append(joints, jt.names[i]), append(pids, &jt.joints[i].pid)
		}
	}
	return joints, pids
}

func (jt *jointTrajectory) fields() int                    { return 0 }
func (jt *jointTrajectory) observe(time.Duration, float64) {}

// take swaps in a pending goal, from the measured state: the running
// goal, if any, is preempted.
func (jt *jointTrajectory) take(now time.Duration) bool {
	g := &jt.goal
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cancel != 0 && g.cancel == jt.id {
		g.finish(jt.id, TrajectoryPreempted, TrajectorySuccessful, msgPreempted)
		jt.id, g.cancel = 0, 0
		jt.holdHere()
	}
	if !g.has {
		return true
	}
	if jt.id != 0 {
		g.finish(jt.id, TrajectoryPreempted, TrajectorySuccessful, msgPreempted)
	}
	g.has = false
	jt.cur, g.pending = g.pending, jt.cur
	jt.stopping = jt.cur.n == 0
	if jt.stopping { // an empty goal: stop and hold here (joint_trajectory_controller's setHoldPosition)
		jt.holdHere()
		if !jt.has {
			jt.id = 0
			g.finish(g.pendID, TrajectoryAborted, TrajectoryInvalidGoal, msgNoState)
			return false
		}
		jt.id, jt.start = g.pendID, now
		g.running = jt.id
		return true
	}
	// the start: the measured state, at t = 0, with what the first point gives
	p0 := &jt.cur.pts[0]
	for j, jn := range jt.joints {
		if jn.st.Has&interfaces.HasPosition == 0 {
			jt.id = 0
			g.finish(g.pendID, TrajectoryAborted, TrajectoryInvalidGoal, msgNoState)
			jt.has = false
			return false
		}
		p0.pos[j], p0.vel[j], p0.acc[j] = jn.st.Position, 0, 0
		if jn.st.Has&interfaces.HasVelocity != 0 {
			p0.vel[j] = jn.st.Velocity
		}
	}
	jt.id, jt.start, jt.has = g.pendID, now, true
	g.running = jt.id
	return true
}

// holdHere makes the trajectory one point: where the joints are, at rest.
func (jt *jointTrajectory) holdHere() {
	b := &jt.cur
	b.n = 1
	p := &b.pts[0]
	p.t, p.hasVel, p.hasAcc = 0, false, false
	for j, jn := range jt.joints {
		p.pos[j] = jn.st.Position
	}
	jt.has = allMeasured(jt.joints)
}

func allMeasured(js []trajJoint) bool {
	for _, j := range js {
		if j.st.Has&interfaces.HasPosition == 0 {
			return false
		}
	}
	return true
}

func (jt *jointTrajectory) run(_ []float64, now time.Duration, dt float64) bool {
	if !jt.take(now) || !jt.has {
		return false
	}
	t := (now - jt.start).Seconds()
	b := &jt.cur
	end := b.pts[b.n-1].t
	pathBad, atGoal := false, true
	g := &jt.goal
	g.mu.Lock()
	fb := &g.feedback
	fb.Goal, fb.Time, fb.Stamp = jt.id, t, now
	for j := range jt.joints {
		jn := &jt.joints[j]
		if jn.st.Has&interfaces.HasPosition == 0 {
			g.mu.Unlock()
			return false
		}
		pd, vd := b.at(j, t)
		if !jn.lim.holds(pd) { // a spline may overshoot its points
			pd, vd = jn.lim.clamp(pd), 0
		}
		p, v := jn.st.Position, 0.0
		if jn.st.Has&interfaces.HasVelocity != 0 {
			v = jn.st.Velocity
		}
		fb.Desired[j], fb.DesiredVel[j], fb.Actual[j], fb.ActualVel[j] = pd, vd, p, v
		if jn.device {
			jn.out.Put(pd, now)
		} else {
			jn.out.Put(jn.pid.Update(vd, pd-p, v-vd, dt), now)
		}
		if tol := b.pathTol[j]; tol > 0 && t < end && math.Abs(pd-p) > tol {
			pathBad = true
		}
		goal := b.pts[b.n-1].pos[j]
		if tol := b.goalTol[j]; tol > 0 && !jt.stopping && math.Abs(goal-p) > tol {
			atGoal = false
		}
		if math.Abs(v) > jt.stopVel {
			atGoal = false
		}
	}
	if jt.id != 0 {
		switch {
		case pathBad:
			g.finish(jt.id, TrajectoryAborted, TrajectoryPathViolated, msgPath)
			jt.id = 0
			jt.holdHere()
		case t >= end && atGoal:
			g.finish(jt.id, TrajectorySucceeded, TrajectorySuccessful, "")
			jt.id = 0 // the last point holds
		case t >= end && b.goalTime > 0 && t > end+b.goalTime:
			g.finish(jt.id, TrajectoryAborted, TrajectoryGoalViolated, msgGoal)
			jt.id = 0
			jt.holdHere()
		}
	}
	g.mu.Unlock()
	return true
}

// expire aborts the running goal: it ran past the controller's timeout
// (the loop then halts the outputs).
func (jt *jointTrajectory) expire() {
	g := &jt.goal
	g.mu.Lock()
	g.finish(jt.id, TrajectoryAborted, TrajectoryInvalidGoal, msgTimeout)
	g.mu.Unlock()
	jt.id = 0
}

func (jt *jointTrajectory) halt() {
	for j := range jt.joints {
		jt.joints[j].out.Reset()
		jt.joints[j].pid.Reset()
	}
	g := &jt.goal
	g.mu.Lock()
	g.finish(jt.id, TrajectoryAborted, TrajectoryInvalidGoal, msgDisabled)
	if g.has {
		g.finish(g.pendID, TrajectoryAborted, TrajectoryInvalidGoal, msgDisabled)
		g.has = false
	}
	g.mu.Unlock()
	jt.id, jt.has = 0, false
}

// FollowTrajectory hands the controller a goal at time now (the loop's
// clock) and returns its id: the loop starts it at its next cycle,
// preempting the running one. A goal that names other joints (refused
// with ErrInvalidJoints too), whose only point is at time 0, with more
// than MaxTrajectoryPoints points, times that do not increase, values
// that are not finite or positions past a joint's limits is refused
// (ErrRefused) and counted. A goal without points stops the joints where
// they are and holds them (joint_trajectory_controller's empty
// trajectory); it succeeds once they are stopped. Safe from any
// goroutine.
func (c *Controller) FollowTrajectory(tr *Trajectory, now time.Duration) (uint64, error) {
	jt, ok := c.run.(*jointTrajectory)
	if !ok {
		return 0, fmt.Errorf("controller %q: %w", c.Name, ErrNotTrajectory)
	}
	if err := jt.check(tr); err != nil {
		c.Refuse()
		return 0, fmt.Errorf("controller %q: %w: %w", c.Name, err, ErrRefused)
	}
	c.in.mu.Lock()
	defer c.in.mu.Unlock()
	if c.in.stopped {
		c.in.refused++
		return 0, fmt.Errorf("controller %q: %w", c.Name, ErrStopped)
	}
	g := &jt.goal
	g.mu.Lock()
	if g.has { // a goal never started: preempted
		g.finish(g.pendID, TrajectoryPreempted, TrajectorySuccessful, msgPreempted)
	}
	g.nextID++
	id := g.nextID
	jt.fill(&g.pending, tr)
	g.pendID, g.has = id, true
	g.mu.Unlock()
	c.in.stamp, c.in.set = now, true
	return id, nil
}

// A goal's bounds: its points' spacing and times (s), and its values
// (rad, m, per s, per s²).
const (
	minTrajectoryStep  = 1e-3
	maxTrajectoryTime  = 86400
	maxTrajectoryValue = 1e6
)

// check refuses a goal the controller cannot run.
func (jt *jointTrajectory) check(tr *Trajectory) error {
	if len(tr.Joints) != len(jt.names) {
		return fmt.Errorf("the goal names %d joints; the controller moves %d: %v: %w", len(tr.Joints), len(jt.names), jt.names, ErrInvalidJoints)
	}
	for _, n := range jt.names {
		found := false
		for _, m := range tr.Joints {
			found = found || m == n
		}
		if !found {
			return fmt.Errorf("the goal does not name joint %q (it names %q): %w", n, tr.Joints, ErrInvalidJoints)
		}
	}
	if len(tr.Points) > MaxTrajectoryPoints {
		return fmt.Errorf("%d points: want at most %d", len(tr.Points), MaxTrajectoryPoints)
	}
	// joint_trajectory_controller drops the points at or before the time
	// the goal starts (a first point at 0 silently: the trajectory starts
	// from the joints' state) and rejects a goal left with none
	// (init_joint_trajectory.h)
	if len(tr.Points) == 1 && tr.Points[0].Time == 0 {
		return fmt.Errorf("its only point is at time_from_start 0, when the goal starts: dropped, nothing is left to move to " +
			"(give the point the time to get there)")
	}
	last := 0.0
	for i, p := range tr.Points {
		// points at least a millisecond apart (the first one at 0 or
		// after a millisecond), within a day: a spline over less would
		// overflow
		if !interfaces.Finite(p.Time) || p.Time > maxTrajectoryTime || (p.Time != 0 || i > 0) && p.Time < last+minTrajectoryStep {
			return fmt.Errorf("point %d: time %v s: want at least %v s after %v s, at most %v s", i, p.Time, minTrajectoryStep, last, maxTrajectoryTime)
		}
		last = p.Time
		if len(p.Positions) != len(jt.names) || (len(p.Velocities) != 0 && len(p.Velocities) != len(jt.names)) ||
			(len(p.Accelerations) != 0 && len(p.Accelerations) != len(jt.names)) {
			return fmt.Errorf("point %d: want %d positions (and as many velocities and accelerations, or none)", i, len(jt.names))
		}
		for _, vs := range [][]float64{p.Positions, p.Velocities, p.Accelerations} {
			for _, v := range vs {
				if !interfaces.Finite(v) || math.Abs(v) > maxTrajectoryValue {
					return fmt.Errorf("point %d: %v is not a number within ±%v", i, v, maxTrajectoryValue)
				}
			}
		}
	}
	for j, n := range jt.names {
		k := slices.Index(tr.Joints, n)
		r := widen(jt.joints[j].lim)
		for i, p := range tr.Points {
			if !r.holds(p.Positions[k]) {
				return fmt.Errorf("point %d: %s at %v is outside %s", i, n, p.Positions[k], r.what)
			}
		}
	}
	for _, vs := range [][]float64{tr.PathTolerance, tr.GoalTolerance} {
		if len(vs) != 0 && len(vs) != len(jt.names) {
			return fmt.Errorf("want a tolerance per joint")
		}
	}
	if !interfaces.Finite(tr.GoalTime) || tr.GoalTime < 0 || tr.GoalTime > maxTrajectoryTime {
		return fmt.Errorf("goal time %v", tr.GoalTime)
	}
	return nil
}

// fill copies a checked goal into b, in the controller's joint order,
// after the start point (index 0, set when the loop takes it).
func (jt *jointTrajectory) fill(b *trajBuf, tr *Trajectory) {
	b.n = len(tr.Points) + 1
	first := 1
	if len(tr.Points) == 0 { // stop and hold (take)
		b.n, first = 0, 0
	} else if tr.Points[0].Time == 0 { // the first point is dropped: the start (the measured state) takes its place
		b.n--
		first = 0
	}
	for j, n := range jt.names {
		k := 0
		for tr.Joints[k] != n {
			k++
		}
		b.pathTol[j], b.goalTol[j] = jt.pathTol, jt.goalTol
		if len(tr.PathTolerance) > 0 && tr.PathTolerance[k] > 0 {
			b.pathTol[j] = tr.PathTolerance[k]
		}
		if len(tr.GoalTolerance) > 0 && tr.GoalTolerance[k] > 0 {
			b.goalTol[j] = tr.GoalTolerance[k]
		}
		for i, p := range tr.Points {
			d := &b.pts[i+first]
			d.t, d.hasVel, d.hasAcc = p.Time, len(p.Velocities) > 0, len(p.Accelerations) > 0
			d.pos[j] = jt.joints[j].lim.clamp(p.Positions[k])
			if d.hasVel {
				d.vel[j] = p.Velocities[k]
			}
			if d.hasAcc {
				d.acc[j] = p.Accelerations[k]
			}
		}
	}
	if first == 1 && b.n > 1 {
		b.pts[0].t, b.pts[0].hasVel, b.pts[0].hasAcc = 0, b.pts[1].hasVel, b.pts[1].hasAcc
	}
	b.goalTime = jt.goalTime
	if tr.GoalTime > 0 {
		b.goalTime = tr.GoalTime
	}
}

// CancelTrajectory asks the loop to stop goal id: it is preempted at the
// next cycle and the joints hold where they are. Safe from any goroutine.
func (c *Controller) CancelTrajectory(id uint64) {
	jt, ok := c.run.(*jointTrajectory)
	if !ok {
		return
	}
	g := &jt.goal
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.has && g.pendID == id {
		g.has = false
		g.finish(id, TrajectoryPreempted, TrajectorySuccessful, msgPreempted)
		return
	}
	g.cancel = id
}

// TrajectoryResult says how goal id ended: done is false while it runs
// (or waits for the loop). Safe from any goroutine.
func (c *Controller) TrajectoryResult(id uint64) (done bool, st TrajectoryState, code int, msg string) {
	jt, ok := c.run.(*jointTrajectory)
	if !ok {
		return true, TrajectoryAborted, TrajectoryInvalidGoal, ErrNotTrajectory.Error()
	}
	g := &jt.goal
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, r := range g.results {
		if r.id == id && id != 0 {
			return true, r.state, r.code, r.msg
		}
	}
	if id != 0 && (id == g.running || (g.has && id == g.pendID)) {
		return false, TrajectoryActive, 0, ""
	}
	return true, TrajectoryAborted, TrajectoryInvalidGoal, "unknown goal"
}

// Feedback copies the running goal's feedback into dst (sized by
// NewFeedback); false when no goal runs.
func (c *Controller) Feedback(dst *TrajectoryFeedback) bool {
	jt, ok := c.run.(*jointTrajectory)
	if !ok {
		return false
	}
	g := &jt.goal
	g.mu.Lock()
	defer g.mu.Unlock()
	f := &g.feedback
	dst.Goal, dst.Time, dst.Stamp = f.Goal, f.Time, f.Stamp
	dst.Desired = append(dst.Desired[:0], f.Desired...)
	dst.DesiredVel = append(dst.DesiredVel[:0], f.DesiredVel...)
	dst.Actual = append(dst.Actual[:0], f.Actual...)
	dst.ActualVel = append(dst.ActualVel[:0], f.ActualVel...)
	return g.running != 0
}
