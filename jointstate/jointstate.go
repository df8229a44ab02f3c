// Package jointstate builds the joint states frcd publishes, by the same
// rules on every transport (ROS 1's sensor_msgs/JointState, ROS 2's):
// every movable joint, always all of them, in the loop's order, never
// NaN. It knows no message type: it fills plain slices. The sim's ground
// truth and the sim/push rules, shared by both bridges, are in sim.go.
package jointstate

import (
	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

// RestPositions are the positions reported for joints that no sensor has
// measured yet: the URDF's zero, moved into the joint's limits when zero
// is outside them, the pose the URDF itself draws.
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

// Builder keeps what a joint state needs between messages: the joint
// names (fixed, the loop's order) and each joint's last measured
// position.
type Builder struct {
	// Names are the joints' names in the snapshot's order; shared by
	// every message (they never change).
	Names   []string
	lastPos []float64
}

// New is a Builder for the snapshot's joints; rest gives the positions
// of joints not measured yet (RestPositions; nil: 0).
func New(s *control.Snapshot, rest map[string]float64) *Builder {
	b := &Builder{Names: make([]string, 0, len(s.Joints)), lastPos: make([]float64, 0, len(s.Joints))}
	for _, j := range s.Joints {
		b.Names = append(b.Names, j.Name)
		b.lastPos = append(b.lastPos, rest[j.Name])
	}
	return b
}

// Fill sets position, velocity and effort (resized to the joint count,
// reusing their arrays) from the snapshot, as ros_control's
// joint_state_controller publishes them: a position no sensor measures
// is the last one measured, or the joint's rest position until one is
// (never NaN, which robot_state_publisher would pass on to /tf, and no
// joint missing, which would leave its child links out of the TF tree);
// a velocity or effort not measured is 0, as ros_control's hardware
// interfaces report it. It allocates only when a slice is too small.
func (b *Builder) Fill(s *control.Snapshot, position, velocity, effort []float64) (pos, vel, eff []float64) {
	n := len(b.Names)
	pos, vel, eff = resize(position, n), resize(velocity, n), resize(effort, n)
	for i := range n {
		st := s.Joints[i].State
		if st.Has&interfaces.HasPosition != 0 && interfaces.Finite(st.Position) {
			b.lastPos[i] = st.Position
		}
		pos[i] = b.lastPos[i]
		vel[i], eff[i] = 0, 0
		if st.Has&interfaces.HasVelocity != 0 && interfaces.Finite(st.Velocity) {
			vel[i] = st.Velocity
		}
		if st.Has&interfaces.HasEffort != 0 && interfaces.Finite(st.Effort) {
			eff[i] = st.Effort
		}
	}
	return pos, vel, eff
}

// resize is s with length n, reusing its array when it is large enough.
func resize(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
