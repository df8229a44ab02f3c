package ros2msg

import (
	"time"

	"github.com/frcd/frcd/cdr"
)

// The messages a drive base and a joint trajectory controller take, and
// the FollowJointTrajectory action's, as ROS 2 Jazzy (and Humble) define
// them; the sources, with their commits, are in docs/ros2.md
// ("Commands"):
//   - geometry_msgs/msg/Vector3, Twist, TwistStamped, Transform and
//     Quaternion (ros2/common_interfaces);
//   - builtin_interfaces/msg/Duration {int32 sec; uint32 nanosec};
//   - trajectory_msgs/msg/JointTrajectory, JointTrajectoryPoint,
//     MultiDOFJointTrajectory(Point);
//   - control_msgs/msg/JointTolerance, JointComponentTolerance and
//     control_msgs/action/FollowJointTrajectory (ros-controls/control_msgs
//     jazzy f901df26, humble 2e31e46d: the same layout).

// Vector3 is geometry_msgs/msg/Vector3.
type Vector3 struct{ X, Y, Z float64 }

func (v *Vector3) marshal(e *cdr.Encoder)   { e.Float64(v.X); e.Float64(v.Y); e.Float64(v.Z) }
func (v *Vector3) unmarshal(d *cdr.Decoder) { v.X, v.Y, v.Z = d.Float64(), d.Float64(), d.Float64() }

// Twist is geometry_msgs/msg/Twist.
type Twist struct{ Linear, Angular Vector3 }

// TypeName implements Message.
func (*Twist) TypeName() string { return "geometry_msgs::msg::dds_::Twist_" }

// MarshalCDR implements Message.
func (m *Twist) MarshalCDR(e *cdr.Encoder) { m.Linear.marshal(e); m.Angular.marshal(e) }

// UnmarshalCDR implements Message.
func (m *Twist) UnmarshalCDR(d *cdr.Decoder) { m.Linear.unmarshal(d); m.Angular.unmarshal(d) }

// TwistStamped is geometry_msgs/msg/TwistStamped.
type TwistStamped struct {
	Header Header
	Twist  Twist
}

// TypeName implements Message.
func (*TwistStamped) TypeName() string { return "geometry_msgs::msg::dds_::TwistStamped_" }

// MarshalCDR implements Message.
func (m *TwistStamped) MarshalCDR(e *cdr.Encoder) { m.Header.MarshalCDR(e); m.Twist.MarshalCDR(e) }

// UnmarshalCDR implements Message.
func (m *TwistStamped) UnmarshalCDR(d *cdr.Decoder) {
	m.Header.UnmarshalCDR(d)
	m.Twist.UnmarshalCDR(d)
}

// Duration is builtin_interfaces/msg/Duration.
type Duration struct {
	Sec     int32
	Nanosec uint32
}

// Std is the duration as a time.Duration (saturating).
func (d Duration) Std() time.Duration {
	return time.Duration(d.Sec)*time.Second + time.Duration(d.Nanosec)
}

// DurationOf is d as a Duration.
func DurationOf(d time.Duration) Duration {
	s := d.Truncate(time.Second)
	if d < 0 && s != d {
		s -= time.Second
	}
	return Duration{Sec: int32(s / time.Second), Nanosec: uint32(d - s)}
}

func (m *Duration) marshal(e *cdr.Encoder)   { e.Int32(m.Sec); e.Uint32(m.Nanosec) }
func (m *Duration) unmarshal(d *cdr.Decoder) { m.Sec = d.Int32(); m.Nanosec = d.Uint32() }

// JointTrajectoryPoint is trajectory_msgs/msg/JointTrajectoryPoint.
type JointTrajectoryPoint struct {
	Positions, Velocities, Accelerations, Effort []float64
	TimeFromStart                                Duration
}

func (p *JointTrajectoryPoint) marshal(e *cdr.Encoder) {
	e.Float64s(p.Positions)
	e.Float64s(p.Velocities)
	e.Float64s(p.Accelerations)
	e.Float64s(p.Effort)
	p.TimeFromStart.marshal(e)
}

func (p *JointTrajectoryPoint) unmarshal(d *cdr.Decoder) {
	p.Positions = d.Float64s(p.Positions)
	p.Velocities = d.Float64s(p.Velocities)
	p.Accelerations = d.Float64s(p.Accelerations)
	p.Effort = d.Float64s(p.Effort)
	p.TimeFromStart.unmarshal(d)
}

// JointTrajectory is trajectory_msgs/msg/JointTrajectory.
type JointTrajectory struct {
	Header     Header
	JointNames []string
	Points     []JointTrajectoryPoint
}

// TypeName implements Message.
func (*JointTrajectory) TypeName() string { return "trajectory_msgs::msg::dds_::JointTrajectory_" }

// MarshalCDR implements Message.
func (m *JointTrajectory) MarshalCDR(e *cdr.Encoder) {
	m.Header.MarshalCDR(e)
	e.Strings(m.JointNames)
	e.SeqLen(len(m.Points))
	for i := range m.Points {
		m.Points[i].marshal(e)
	}
}

// UnmarshalCDR implements Message; it reuses m's slices.
func (m *JointTrajectory) UnmarshalCDR(d *cdr.Decoder) {
	m.Header.UnmarshalCDR(d)
	m.JointNames = d.Strings(m.JointNames)
	n := d.SeqLen(4*4 + 8) // four empty arrays and a duration
	m.Points = grow(m.Points, n)
	for i := range m.Points {
		m.Points[i].unmarshal(d)
	}
}

// grow is s resized to n, its elements kept where it has room.
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return append(s[:cap(s)], make([]T, n-cap(s))...)
}

// MultiDOFJointTrajectory is trajectory_msgs/msg/MultiDOFJointTrajectory,
// kept only as its sizes: frcd moves no multi-DOF joint, so a goal with
// one is refused, but its fields must be read past.
type MultiDOFJointTrajectory struct {
	Header     Header
	JointNames []string
	Points     int // how many points it had
}

// A MultiDOFJointTrajectoryPoint: geometry_msgs/Transform[] transforms (a
// Vector3 and a Quaternion, 7 float64), Twist[] velocities, Twist[]
// accelerations (6 float64 each), builtin_interfaces/Duration.
func (m *MultiDOFJointTrajectory) marshal(e *cdr.Encoder) {
	m.Header.MarshalCDR(e)
	e.Strings(m.JointNames)
	e.SeqLen(m.Points)
	for range m.Points {
		emptyMultiDOFPoint(e)
	}
}

// emptyMultiDOFPoint writes a MultiDOFJointTrajectoryPoint with nothing
// in it.
func emptyMultiDOFPoint(e *cdr.Encoder) {
	e.SeqLen(0)
	e.SeqLen(0)
	e.SeqLen(0)
	var dur Duration
	dur.marshal(e)
}

func (m *MultiDOFJointTrajectory) unmarshal(d *cdr.Decoder) {
	m.Header.UnmarshalCDR(d)
	m.JointNames = d.Strings(m.JointNames)
	m.Points = d.SeqLen(3*4 + 8)
	for i := 0; i < m.Points && d.Err() == nil; i++ {
		skipMultiDOFPoint(d)
	}
}

// skipMultiDOFPoint reads past a MultiDOFJointTrajectoryPoint.
func skipMultiDOFPoint(d *cdr.Decoder) {
	for _, floats := range []int{7, 6, 6} {
		n := d.SeqLen(8 * floats)
		for k := 0; k < n*floats && d.Err() == nil; k++ {
			d.Float64()
		}
	}
	var dur Duration
	dur.unmarshal(d)
}

// JointTolerance is control_msgs/msg/JointTolerance.
type JointTolerance struct {
	Name                             string
	Position, Velocity, Acceleration float64
}

func (t *JointTolerance) marshal(e *cdr.Encoder) {
	e.String(t.Name)
	e.Float64(t.Position)
	e.Float64(t.Velocity)
	e.Float64(t.Acceleration)
}

func (t *JointTolerance) unmarshal(d *cdr.Decoder) {
	t.Name, t.Position, t.Velocity, t.Acceleration = d.String(), d.Float64(), d.Float64(), d.Float64()
}

func marshalTolerances(e *cdr.Encoder, ts []JointTolerance) {
	e.SeqLen(len(ts))
	for i := range ts {
		ts[i].marshal(e)
	}
}

func unmarshalTolerances(d *cdr.Decoder, ts []JointTolerance) []JointTolerance {
	ts = grow(ts, d.SeqLen(5+3*8))
	for i := range ts {
		ts[i].unmarshal(d)
	}
	return ts
}

// skipComponentTolerances reads control_msgs/msg/JointComponentTolerance[]
// {string joint_name; uint16 component; float64 position, velocity,
// acceleration} and returns how many there were (frcd has no multi-DOF
// joint to apply them to).
func skipComponentTolerances(d *cdr.Decoder) int {
	n := d.SeqLen(5 + 2 + 3*8)
	for i := 0; i < n && d.Err() == nil; i++ {
		_ = d.String()
		d.Uint16()
		d.Float64()
		d.Float64()
		d.Float64()
	}
	return n
}

// FollowJointTrajectoryGoal is control_msgs/action/FollowJointTrajectory's
// goal.
type FollowJointTrajectoryGoal struct {
	Trajectory         JointTrajectory
	MultiDOFTrajectory MultiDOFJointTrajectory
	PathTolerance      []JointTolerance
	ComponentPath      int // how many component_path_tolerance entries
	GoalTolerance      []JointTolerance
	ComponentGoal      int // how many component_goal_tolerance entries
	GoalTimeTolerance  Duration
}

// MarshalCDR writes the goal's fields (a component tolerance is written
// as none: frcd never sends one).
func (m *FollowJointTrajectoryGoal) MarshalCDR(e *cdr.Encoder) {
	m.Trajectory.MarshalCDR(e)
	m.MultiDOFTrajectory.marshal(e)
	marshalTolerances(e, m.PathTolerance)
	e.SeqLen(0)
	marshalTolerances(e, m.GoalTolerance)
	e.SeqLen(0)
	m.GoalTimeTolerance.marshal(e)
}

// UnmarshalCDR reads the goal's fields.
func (m *FollowJointTrajectoryGoal) UnmarshalCDR(d *cdr.Decoder) {
	m.Trajectory.UnmarshalCDR(d)
	m.MultiDOFTrajectory.unmarshal(d)
	m.PathTolerance = unmarshalTolerances(d, m.PathTolerance)
	m.ComponentPath = skipComponentTolerances(d)
	m.GoalTolerance = unmarshalTolerances(d, m.GoalTolerance)
	m.ComponentGoal = skipComponentTolerances(d)
	m.GoalTimeTolerance.unmarshal(d)
}

// FollowJointTrajectoryResult is its result.
type FollowJointTrajectoryResult struct {
	ErrorCode   int32
	ErrorString string
}

// MarshalCDR writes the result's fields.
func (m *FollowJointTrajectoryResult) MarshalCDR(e *cdr.Encoder) {
	e.Int32(m.ErrorCode)
	e.String(m.ErrorString)
}

// FollowJointTrajectoryFeedback is its feedback; the multi-DOF fields are
// always empty.
type FollowJointTrajectoryFeedback struct {
	Header                 Header
	JointNames             []string
	Desired, Actual, Error JointTrajectoryPoint
}

// MarshalCDR writes the feedback's fields.
func (m *FollowJointTrajectoryFeedback) MarshalCDR(e *cdr.Encoder) {
	m.Header.MarshalCDR(e)
	e.Strings(m.JointNames)
	m.Desired.marshal(e)
	m.Actual.marshal(e)
	m.Error.marshal(e)
	e.SeqLen(0)   // multi_dof_joint_names
	for range 3 { // multi_dof_desired, _actual, _error: empty points
		emptyMultiDOFPoint(e)
	}
}

// UnmarshalCDR reads the feedback's fields (the multi-DOF ones read past).
func (m *FollowJointTrajectoryFeedback) UnmarshalCDR(d *cdr.Decoder) {
	m.Header.UnmarshalCDR(d)
	m.JointNames = d.Strings(m.JointNames)
	m.Desired.unmarshal(d)
	m.Actual.unmarshal(d)
	m.Error.unmarshal(d)
	d.Strings(nil)
	for range 3 {
		skipMultiDOFPoint(d)
	}
}

// UnmarshalCDR reads the result's fields.
func (m *FollowJointTrajectoryResult) UnmarshalCDR(d *cdr.Decoder) {
	m.ErrorCode, m.ErrorString = d.Int32(), d.String()
}
