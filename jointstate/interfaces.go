package jointstate

import "github.com/frcd/frcd/interfaces"

// ros2_control's state interfaces of a joint, as joint_state_broadcaster
// puts them in control_msgs/msg/DynamicJointState: each interface the
// joint has now, by hardware_interface's names (HW_IF_POSITION,
// HW_IF_VELOCITY, HW_IF_EFFORT), in that order.

// interfaceNames are the names of each combination of present fields.
var interfaceNames = func() (t [8][]string) {
	for f := range t {
		for _, n := range [...]struct {
			has  interfaces.Fields
			name string
		}{{interfaces.HasPosition, "position"}, {interfaces.HasVelocity, "velocity"}, {interfaces.HasEffort, "effort"}} {
			if interfaces.Fields(f)&n.has != 0 {
				t[f] = append(t[f], n.name)
			}
		}
	}
	return t
}()

// Interfaces are the interfaces st has now and their values, appended to
// values[:0]; the names are shared (never modify them). It allocates
// nothing once values has room for three.
func Interfaces(st *interfaces.JointState, values []float64) (names []string, vals []float64) {
	vals = values[:0]
	if st.Has&interfaces.HasPosition != 0 {
		vals = append(vals, st.Position)
	}
	if st.Has&interfaces.HasVelocity != 0 {
		vals = append(vals, st.Velocity)
	}
	if st.Has&interfaces.HasEffort != 0 {
		vals = append(vals, st.Effort)
	}
	return interfaceNames[st.Has&(interfaces.HasPosition|interfaces.HasVelocity|interfaces.HasEffort)], vals
}
