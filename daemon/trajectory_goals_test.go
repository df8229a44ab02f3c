package daemon

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/frcd/frcd/control"
)

// TestTrajectoryGoalsAsJTC: goals joint_trajectory_controller treats
// specially. A goal whose only point is at time 0 is refused (JTC drops
// it, as at or before the current time, and rejects the goal left
// empty): it once succeeded at once without moving. Joints other than
// the controller's are refused with ErrInvalidJoints (INVALID_JOINTS).
// A first point at 0 followed by another: the arm goes to the other.
// An empty goal preempts the running one and holds the joints where they
// are; it succeeds once they have stopped.
func TestTrajectoryGoalsAsJTC(t *testing.T) {
	d, c := armDaemon(t)
	at0 := &control.Trajectory{Joints: []string{"shoulder_joint", "elevator_joint"}, Points: []control.TrajectoryPoint{{Time: 0, Positions: []float64{0.6, 0.3}}}}
	if _, err := c.FollowTrajectory(at0, d.Now()); !errors.Is(err, control.ErrRefused) || errors.Is(err, control.ErrInvalidJoints) {
		t.Errorf("a single point at time 0: %v, want refused (not for its joints)", err)
	}
	for _, joints := range [][]string{{"shoulder_joint"}, {"shoulder_joint", "wrist_joint"}, {"shoulder_joint", "shoulder_joint"}} {
		tr := &control.Trajectory{Joints: joints, Points: []control.TrajectoryPoint{{Time: 1, Positions: make([]float64, len(joints))}}}
		if _, err := c.FollowTrajectory(tr, d.Now()); !errors.Is(err, control.ErrInvalidJoints) || !errors.Is(err, control.ErrRefused) {
			t.Errorf("joints %q: %v, want refused for its joints", joints, err)
		}
	}
	// a point at 0, then one at 1.5 s: the arm goes to the second
	two := &control.Trajectory{Joints: []string{"shoulder_joint", "elevator_joint"}, Points: []control.TrajectoryPoint{
		{Time: 0, Positions: []float64{0.1, 0.1}}, {Time: 1.5, Positions: []float64{0.6, 0.3}}}}
	id, err := c.FollowTrajectory(two, d.Now())
	if err != nil {
		t.Fatal(err)
	}
	for range 500 {
		if done, _, _, _ := c.TrajectoryResult(id); done {
			break
		}
		d.Step()
	}
	done, st, code, msg := c.TrajectoryResult(id)
	sh, _ := d.Sim.Joint("shoulder_joint")
	el, _ := d.Sim.Joint("elevator_joint")
	t.Logf("points at 0 and 1.5 s: done %v state %v code %d %q; shoulder %.3f elevator %.3f", done, st, code, msg, sh.Position, el.Position)
	if !done || st != control.TrajectorySucceeded || math.Abs(sh.Position-0.6) > 0.05 || math.Abs(el.Position-0.3) > 0.05 {
		t.Errorf("want succeeded at shoulder 0.6, elevator 0.3")
	}
	// an empty goal half way down: the running goal is preempted, the
	// arm stops where it is and the empty goal succeeds
	id, err = c.FollowTrajectory(threePoints(), d.Now())
	if err != nil {
		t.Fatal(err)
	}
	for range 60 {
		d.Step()
	}
	stop, err := c.FollowTrajectory(&control.Trajectory{Joints: []string{"elevator_joint", "shoulder_joint"}}, d.Now())
	if err != nil {
		t.Fatalf("an empty goal: %v", err)
	}
	d.Step()
	if done, st, _, _ := c.TrajectoryResult(id); !done || st != control.TrajectoryPreempted {
		t.Errorf("the running goal after an empty one: done %v state %v, want preempted", done, st)
	}
	from, _ := d.Sim.Joint("shoulder_joint")
	for range 300 {
		if done, _, _, _ := c.TrajectoryResult(stop); done {
			break
		}
		d.Step()
	}
	for range 100 {
		d.Step()
	}
	done, st, _, msg = c.TrajectoryResult(stop)
	sh, _ = d.Sim.Joint("shoulder_joint")
	t.Logf("empty goal at shoulder %.3f: done %v state %v %q; 1 s later %.3f (vel %.3f)", from.Position, done, st, msg, sh.Position, sh.Velocity)
	if !done || st != control.TrajectorySucceeded || math.Abs(sh.Position-from.Position) > 0.1 || math.Abs(sh.Velocity) > 0.05 {
		t.Errorf("an empty goal: want succeeded, the shoulder stopped near %.3f", from.Position)
	}
}

// TestTrajectoryTimeout: the trajectory controller's timeout is a
// deadline on each goal from when it arrives: a 3 s goal under a 1 s
// timeout aborts at 1 s saying so, and the outputs go neutral.
func TestTrajectoryTimeout(t *testing.T) {
	r := driveRobot(t, "../examples/competition", []string{"shoulder_voltage", "elevator_voltage"},
		strings.Replace(armTrajectory, "constraints:", "timeout: 1, constraints:", 1), "")
	d, err := NewSim(r, SimOptions{Seed: 4, Enabled: true}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	c := d.Loop.Controller("arm_trajectory")
	start := d.Now()
	id, err := c.FollowTrajectory(threePoints(), start)
	if err != nil {
		t.Fatal(err)
	}
	for range 300 {
		if done, _, _, _ := c.TrajectoryResult(id); done {
			break
		}
		d.Step()
	}
	done, st, code, msg := c.TrajectoryResult(id)
	t.Logf("after %v: done %v state %v code %d %q", d.Now()-start, done, st, code, msg)
	if !done || st != control.TrajectoryAborted || !strings.Contains(msg, "timeout") || (d.Now()-start).Seconds() > 1.1 {
		t.Errorf("want aborted for the timeout about 1 s after the goal")
	}
	if bad := notNeutral(d); len(bad) > 0 && strings.Contains(strings.Join(bad, ";"), "shoulder") {
		t.Errorf("after the timeout: %v", bad)
	}
}
