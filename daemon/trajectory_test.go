package daemon

import (
	"math"
	"testing"

	"github.com/frcd/frcd/control"
)

const armTrajectory = "  arm_trajectory: {type: effort_controllers/JointTrajectoryController, joints: [shoulder_joint, elevator_joint], " +
	"pid: {p: 40, i: 4, d: 2, i_clamp: 3}, constraints: {goal: 0.03, goal_time: 2, trajectory: 0.3}}"

// armDaemon is the competition robot with its shoulder and elevator
// voltage controllers replaced by a joint trajectory controller.
func armDaemon(t *testing.T) (*Daemon, *control.Controller) {
	t.Helper()
	r := driveRobot(t, "../examples/competition", []string{"shoulder_voltage", "elevator_voltage"}, armTrajectory, "")
	d, err := NewSim(r, SimOptions{Seed: 4, Enabled: true}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	for i := 0; i < 20; i++ {
		d.Step()
	}
	return d, d.Loop.Controller("arm_trajectory")
}

func threePoints() *control.Trajectory {
	return &control.Trajectory{Joints: []string{"elevator_joint", "shoulder_joint"}, Points: []control.TrajectoryPoint{
		{Time: 1, Positions: []float64{0.3, 0.5}},
		{Time: 2, Positions: []float64{0.6, 1.0}, Velocities: []float64{0, 0}},
		{Time: 3, Positions: []float64{0.4, 0.8}, Velocities: []float64{0, 0}},
	}}
}

// TestTrajectorySucceeds: a 3-point goal moves the arm and the elevator
// along their splines to the last point, which the goal reaches within
// its tolerance: Succeeded; the last point then holds.
func TestTrajectorySucceeds(t *testing.T) {
	d, c := armDaemon(t)
	id, err := c.FollowTrajectory(threePoints(), d.Now())
	if err != nil {
		t.Fatal(err)
	}
	var fb control.TrajectoryFeedback
	worst := 0.0
	for i := 0; i < 600; i++ {
		d.Step()
		if c.Feedback(&fb) {
			for j := range fb.Desired {
				worst = max(worst, math.Abs(fb.Desired[j]-fb.Actual[j]))
			}
		}
		if done, _, _, _ := c.TrajectoryResult(id); done {
			break
		}
	}
	done, st, code, msg := c.TrajectoryResult(id)
	sh, _ := d.Sim.Joint("shoulder_joint")
	el, _ := d.Sim.Joint("elevator_joint")
	c.Feedback(&fb)
	t.Logf("done %v state %v code %d %q at %s; measured %.3f; truth shoulder %.3f elevator %.3f; worst tracking error %.3f", done, st, code, msg, d.Now(), fb.Actual, sh.Position, el.Position, worst)
	if !done || st != control.TrajectorySucceeded || math.Abs(sh.Position-0.8) > 0.05 || math.Abs(el.Position-0.4) > 0.05 {
		t.Fatalf("want Succeeded at shoulder 0.8, elevator 0.4")
	}
	for i := 0; i < 200; i++ { // the last point holds, past the loop's command timeout
		d.Step()
	}
	if sh, _ = d.Sim.Joint("shoulder_joint"); math.Abs(sh.Position-0.8) > 0.05 {
		t.Errorf("2 s later the shoulder is at %.3f", sh.Position)
	}
}

// TestTrajectoryPreempted: a cancel half-way preempts the goal and the
// joints stop where they are, short of the goal; a new goal preempts the
// running one.
func TestTrajectoryPreempted(t *testing.T) {
	d, c := armDaemon(t)
	id, err := c.FollowTrajectory(threePoints(), d.Now())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 80; i++ {
		d.Step()
	}
	c.CancelTrajectory(id)
	d.Step()
	done, st, _, _ := c.TrajectoryResult(id)
	if !done || st != control.TrajectoryPreempted {
		t.Fatalf("after the cancel: done %v, state %v", done, st)
	}
	at, _ := d.Sim.Joint("shoulder_joint")
	for i := 0; i < 150; i++ {
		d.Step()
	}
	sh, _ := d.Sim.Joint("shoulder_joint")
	t.Logf("cancelled at shoulder %.3f; 1.5 s later %.3f (vel %.3f)", at.Position, sh.Position, sh.Velocity)
	if math.Abs(sh.Position-at.Position) > 0.15 || sh.Position > 0.7 || math.Abs(sh.Velocity) > 0.05 {
		t.Errorf("the shoulder did not stop where it was")
	}
	id1, _ := c.FollowTrajectory(threePoints(), d.Now())
	d.Step()
	id2, _ := c.FollowTrajectory(threePoints(), d.Now())
	d.Step()
	if done, st, _, _ := c.TrajectoryResult(id1); !done || st != control.TrajectoryPreempted {
		t.Errorf("the first of two goals: done %v state %v, want preempted", done, st)
	}
	if done, _, _, _ := c.TrajectoryResult(id2); done {
		t.Errorf("the second goal ended at once")
	}
	if _, err := c.FollowTrajectory(&control.Trajectory{Joints: []string{"shoulder_joint"}, Points: threePoints().Points}, d.Now()); err == nil {
		t.Error("a goal naming one joint of two was taken")
	}
}

// TestTrajectoryCycleDoesNotAllocate: cycles running a trajectory, and
// taking a new goal, allocate nothing.
func TestTrajectoryCycleDoesNotAllocate(t *testing.T) {
	d, c := armDaemon(t)
	tr := threePoints()
	now := d.Now()
	if _, err := c.FollowTrajectory(tr, now); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		now += d.Loop.Period()
		d.Loop.Cycle(now)
	})
	if allocs != 0 {
		t.Errorf("a cycle running a trajectory allocates %v times", allocs)
	}
}
