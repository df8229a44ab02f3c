package control

import (
	"errors"
	"sync"
	"time"
)

// Joint trajectories (type_joint_trajectory.go): a goal is a list of
// points, each with a time from the goal's start and every joint's
// position, optionally its velocity and acceleration; between two points
// each joint follows joint_trajectory_controller's spline: linear on
// positions alone, cubic (Hermite) with velocities, quintic with
// accelerations too. The goal starts from the joints' measured state when
// the loop takes it; a new goal preempts the one running.

// MaxTrajectoryPoints bounds a goal's points (a longer one is refused):
// the loop's buffers are sized once.
const MaxTrajectoryPoints = 1000

// TrajectoryPoint is one point of a trajectory: Time s from the goal's
// start; per joint, in the order of Trajectory.Joints, its position (rad
// or m), and velocity and acceleration (empty: not given).
type TrajectoryPoint struct {
	Time                                 float64
	Positions, Velocities, Accelerations []float64
}

// Trajectory is a goal for a joint trajectory controller.
type Trajectory struct {
	// Joints names the joints the points' values are for: every joint of
	// the controller, in any order.
	Joints []string
	Points []TrajectoryPoint
	// PathTolerance and GoalTolerance are per joint of Joints (nil, or 0
	// for a joint: the controller's); GoalTime is how long after the last
	// point the goal may take to be reached (0: the controller's).
	PathTolerance, GoalTolerance []float64
	GoalTime                     float64
}

// TrajectoryState is a goal's state.
type TrajectoryState int

const (
	TrajectoryActive TrajectoryState = iota
	TrajectorySucceeded
	TrajectoryAborted
	TrajectoryPreempted
)

// Error codes of control_msgs/FollowJointTrajectoryResult.
const (
	TrajectorySuccessful    = 0
	TrajectoryInvalidGoal   = -1
	TrajectoryInvalidJoints = -2
	TrajectoryPathViolated  = -4
	TrajectoryGoalViolated  = -5
)

// ErrNotTrajectory is returned by a controller that takes no trajectory.
var ErrNotTrajectory = errors.New("not a joint trajectory controller")

// ErrInvalidJoints wraps the refusal of a goal that does not name exactly
// the controller's joints: control_msgs' INVALID_JOINTS, as
// joint_trajectory_controller answers it.
var ErrInvalidJoints = errors.New("the goal's joints are not the controller's")

// trajPoint is a point in the loop's buffers, in the controller's joint
// order.
type trajPoint struct {
	t             float64
	pos, vel, acc []float64
	hasVel        bool
	hasAcc        bool
}

// trajBuf is a trajectory in preallocated buffers.
type trajBuf struct {
	n        int
	pts      []trajPoint
	pathTol  []float64
	goalTol  []float64
	goalTime float64
}

func newTrajBuf(joints, points int) trajBuf {
	b := trajBuf{pts: make([]trajPoint, points), pathTol: make([]float64, joints), goalTol: make([]float64, joints)}
	for i := range b.pts {
		b.pts[i] = trajPoint{pos: make([]float64, joints), vel: make([]float64, joints), acc: make([]float64, joints)}
	}
	return b
}

// sample is the spline between points a and b at t (a.t ≤ t ≤ b.t), for
// joint j: position and velocity.
func sample(a, b *trajPoint, j int, t float64) (float64, float64) {
	T := b.t - a.t
	s := t - a.t
	p0, p1 := a.pos[j], b.pos[j]
	if T <= 0 {
		return p1, 0
	}
	switch {
	case a.hasAcc && b.hasAcc && a.hasVel && b.hasVel: // quintic
		v0, v1, a0, a1 := a.vel[j], b.vel[j], a.acc[j], b.acc[j]
		c3 := (20*(p1-p0) - (8*v1+12*v0)*T - (3*a0-a1)*T*T) / (2 * T * T * T)
		c4 := (30*(p0-p1) + (14*v1+16*v0)*T + (3*a0-2*a1)*T*T) / (2 * T * T * T * T)
		c5 := (12*(p1-p0) - 6*(v1+v0)*T - (a0-a1)*T*T) / (2 * T * T * T * T * T)
		p := p0 + v0*s + a0/2*s*s + c3*s*s*s + c4*s*s*s*s + c5*s*s*s*s*s
		v := v0 + a0*s + 3*c3*s*s + 4*c4*s*s*s + 5*c5*s*s*s*s
		return p, v
	case a.hasVel && b.hasVel: // cubic
		v0, v1 := a.vel[j], b.vel[j]
		c2 := (3*(p1-p0) - (2*v0+v1)*T) / (T * T)
		c3 := (2*(p0-p1) + (v0+v1)*T) / (T * T * T)
		return p0 + v0*s + c2*s*s + c3*s*s*s, v0 + 2*c2*s + 3*c3*s*s
	}
	return p0 + (p1-p0)*s/T, (p1 - p0) / T
}

// at samples the trajectory at t for joint j; past its end, the last
// point at rest.
func (b *trajBuf) at(j int, t float64) (float64, float64) {
	last := &b.pts[b.n-1]
	if t >= last.t {
		return last.pos[j], 0
	}
	for k := 1; k < b.n; k++ {
		if t < b.pts[k].t {
			return sample(&b.pts[k-1], &b.pts[k], j, t)
		}
	}
	return last.pos[j], 0
}

// trajGoal is the mailbox between the transports and the loop.
type trajGoal struct {
	mu       sync.Mutex
	pending  trajBuf
	has      bool
	nextID   uint64
	pendID   uint64
	cancel   uint64 // a goal whose cancel was asked for
	running  uint64 // the goal the loop runs, 0 when none
	results  [resultsKept]trajResult
	nres     int
	feedback TrajectoryFeedback
}

// resultsKept is how many finished goals' results are kept.
const resultsKept = 16

type trajResult struct {
	id    uint64
	state TrajectoryState
	code  int
	msg   string
}

// finish records a goal's end. g.mu held.
func (g *trajGoal) finish(id uint64, st TrajectoryState, code int, msg string) {
	if id == 0 {
		return
	}
	g.results[g.nres%resultsKept] = trajResult{id, st, code, msg}
	g.nres++
	if g.running == id {
		g.running = 0
	}
}

// TrajectoryFeedback is a running goal's feedback: per joint, in the
// controller's order, where the trajectory wants it, where it is, and the
// difference.
type TrajectoryFeedback struct {
	Goal                                   uint64
	Stamp                                  time.Duration // the loop's clock at the cycle that wrote it; 0: none yet
	Time                                   float64       // s from the goal's start
	Desired, DesiredVel, Actual, ActualVel []float64
}

// Trajectory messages, built once (the loop allocates nothing).
const (
	msgDisabled  = "disabled, e-stopped or stopped: the trajectory was dropped"
	msgPreempted = "preempted"
	msgPath      = "a joint left its path tolerance"
	msgGoal      = "the joints were not within the goal tolerance by the end and the goal time"
	msgNoState   = "a joint's position is not measured"
	msgTimeout   = "the goal ran past the controller's timeout (from when it arrived): the outputs went neutral"
)
