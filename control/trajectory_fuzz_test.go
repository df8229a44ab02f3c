package control

import (
	"encoding/binary"
	"math"
	"testing"
	"time"

	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/internal/bounds"
)

// testTrajectory is a two-joint trajectory runner on plain handles.
func testTrajectory() (*jointTrajectory, []interfaces.JointState, []interfaces.JointCommand) {
	st := make([]interfaces.JointState, 2)
	out := make([]interfaces.JointCommand, 2)
	jt := &jointTrajectory{names: []string{"a", "b"}, stopVel: 0.01, goalTol: 0.05}
	for i := range st {
		st[i].SetPosition(0)
		st[i].SetVelocity(0)
		jt.joints = append(jt.joints, trajJoint{st: &st[i], out: &out[i], pid: PID{P: 10, D: 1, F: 1, Max: 12, IClamp: 12}})
	}
	jt.goal.pending, jt.cur = newTrajBuf(2, MaxTrajectoryPoints+1), newTrajBuf(2, MaxTrajectoryPoints+1)
	fb := &jt.goal.feedback
	fb.Desired, fb.DesiredVel, fb.Actual, fb.ActualVel = make([]float64, 2), make([]float64, 2), make([]float64, 2), make([]float64, 2)
	return jt, st, out
}

// FuzzTrajectory: any goal, its points' numbers taken from the input, is
// either refused before it reaches the loop's buffers or run: then every
// output is finite and within the PID's limit, and the goal ends or runs,
// never panics.
func FuzzTrajectory(f *testing.F) {
	f.Add([]byte{}, uint8(3), true)
	f.Add(make([]byte, 8*2*7), uint8(2), false)
	f.Fuzz(func(t *testing.T, data []byte, n uint8, vel bool) {
		defer bounds.Slow(t)()
		jt, _, out := testTrajectory()
		next := func() float64 {
			if len(data) < 8 {
				return 0
			}
			v := math.Float64frombits(binary.LittleEndian.Uint64(data))
			data = data[8:]
			return v
		}
		tr := &Trajectory{Joints: []string{"b", "a"}, GoalTime: math.Abs(next())}
		for i := 0; i < int(n)%40; i++ {
			p := TrajectoryPoint{Time: next(), Positions: []float64{next(), next()}}
			if vel {
				p.Velocities = []float64{next(), next()}
			}
			tr.Points = append(tr.Points, p)
		}
		if err := jt.check(tr); err != nil {
			return
		}
		jt.fill(&jt.goal.pending, tr)
		jt.goal.pendID, jt.goal.has, jt.goal.nextID = 1, true, 1
		for k := 0; k < 50; k++ {
			jt.run(nil, time.Duration(k)*10*time.Millisecond, 0.01)
			for _, o := range out {
				if o.Set && (!interfaces.Finite(o.Value) || math.Abs(o.Value) > 12) {
					t.Fatalf("output %v", o.Value)
				}
			}
		}
	})
}
