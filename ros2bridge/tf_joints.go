package ros2bridge

import (
	"github.com/frcd/frcd/ros2msg"
)

// /tf for the URDF's movable joints, as robot_state_publisher computes it
// from /joint_states: one transform per joint, its child link's frame in
// its parent link's at the joint's position, in one message with the
// joint states' stamp, at their rate. With /tf_static (the fixed joints)
// this is all robot_state_publisher would publish for frcd's robot, so a
// robot running frcd over ROS 2 needs none (running one too publishes the
// same transforms twice, which tf2 takes).

// MovableJoint is one of the URDF's movable joints, for /tf.
type MovableJoint struct {
	Name, Parent, Child string
	// Motion is the child's frame in the parent's at position q:
	// translation and rotation (quaternion w, x, y, z), urdf.Joint.Motion.
	Motion func(q float64) (t [3]float64, r [4]float64)
}

// tfJoints are the movable joints with a position in /joint_states.
type tfJoints struct {
	joints []MovableJoint
	index  []int // into the joint states
	msg    ros2msg.TFMessage
}

// setupTFJoints finds each movable joint's position among the joint
// states; /tf's publisher is created by setupState.
func (b *Bridge) setupTFJoints() *tfJoints {
	at := map[string]int{}
	for i, n := range b.js.Name {
		at[n] = i
	}
	t := &tfJoints{}
	for _, j := range b.o.State.Movable {
		if i, ok := at[j.Name]; ok && j.Motion != nil {
			t.joints, t.index = append(t.joints, j), append(t.index, i)
		}
	}
	if len(t.joints) == 0 {
		return nil
	}
	t.msg.Transforms = make([]ros2msg.TransformStamped, len(t.joints))
	return t
}

// publishTFJoints publishes the movable joints' transforms at the joint
// states just built; it allocates nothing.
func (b *Bridge) publishTFJoints(stamp ros2msg.Time) {
	s := b.st
	t := s.joints
	if t == nil || s.tf == nil {
		return
	}
	for k, j := range t.joints {
		tr, r := j.Motion(b.js.Position[t.index[k]])
		t.msg.Transforms[k] = ros2msg.TransformStamped{Header: ros2msg.Header{Stamp: stamp, FrameID: j.Parent}, ChildFrameID: j.Child,
			Transform: ros2msg.Transform{Translation: ros2msg.Vector3{X: tr[0], Y: tr[1], Z: tr[2]},
				Rotation: ros2msg.Quaternion{X: r[1], Y: r[2], Z: r[3], W: r[0]}}}
	}
	b.countErr(s.tf.Publish(&t.msg))
}
