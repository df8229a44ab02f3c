package ros2msg

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/internal/bounds"
)

// TestTwistStampedWire checks a TwistStamped worked out by hand: the
// header (stamp 1 s 2 ns, frame "b"), then six float64 aligned to 8 from
// the payload's start (after the 4-byte encapsulation header).
func TestTwistStampedWire(t *testing.T) {
	m := TwistStamped{Header: Header{Stamp: Time{1, 2}, FrameID: "b"}, Twist: Twist{Linear: Vector3{X: 1}, Angular: Vector3{Z: -1}}}
	want := []byte{0, 1, 0, 0, // CDR_LE
		1, 0, 0, 0, 2, 0, 0, 0, // stamp
		2, 0, 0, 0, 'b', 0, // frame_id
		0, 0, // to 8
		0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // linear
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0xbf} // angular
	if got := Marshal(nil, &m); !bytes.Equal(got, want) {
		t.Fatalf("TwistStamped:\n got % x\nwant % x", got, want)
	}
	var back TwistStamped
	if err := Unmarshal(want, &back); err != nil || back != m {
		t.Fatalf("decoded %+v, %v", back, err)
	}
}

func TestDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want Duration
	}{{1500 * time.Millisecond, Duration{1, 5e8}}, {-500 * time.Millisecond, Duration{-1, 5e8}}, {0, Duration{}}} {
		if got := DurationOf(c.d); got != c.want || got.Std() != c.d {
			t.Errorf("DurationOf(%v) = %+v (back %v), want %+v", c.d, got, got.Std(), c.want)
		}
	}
}

// goalMsg makes a FollowJointTrajectoryGoal a Message, for the tests.
type goalMsg struct{ FollowJointTrajectoryGoal }

func (*goalMsg) TypeName() string { return "goal" }

type feedbackMsg struct{ FollowJointTrajectoryFeedback }

func (*feedbackMsg) TypeName() string { return "feedback" }

// TestGoalRoundTrip: a goal with two points and tolerances decodes as it
// was; one with a multi-DOF trajectory's points and component tolerances
// (written here by hand) is read past to its goal time.
func TestGoalRoundTrip(t *testing.T) {
	g := goalMsg{FollowJointTrajectoryGoal{
		Trajectory: JointTrajectory{Header: Header{FrameID: "x"}, JointNames: []string{"a", "b"}, Points: []JointTrajectoryPoint{
			{Positions: []float64{1, 2}, TimeFromStart: Duration{1, 0}},
			{Positions: []float64{3, 4}, Velocities: []float64{0, 0}, TimeFromStart: Duration{2, 5}}}},
		PathTolerance:     []JointTolerance{{Name: "a", Position: 0.1}},
		GoalTolerance:     []JointTolerance{{Name: "b", Position: 0.2, Velocity: 1}},
		GoalTimeTolerance: Duration{3, 0},
	}}
	var back goalMsg
	if err := Unmarshal(Marshal(nil, &g), &back); err != nil {
		t.Fatal(err)
	}
	for i := range back.Trajectory.Points { // empty and nil alike
		for _, s := range []*[]float64{&back.Trajectory.Points[i].Velocities, &back.Trajectory.Points[i].Accelerations, &back.Trajectory.Points[i].Effort} {
			if len(*s) == 0 {
				*s = nil
			}
		}
	}
	if back.MultiDOFTrajectory.JointNames != nil && len(back.MultiDOFTrajectory.JointNames) == 0 {
		back.MultiDOFTrajectory.JointNames = nil
	}
	if !reflect.DeepEqual(back, g) {
		t.Fatalf("goal\n%+v\ndecoded as\n%+v", g, back)
	}

	var e cdr.Encoder
	e.Reset(nil, cdr.CDRLE)
	g.Trajectory.MarshalCDR(&e)
	(&Header{}).MarshalCDR(&e)
	e.Strings([]string{"base"})
	e.SeqLen(1) // one multi-DOF point: a transform, a twist, no acceleration
	e.SeqLen(1)
	for range 7 {
		e.Float64(1)
	}
	e.SeqLen(1)
	for range 6 {
		e.Float64(2)
	}
	e.SeqLen(0)
	e.Int32(1)
	e.Uint32(0)
	e.SeqLen(0)
	e.SeqLen(1) // a component path tolerance
	e.String("base")
	e.Uint16(4)
	e.Float64(0.1)
	e.Float64(0)
	e.Float64(0)
	e.SeqLen(0)
	e.SeqLen(0)
	e.Int32(7)
	e.Uint32(9)
	back = goalMsg{}
	if err := Unmarshal(e.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.MultiDOFTrajectory.Points != 1 || back.ComponentPath != 1 || back.GoalTimeTolerance != (Duration{7, 9}) || len(back.Trajectory.Points) != 2 {
		t.Fatalf("multi-DOF goal decoded as %+v", back)
	}
}

// FuzzMotionUnmarshal: no input makes the command and action decoders
// panic or take more than a second (bounds.Slow), and what decodes
// re-encodes to a payload that decodes again.
func FuzzMotionUnmarshal(f *testing.F) {
	f.Add(Marshal(nil, &TwistStamped{Header: Header{FrameID: "b"}}))
	f.Add(Marshal(nil, &JointTrajectory{JointNames: []string{"a"}, Points: []JointTrajectoryPoint{{Positions: []float64{1}}}}))
	f.Add(Marshal(nil, &goalMsg{}))
	f.Add(Marshal(nil, &GoalStatusArray{List: []GoalStatus{{Status: 2}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		defer bounds.Slow(t)()
		for _, m := range []Message{&Twist{}, &TwistStamped{}, &JointTrajectory{}, &goalMsg{}, &feedbackMsg{}, &GoalStatusArray{}} {
			if Unmarshal(b, m) != nil {
				continue
			}
			again := reflect.New(reflect.TypeOf(m).Elem()).Interface().(Message)
			if err := Unmarshal(Marshal(nil, m), again); err != nil {
				t.Fatalf("%s: re-encoded message does not decode: %v", m.TypeName(), err)
			}
		}
	})
}
