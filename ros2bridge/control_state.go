package ros2bridge

import (
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/jointstate"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
)

// The controllers' state and the joints' interfaces in ros2_control's
// forms (ros-controls/ros2_controllers jazzy ed360c97), beside ROS 1's
// NAME/state (state.go):
//
//	/NAME/controller_state  control_msgs/msg/MultiDOFStateStamped per PID
//	                        controller, as pid_controller publishes it
//	                        (pid_controller.cpp: one SingleDOFState per
//	                        DOF, named after it: its joint; reference,
//	                        feedback, feedback_dot, error, time_step and
//	                        output; error_dot stays 0, as pid_controller
//	                        leaves it with one reference per DOF), each
//	                        publication
//	/NAME/controller_state  control_msgs/msg/JointTrajectoryControllerState
//	                        per joint trajectory controller, as
//	                        joint_trajectory_controller publishes it
//	                        (joint_trajectory_controller.cpp publish_state):
//	                        reference and feedback positions and velocities,
//	                        error = reference - feedback, each with the
//	                        time from the trajectory's start; output empty
//	                        (frcd's outputs are volts, not a joint
//	                        interface); speed_scaling_factor 1. Sent when
//	                        the loop wrote new feedback (a trajectory runs
//	                        or holds), as ROS 1's NAME/state
//	dynamic_joint_states    control_msgs/msg/DynamicJointState, as
//	                        joint_state_broadcaster publishes it (relative,
//	                        beside joint_states: /NS/dynamic_joint_states
//	                        with __ns:=/NS; joint_state_broadcaster.cpp
//	                        creates both with "" before them unless
//	                        use_local_topics puts "~/"): each
//	                        measured joint with the interfaces it has now
//	                        (position, velocity, effort: frcd's joint
//	                        state; jointstate.Interfaces) and their values,
//	                        with /joint_states
//
// All reliable, volatile, keep last 10 (rclcpp::SystemDefaultsQoS as
// rmw's default profile). Nothing here allocates once set up.

// Topic names of ros2_control's forms, relative to the node's namespace.
const (
	ControllerStateTopic   = "controller_state"
	DynamicJointStateTopic = "dynamic_joint_states"
)

// controlTopics are the publishers and messages of control_state.go.
type controlTopics struct {
	pids     []*ros2node.Publisher // per snapshot PID, NAME/controller_state
	pidJoint []string              // its joint
	pidMsg   ros2msg.MultiDOFStateStamped

	trajs []*trajState

	dyn    *ros2node.Publisher
	dynMsg ros2msg.DynamicJointState
}

// trajState is one joint trajectory controller's controller_state.
type trajState struct {
	c    *control.Controller
	pub  *ros2node.Publisher
	fb   control.TrajectoryFeedback
	last time.Duration // the feedback's stamp last published
	msg  ros2msg.JointTrajectoryControllerState
}

// setupControlStates creates the publishers of control_state.go.
func (b *Bridge) setupControlStates() error {
	t := &controlTopics{}
	b.ctl = t
	byName := map[string]*control.Controller{}
	for _, c := range b.o.Loop.Controllers() {
		byName[c.Name] = c
		if c.Takes() != control.JointTrajectory {
			continue
		}
		ts := &trajState{c: c, last: -1}
		// Humble's layout when the node is Humble's: its desired and
		// actual (what Humble's trajectory controller filled, humble's
		// joint_trajectory_controller.cpp publish_state) carry the
		// reference and feedback.
		ts.msg.Humble = b.o.Node.Humble
		p, err := b.nodeOf(c.Name).Publisher(c.Name+"/"+ControllerStateTopic, &ts.msg, ros2node.Default)
		if err != nil {
			return err
		}
		ts.pub = p
		n := len(c.Joints)
		pt := func() ros2msg.JointTrajectoryPoint {
			return ros2msg.JointTrajectoryPoint{Positions: make([]float64, n), Velocities: make([]float64, n)}
		}
		ts.msg.JointNames = c.Joints
		ts.msg.Reference, ts.msg.Feedback, ts.msg.Error = pt(), pt(), pt()
		if ts.msg.Humble { // the same slices: filled once per publish
			ts.msg.Desired, ts.msg.Actual = ts.msg.Reference, ts.msg.Feedback
		}
		ts.msg.SpeedScalingFactor = 1
		t.trajs = append(t.trajs, ts)
	}
	for _, s := range b.snap.PIDs {
		p, err := b.nodeOf(s.Name).Publisher(s.Name+"/"+ControllerStateTopic, &t.pidMsg, ros2node.Default)
		if err != nil {
			return err
		}
		joint := s.Name
		if c := byName[s.Name]; c != nil && len(c.Joints) > 0 {
			joint = c.Joints[0]
		}
		t.pids, t.pidJoint = append(t.pids, p), append(t.pidJoint, joint)
	}
	t.pidMsg.DOFStates = make([]ros2msg.SingleDOFState, 1)
	var err error
	if t.dyn, err = b.jointStateNode().Publisher(DynamicJointStateTopic, &t.dynMsg, ros2node.Default); err != nil {
		return err
	}
	js := b.snap.Joints
	t.dynMsg.JointNames = make([]string, len(js))
	t.dynMsg.InterfaceValues = make([]ros2msg.InterfaceValue, len(js))
	for i := range js {
		t.dynMsg.JointNames[i] = js[i].Name
		t.dynMsg.InterfaceValues[i].Values = make([]float64, 0, 3)
	}
	return nil
}

// publishControlStates publishes the controllers' controller_state from
// the snapshot just read.
func (b *Bridge) publishControlStates(stamp ros2msg.Time, count func(error)) {
	t := b.ctl
	if t == nil {
		return
	}
	m := &t.pidMsg
	m.Header = ros2msg.Header{Stamp: stamp}
	for i := range b.snap.PIDs {
		p := &b.snap.PIDs[i]
		m.DOFStates[0] = ros2msg.SingleDOFState{Name: t.pidJoint[i], Reference: p.SetPoint, Feedback: p.Process, FeedbackDot: p.ProcessDot,
			Error: p.Error, TimeStep: p.TimeStep, Output: p.Command}
		count(t.pids[i].Publish(m))
	}
	for _, ts := range t.trajs {
		ts.c.Feedback(&ts.fb)
		fb := &ts.fb
		if fb.Stamp == 0 || fb.Stamp == ts.last || len(fb.Desired) != len(ts.msg.JointNames) {
			continue
		}
		ts.last = fb.Stamp
		m := &ts.msg
		m.Header = ros2msg.Header{Stamp: ros2msg.TimeOf(b.o.Epoch.Add(fb.Stamp))}
		tfs := ros2msg.DurationOf(time.Duration(fb.Time * float64(time.Second)))
		copy(m.Reference.Positions, fb.Desired)
		copy(m.Reference.Velocities, fb.DesiredVel)
		copy(m.Feedback.Positions, fb.Actual)
		copy(m.Feedback.Velocities, fb.ActualVel)
		for j := range fb.Desired {
			m.Error.Positions[j] = fb.Desired[j] - fb.Actual[j]
			m.Error.Velocities[j] = fb.DesiredVel[j] - fb.ActualVel[j]
		}
		m.Reference.TimeFromStart, m.Feedback.TimeFromStart, m.Error.TimeFromStart = tfs, tfs, tfs
		m.Desired.TimeFromStart, m.Actual.TimeFromStart = tfs, tfs
		count(ts.pub.Publish(m))
	}
}

// publishDynamicJointStates publishes /dynamic_joint_states from the
// snapshot just read, stamped as /joint_states.
func (b *Bridge) publishDynamicJointStates(stamp ros2msg.Time) {
	t := b.ctl
	if t == nil {
		return
	}
	m := &t.dynMsg
	m.Header = ros2msg.Header{Stamp: stamp}
	for i := range b.snap.Joints {
		iv := &m.InterfaceValues[i]
		iv.InterfaceNames, iv.Values = jointstate.Interfaces(&b.snap.Joints[i].State, iv.Values)
	}
	b.countErr(t.dyn.Publish(m))
}
