package ros2bridge_test

import (
	"context"
	"testing"

	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

// TestNamespacedTopics: frcd run with __ns:=/r1 publishes the topics
// ros2_control makes relative under /r1, as joint_state_broadcaster's
// "joint_states" and "dynamic_joint_states" (ros2_controllers jazzy
// joint_state_broadcaster.cpp) and robot_state_publisher's
// "robot_description", and keeps the absolute ones where they are (/diagnostics,
// as diagnostic_updater publishes it): a peer in the root namespace
// matches /r1/joint_states, /r1/dynamic_joint_states,
// /r1/robot_description and /diagnostics, and nothing on /dynamic_joint_states, so
// that two namespaced robots in one domain keep their states apart.
func TestNamespacedTopics(t *testing.T) {
	_, _, _ = newBridge(t, nil, func(o *ros2bridge.Options) { o.Node.Namespace = "/r1" })
	cfg := discovery(t)
	cfg.Name = "peer"
	peer, err := ros2node.New(ros2node.Config{Name: "peer", RTPS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	sub := func(topic string, m ros2msg.Message, q rtps.QoS) *ros2node.Subscription {
		r, err := peer.Subscribe(topic, m, q, func(rtps.Sample) {})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	bare := sub("/dynamic_joint_states", &ros2msg.DynamicJointState{}, ros2node.Default)
	for _, s := range []struct {
		topic string
		m     ros2msg.Message
		q     rtps.QoS
	}{
		{"/r1/" + ros2bridge.JointStatesTopic, &ros2msg.JointState{}, ros2node.Default},
		{"/r1/" + ros2bridge.DynamicJointStateTopic, &ros2msg.DynamicJointState{}, ros2node.Default},
		{"/r1/" + ros2bridge.RobotDescriptionTopic, &ros2msg.String{}, ros2node.Latched},
		{ros2bridge.DiagnosticsTopic, &ros2msg.DiagnosticArray{}, ros2node.Default},
	} {
		if err := sub(s.topic, s.m, s.q).WaitMatched(ctx, 1); err != nil {
			t.Fatalf("%s: no writer of frcd's in /r1 matched: %v", s.topic, err)
		}
	}
	if n := bare.Matched(); n != 0 {
		t.Fatalf("/dynamic_joint_states: %d writers matched, frcd in /r1 publishes /r1/dynamic_joint_states", n)
	}
}
