package daemon

import (
	"math"
	"testing"
	"time"

	"github.com/frcd/frcd/control"
)

// TestTrajectoryFollowsCommand: the arm follows what its goal commands,
// on the sim's truth (not the joints' sensors): at each point's
// time_from_start the shoulder and elevator are within 0.1 of the point
// (rad, m), along the way within 0.15 of the spline's desired position,
// and at the end within the goal tolerance (0.03, on the sensors) and
// the sensors' resolution (about 0.001) of the last point.
func TestTrajectoryFollowsCommand(t *testing.T) {
	d, c := armDaemon(t)
	goal := threePoints()
	start := d.Now()
	id, err := c.FollowTrajectory(goal, start)
	if err != nil {
		t.Fatal(err)
	}
	truth := func() [2]float64 { // in the goal's joint order: elevator, shoulder
		el, _ := d.Sim.Joint("elevator_joint")
		sh, _ := d.Sim.Joint("shoulder_joint")
		return [2]float64{el.Position, sh.Position}
	}
	var fb control.TrajectoryFeedback
	worst, next := 0.0, 0
	for i := 0; i < 600; i++ {
		d.Step()
		at := truth()
		if c.Feedback(&fb) && len(fb.Desired) == 2 {
			for j, name := range c.Joints {
				k := 0
				if name == "shoulder_joint" {
					k = 1
				}
				worst = max(worst, math.Abs(fb.Desired[j]-at[k]))
			}
		}
		if next < len(goal.Points) && d.Now()-start >= time.Duration(goal.Points[next].Time*float64(time.Second)) {
			p := goal.Points[next].Positions
			t.Logf("point %d at %v: truth elevator %.3f shoulder %.3f, commanded %.3f %.3f", next, d.Now()-start, at[0], at[1], p[0], p[1])
			if math.Abs(at[0]-p[0]) > 0.1 || math.Abs(at[1]-p[1]) > 0.1 {
				t.Errorf("point %d at %v: the arm at %.3f, %.3f; commanded %.3f, %.3f (within 0.1)", next, d.Now()-start, at[0], at[1], p[0], p[1])
			}
			next++
		}
		if done, _, _, _ := c.TrajectoryResult(id); done {
			break
		}
	}
	done, st, _, _ := c.TrajectoryResult(id)
	at := truth()
	t.Logf("done %v %v at %v; truth %.3f %.3f; worst from the desired %.3f", done, st, d.Now()-start, at[0], at[1], worst)
	if !done || st != control.TrajectorySucceeded || next != len(goal.Points) {
		t.Fatalf("done %v, state %v, %d points passed", done, st, next)
	}
	if math.Abs(at[0]-0.4) > 0.032 || math.Abs(at[1]-0.8) > 0.032 {
		t.Errorf("the arm ended at %.3f, %.3f; commanded 0.4, 0.8 (within the goal tolerance 0.03 and the sensors' resolution)", at[0], at[1])
	}
	if worst > 0.15 {
		t.Errorf("the arm strayed %.3f from the desired path; want within 0.15", worst)
	}
}
