package ros2msg

import "github.com/frcd/frcd/cdr"

// What every ROS 2 action shares (ros2/rcl_interfaces action_msgs and
// unique_identifier_msgs, f6b3741d): a goal is named by a UUID
// (unique_identifier_msgs/msg/UUID {uint8[16] uuid}: 16 octets, no
// length), action_msgs/msg/GoalInfo {UUID goal_id; builtin_interfaces/Time
// stamp}, action_msgs/msg/GoalStatus {GoalInfo goal_info; int8 status}
// and GoalStatusArray {GoalStatus[] status_list}.

// UUID is unique_identifier_msgs/msg/UUID.
type UUID [16]byte

// MarshalCDR writes the 16 octets.
func (u *UUID) MarshalCDR(e *cdr.Encoder) {
	for _, b := range u {
		e.Uint8(b)
	}
}

// UnmarshalCDR reads the 16 octets.
func (u *UUID) UnmarshalCDR(d *cdr.Decoder) {
	for i := range u {
		u[i] = d.Uint8()
	}
}

// Goal states, action_msgs/msg/GoalStatus's STATUS_ constants.
const (
	GoalUnknown   int8 = 0
	GoalAccepted  int8 = 1
	GoalExecuting int8 = 2
	GoalCanceling int8 = 3
	GoalSucceeded int8 = 4
	GoalCanceled  int8 = 5
	GoalAborted   int8 = 6
)

// CancelGoal's return codes (action_msgs/srv/CancelGoal).
const (
	CancelNone           int8 = 0
	CancelRejected       int8 = 1
	CancelUnknownGoal    int8 = 2
	CancelGoalTerminated int8 = 3
)

// GoalInfo is action_msgs/msg/GoalInfo.
type GoalInfo struct {
	ID    UUID
	Stamp Time
}

// MarshalCDR writes the goal info.
func (g *GoalInfo) MarshalCDR(e *cdr.Encoder) { g.ID.MarshalCDR(e); g.Stamp.MarshalCDR(e) }

// UnmarshalCDR reads the goal info.
func (g *GoalInfo) UnmarshalCDR(d *cdr.Decoder) { g.ID.UnmarshalCDR(d); g.Stamp.UnmarshalCDR(d) }

// GoalStatus is action_msgs/msg/GoalStatus.
type GoalStatus struct {
	Info   GoalInfo
	Status int8
}

// GoalStatusArray is action_msgs/msg/GoalStatusArray.
type GoalStatusArray struct{ List []GoalStatus }

// TypeName implements Message.
func (*GoalStatusArray) TypeName() string { return "action_msgs::msg::dds_::GoalStatusArray_" }

// MarshalCDR implements Message.
func (m *GoalStatusArray) MarshalCDR(e *cdr.Encoder) {
	e.SeqLen(len(m.List))
	for i := range m.List {
		m.List[i].Info.MarshalCDR(e)
		e.Int8(m.List[i].Status)
	}
}

// UnmarshalCDR implements Message.
func (m *GoalStatusArray) UnmarshalCDR(d *cdr.Decoder) {
	m.List = grow(m.List, d.SeqLen(16+8+1))
	for i := range m.List {
		m.List[i].Info.UnmarshalCDR(d)
		m.List[i].Status = d.Int8()
	}
}
