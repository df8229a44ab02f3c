package ros2msg

import "github.com/frcd/frcd/cdr"

// ros2_control's state messages, from their .msg files at
// ros-controls/control_msgs jazzy f901df26 (5.8.0; humble 2e31e46d where
// noted):
//
//   - control_msgs/msg/MultiDOFStateStamped: std_msgs/Header header;
//     SingleDOFState[] dof_states (what pid_controller publishes on
//     ~/controller_state);
//   - control_msgs/msg/SingleDOFState: string name; float64 reference,
//     feedback, feedback_dot, error, error_dot, time_step, output;
//   - control_msgs/msg/JointTrajectoryControllerState: header; string[]
//     joint_names; trajectory_msgs/JointTrajectoryPoint reference,
//     feedback, error, output; string[] multi_dof_joint_names;
//     trajectory_msgs/MultiDOFJointTrajectoryPoint multi_dof_reference,
//     multi_dof_feedback, multi_dof_error, multi_dof_output; float64
//     speed_scaling_factor (added in 5.3.0, control_msgs d2efe18). Humble's
//     has desired and actual after output, multi_dof_desired and
//     multi_dof_actual after multi_dof_output, and no speed_scaling_factor;
//   - control_msgs/msg/MultiDOFCommand: string[] dof_names; float64[]
//     values; float64[] values_dot (what pid_controller takes on
//     ~/reference);
//   - control_msgs/msg/DynamicJointState: header; string[] joint_names;
//     InterfaceValue[] interface_values (joint_state_broadcaster's
//     /dynamic_joint_states), InterfaceValue: string[] interface_names;
//     float64[] values. The same in Humble.

// SingleDOFState is control_msgs/msg/SingleDOFState.
type SingleDOFState struct {
	Name                              string
	Reference, Feedback, FeedbackDot  float64
	Error, ErrorDot, TimeStep, Output float64
}

// MultiDOFStateStamped is control_msgs/msg/MultiDOFStateStamped.
type MultiDOFStateStamped struct {
	Header    Header
	DOFStates []SingleDOFState
}

// TypeName implements Message.
func (*MultiDOFStateStamped) TypeName() string {
	return "control_msgs::msg::dds_::MultiDOFStateStamped_"
}

// MarshalCDR implements Message.
func (m *MultiDOFStateStamped) MarshalCDR(e *cdr.Encoder) {
	m.Header.MarshalCDR(e)
	e.SeqLen(len(m.DOFStates))
	for i := range m.DOFStates {
		s := &m.DOFStates[i]
		e.String(s.Name)
		for _, v := range [...]float64{s.Reference, s.Feedback, s.FeedbackDot, s.Error, s.ErrorDot, s.TimeStep, s.Output} {
			e.Float64(v)
		}
	}
}

// UnmarshalCDR implements Message.
func (m *MultiDOFStateStamped) UnmarshalCDR(d *cdr.Decoder) {
	m.Header.UnmarshalCDR(d)
	n := d.SeqLen(5 + 7*8) // a name's length and NUL, seven float64
	m.DOFStates = growTo(m.DOFStates, n)
	for i := range m.DOFStates {
		s := &m.DOFStates[i]
		s.Name = d.String()
		s.Reference, s.Feedback, s.FeedbackDot = d.Float64(), d.Float64(), d.Float64()
		s.Error, s.ErrorDot, s.TimeStep, s.Output = d.Float64(), d.Float64(), d.Float64(), d.Float64()
	}
}

// JointTrajectoryControllerState is
// control_msgs/msg/JointTrajectoryControllerState, in Jazzy's layout, or
// Humble's with Humble set (Desired and Actual then follow Output; no
// SpeedScalingFactor). frcd has no multi-DOF joints: their names and
// points are sent empty and skipped when read.
type JointTrajectoryControllerState struct {
	Header                     Header
	JointNames                 []string
	Reference, Feedback, Error JointTrajectoryPoint
	Output                     JointTrajectoryPoint
	Desired, Actual            JointTrajectoryPoint // Humble's only
	MultiDOFJointNames         []string
	SpeedScalingFactor         float64 // Jazzy's only
	Humble                     bool
}

// TypeName implements Message.
func (*JointTrajectoryControllerState) TypeName() string {
	return "control_msgs::msg::dds_::JointTrajectoryControllerState_"
}

// multiDOFPoints is how many MultiDOFJointTrajectoryPoint the message has.
func (m *JointTrajectoryControllerState) multiDOFPoints() int {
	if m.Humble {
		return 6
	}
	return 4
}

// MarshalCDR implements Message.
func (m *JointTrajectoryControllerState) MarshalCDR(e *cdr.Encoder) {
	m.Header.MarshalCDR(e)
	e.Strings(m.JointNames)
	m.Reference.marshal(e)
	m.Feedback.marshal(e)
	m.Error.marshal(e)
	m.Output.marshal(e)
	if m.Humble {
		m.Desired.marshal(e)
		m.Actual.marshal(e)
	}
	e.Strings(m.MultiDOFJointNames)
	for range m.multiDOFPoints() {
		emptyMultiDOFPoint(e)
	}
	if !m.Humble {
		e.Float64(m.SpeedScalingFactor)
	}
}

// UnmarshalCDR implements Message (in the layout Humble says).
func (m *JointTrajectoryControllerState) UnmarshalCDR(d *cdr.Decoder) {
	m.Header.UnmarshalCDR(d)
	m.JointNames = d.Strings(m.JointNames)
	m.Reference.unmarshal(d)
	m.Feedback.unmarshal(d)
	m.Error.unmarshal(d)
	m.Output.unmarshal(d)
	if m.Humble {
		m.Desired.unmarshal(d)
		m.Actual.unmarshal(d)
	}
	m.MultiDOFJointNames = d.Strings(m.MultiDOFJointNames)
	for i := 0; i < m.multiDOFPoints() && d.Err() == nil; i++ {
		skipMultiDOFPoint(d)
	}
	if !m.Humble {
		m.SpeedScalingFactor = d.Float64()
	}
}

// MultiDOFCommand is control_msgs/msg/MultiDOFCommand.
type MultiDOFCommand struct {
	DOFNames          []string
	Values, ValuesDot []float64
}

// TypeName implements Message.
func (*MultiDOFCommand) TypeName() string { return "control_msgs::msg::dds_::MultiDOFCommand_" }

// MarshalCDR implements Message.
func (m *MultiDOFCommand) MarshalCDR(e *cdr.Encoder) {
	e.Strings(m.DOFNames)
	e.Float64s(m.Values)
	e.Float64s(m.ValuesDot)
}

// UnmarshalCDR implements Message.
func (m *MultiDOFCommand) UnmarshalCDR(d *cdr.Decoder) {
	m.DOFNames = d.Strings(m.DOFNames)
	m.Values = d.Float64s(m.Values)
	m.ValuesDot = d.Float64s(m.ValuesDot)
}

// InterfaceValue is control_msgs/msg/InterfaceValue.
type InterfaceValue struct {
	InterfaceNames []string
	Values         []float64
}

// DynamicJointState is control_msgs/msg/DynamicJointState.
type DynamicJointState struct {
	Header          Header
	JointNames      []string
	InterfaceValues []InterfaceValue
}

// TypeName implements Message.
func (*DynamicJointState) TypeName() string { return "control_msgs::msg::dds_::DynamicJointState_" }

// MarshalCDR implements Message.
func (m *DynamicJointState) MarshalCDR(e *cdr.Encoder) {
	m.Header.MarshalCDR(e)
	e.Strings(m.JointNames)
	e.SeqLen(len(m.InterfaceValues))
	for i := range m.InterfaceValues {
		e.Strings(m.InterfaceValues[i].InterfaceNames)
		e.Float64s(m.InterfaceValues[i].Values)
	}
}

// UnmarshalCDR implements Message.
func (m *DynamicJointState) UnmarshalCDR(d *cdr.Decoder) {
	m.Header.UnmarshalCDR(d)
	m.JointNames = d.Strings(m.JointNames)
	n := d.SeqLen(8) // two sequences' lengths
	m.InterfaceValues = growTo(m.InterfaceValues, n)
	for i := range m.InterfaceValues {
		v := &m.InterfaceValues[i]
		v.InterfaceNames = d.Strings(v.InterfaceNames)
		v.Values = d.Float64s(v.Values)
	}
}
