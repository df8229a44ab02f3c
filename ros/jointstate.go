package ros

import (
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
)

// jointState is every movable joint, always all of them, in one order
// (the loop's) from the first message on, each with a position, a
// velocity and an effort, by package jointstate's rules (shared with the
// ROS 2 bridge). /diagnostics and ~list_controllers say which joints
// measure what.
func (m *builder) jointState() *sensor_msgs.JointState {
	msg := &m.js
	msg.Header, msg.Name = m.header(&m.seqJS, ""), m.joints.Names
	msg.Position, msg.Velocity, msg.Effort = m.joints.Fill(m.s, msg.Position, msg.Velocity, msg.Effort)
	return msg
}
