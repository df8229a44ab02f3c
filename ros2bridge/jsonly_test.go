package ros2bridge_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

// TestJointStatesOnly: with Options.JointStatesOnly (make bench's like
// for like, internal/ros2bench), a peer matched to /joint_states, /tf and
// /dynamic_joint_states gets 20 joint states and nothing on the other
// two; without it, the same peer gets all three.
func TestJointStatesOnly(t *testing.T) {
	movable, _ := exampleMovable(t)
	for _, only := range []bool{false, true} {
		t.Run(fmt.Sprint("JointStatesOnly=", only), func(t *testing.T) { jointStatesOnly(t, only, movable) })
	}
}

// jointStatesOnly is TestJointStatesOnly with JointStatesOnly set to only,
// its bridge and peer closed at its end.
func jointStatesOnly(t *testing.T, only bool, movable []ros2bridge.MovableJoint) {
	d, b, _ := newBridge(t, nil, func(o *ros2bridge.Options) {
		o.JointStatesOnly, o.State.Movable = only, movable
	})
	cfg := discovery(t)
	peer, err := ros2node.New(ros2node.Config{Name: "peer", RTPS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	var js, tf, dyn atomic.Int64
	sub := func(topic string, m ros2msg.Message, q rtps.QoS, n *atomic.Int64) *ros2node.Subscription {
		s, err := peer.Subscribe(topic, m, q, func(rtps.Sample) { n.Add(1) })
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	subs := []*ros2node.Subscription{sub("/joint_states", &ros2msg.JointState{}, ros2node.Default, &js),
		sub("/tf", &ros2msg.TFMessage{}, rtps.QoS{Reliability: rtps.Reliable, History: rtps.KeepLast, Depth: 100}, &tf),
		sub("/dynamic_joint_states", &ros2msg.DynamicJointState{}, ros2node.Default, &dyn)}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	for _, s := range subs {
		if err := s.WaitMatched(ctx, 1); err != nil {
			t.Fatalf("only %v: %s: %v", only, s.Topic(), err)
		}
	}
	// The peer's readers have matched frcd's writers; the writers may
	// match them a moment later (a volatile writer sends a reader only
	// what it writes after): step until 20 joint states arrived (and,
	// with every topic, a /tf and a /dynamic_joint_states).
	for i := 0; js.Load() < 20 || !only && (tf.Load() == 0 || dyn.Load() == 0); i++ {
		if ctx.Err() != nil {
			t.Fatalf("only %v: %d joint states, %d /tf, %d /dynamic_joint_states after %d cycles", only, js.Load(), tf.Load(), dyn.Load(), i)
		}
		d.Step()
		b.Update()
	}
	cancel()
	peer.Close() // no more samples counted
	t.Logf("JointStatesOnly %v: %d joint states, %d /tf, %d /dynamic_joint_states", only, js.Load(), tf.Load(), dyn.Load())
	if only && (tf.Load() != 0 || dyn.Load() != 0) {
		t.Errorf("JointStatesOnly: %d /tf and %d /dynamic_joint_states", tf.Load(), dyn.Load())
	}
	if !only && (tf.Load() == 0 || dyn.Load() == 0) {
		t.Errorf("all topics: %d /tf and %d /dynamic_joint_states", tf.Load(), dyn.Load())
	}
}
