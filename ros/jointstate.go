package ros

import (
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"

	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

// RestPositions are the positions /joint_states reports for joints that
// no sensor has measured yet: the URDF's zero, moved into the joint's
// limits when zero is outside them, the pose the URDF itself draws.
func RestPositions(r *robot.Robot) map[string]float64 {
	rest := make(map[string]float64, len(r.Joints))
	for _, j := range r.Joints {
		p := 0.0
		if u := j.URDF; u != nil && u.Limit != nil && (u.Type == urdf.Revolute || u.Type == urdf.Prismatic) && u.Limit.Lower <= u.Limit.Upper {
			p = min(max(p, u.Limit.Lower), u.Limit.Upper)
		}
		rest[j.Name] = p
	}
	return rest
}

// jointState is every movable joint, always all of them, in one order
// (the loop's) from the first message on, each with a position, a
// velocity and an effort, as ros_control's joint_state_controller
// publishes them. A position no sensor measures is the last one measured,
// or the joint's rest position (RestPositions) until one is: never NaN,
// which robot_state_publisher would pass on to /tf, and no joint missing,
// which would leave its child links out of the TF tree. A velocity or
// effort not measured is 0, as ros_control's hardware interfaces report
// it. /diagnostics and ~list_controllers say which joints measure what.
func (m *builder) jointState() *sensor_msgs.JointState {
	n := len(m.s.Joints)
	msg := &m.js
	msg.Header, msg.Name = m.header(&m.seqJS, ""), m.names
	msg.Position, msg.Velocity, msg.Effort = resize(msg.Position, n), resize(msg.Velocity, n), resize(msg.Effort, n)
	for i, j := range m.s.Joints {
		st := j.State
		if st.Has&interfaces.HasPosition != 0 && interfaces.Finite(st.Position) {
			m.lastPos[i] = st.Position
		}
		msg.Position[i] = m.lastPos[i]
		msg.Velocity[i], msg.Effort[i] = 0, 0
		if st.Has&interfaces.HasVelocity != 0 && interfaces.Finite(st.Velocity) {
			msg.Velocity[i] = st.Velocity
		}
		if st.Has&interfaces.HasEffort != 0 && interfaces.Finite(st.Effort) {
			msg.Effort[i] = st.Effort
		}
	}
	return msg
}

// resize is s with length n, reusing its array when it is large enough.
func resize(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
