package ros2bridge_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/urdf"
)

// exampleMovable are the example robot's movable joints, and its joints
// by child link.
func exampleMovable(t *testing.T) ([]ros2bridge.MovableJoint, map[string]*urdf.Joint) {
	t.Helper()
	r, _, err := robot.Load(exampleURDF, exampleYAML)
	if err != nil {
		t.Fatal(err)
	}
	var movable []ros2bridge.MovableJoint
	joints := map[string]*urdf.Joint{}
	for _, j := range r.URDF.Joints {
		if j.Type == urdf.Revolute || j.Type == urdf.Continuous || j.Type == urdf.Prismatic {
			movable = append(movable, ros2bridge.MovableJoint{Name: j.Name, Parent: j.Parent, Child: j.Child, Motion: j.Motion})
			joints[j.Child] = j
		}
	}
	return movable, joints
}

// TestJointTransforms: with the example robot's movable joints, a peer
// reads /tf with one transform per joint (parent -> child, as
// robot_state_publisher publishes them) and each equals the URDF joint's
// motion at the position /joint_states gave with the same stamp; the
// turret, moved to 1 rad by its command, is turned 1 rad about its axis.
func TestJointTransforms(t *testing.T) {
	movable, joints := exampleMovable(t)
	d, b, _ := newBridge(t, t.Logf, func(o *ros2bridge.Options) { o.State.Movable = movable })
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	peer := newPeer(t)
	tfs := sub(t, peer, "/tf", ros2node.Default, func() *ros2msg.TFMessage { return &ros2msg.TFMessage{} })
	states := sub(t, peer, "/joint_states", ros2node.Default, func() *ros2msg.JointState { return &ros2msg.JointState{} })
	turret := d.Loop.Controller("turret_position")
	if err := turret.Command(1, d.Now()); err != nil {
		t.Fatal(err)
	}
	byStamp := map[ros2msg.Time]*ros2msg.JointState{}
	checked := 0
	for checked < 3 && ctx.Err() == nil {
		for range 10 {
			d.Step()
		}
		b.Publish()
		for drained := false; !drained; {
			select {
			case js := <-states:
				byStamp[js.Header.Stamp] = js
			case tf := <-tfs:
				if tf.Transforms[0].Header.FrameID == "odom" {
					continue // the drive base's odom -> base_link, a /tf message of its own
				}
				js := byStamp[tf.Transforms[0].Header.Stamp]
				if js == nil {
					continue // its joint states not read yet (or lost): the next one
				}
				if len(tf.Transforms) != len(movable) {
					t.Fatalf("/tf has %d transforms, the URDF %d movable joints", len(tf.Transforms), len(movable))
				}
				pos := map[string]float64{}
				for i, n := range js.Name {
					pos[n] = js.Position[i]
				}
				for _, tr := range tf.Transforms {
					j := joints[tr.ChildFrameID]
					if j == nil || tr.Header.FrameID != j.Parent {
						t.Fatalf("/tf: %s -> %s is no movable joint", tr.Header.FrameID, tr.ChildFrameID)
					}
					wt, wr := j.Motion(pos[j.Name])
					got := tr.Transform
					if got.Translation != (ros2msg.Vector3{X: wt[0], Y: wt[1], Z: wt[2]}) ||
						got.Rotation != (ros2msg.Quaternion{W: wr[0], X: wr[1], Y: wr[2], Z: wr[3]}) {
						t.Fatalf("/tf %s at %v: %+v, want %v %v", j.Name, pos[j.Name], got, wt, wr)
					}
				}
				checked++
			case <-time.After(time.Millisecond):
				drained = true
			}
		}
	}
	if ctx.Err() != nil {
		t.Fatalf("checked %d /tf messages", checked)
	}
	// The turret, at its set point by now, turned about its axis.
	for checked := false; !checked; {
		for range 100 {
			d.Step()
		}
		b.Publish()
		select {
		case tf := <-tfs:
			for _, tr := range tf.Transforms {
				if j := joints[tr.ChildFrameID]; j != nil && j.Name == "turret_joint" {
					q := tr.Transform.Rotation
					if angle := 2 * math.Atan2(math.Sqrt(q.X*q.X+q.Y*q.Y+q.Z*q.Z), q.W); math.Abs(angle-1) > 0.1 {
						t.Fatalf("the turret's frame turned %.3f rad; commanded 1", angle)
					}
					checked = true
				}
			}
		case <-ctx.Done():
			t.Fatal("no /tf with the turret")
		}
	}
}
