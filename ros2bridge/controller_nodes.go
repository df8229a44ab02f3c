package ros2bridge

import (
	"fmt"
	"math"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/ros2node"
)

// The graph as ros2_control makes it: beside frcd's node, in its
// participant and its namespace (ros2node.Node.NewNode, as rclcpp puts a
// context's nodes in one participant), a node controller_manager serving
// the controller_manager services (controller_manager.go) and a node per
// controller, named as the controller (ros-controls/ros2_control humble
// 0941f73c and jazzy 9ffbf97f: ros2_control_node.cpp names the manager's
// node "controller_manager"; controller_manager.cpp inits each controller
// with the manager's get_namespace(); controller_interface_base.cpp makes
// its rclcpp_lifecycle::LifecycleNode(controller_name, namespace)).
//
// A controller's topics (command, commands, reference, cmd_vel,
// joint_trajectory, controller_state) and its FollowJointTrajectory
// action are its node's (nodeOf), under the same names as before
// (NAME/... relative to the namespace is the node's ~/...). Each node
// serves rclcpp's parameter services (params.go). A controller's node
// has
//
//	update_rate                  int, read only: the loop's rate (ControllerInterfaceBase
//	                             declares it; frcd's controllers run at the loop's), the
//	                             state topics' for the joint state controller, its
//	                             publish_rate (at most the loop's) for an IMU sensor controller
//	use_sim_time                 as frcd's node's
//	gains.JOINT.p, .i, .d        double, its PID's gains, with their YAML keys' ranges
//	                             (config.PIDKeys) as floating_point_range
//	gains.JOINT.i_clamp_max      a joint's PID controller: frcd's i_clamp; i_clamp_min,
//	gains.JOINT.i_clamp_min      read only, is minus it (frcd's clamp is symmetric)
//	gains.JOINT.feedforward_gain a joint's PID controller: frcd's pid.f
//	gains.JOINT.i_clamp          a trajectory controller's joint: its i_clamp
//	gains.JOINT.ff_velocity_scale a trajectory controller's joint: its velocity feedforward
//
// as ros2_controllers names them: pid_controller's gains.<dof>.{p, i, d,
// i_clamp_max, i_clamp_min, feedforward_gain} and joint_trajectory_controller's
// gains.<joint>.{p, i, d, i_clamp, ff_velocity_scale}
// (ros-controls/ros2_controllers humble ad559d9c and jazzy ed360c97:
// pid_controller/src/pid_controller.yaml, joint_trajectory_controller/src/
// joint_trajectory_controller_parameters.yaml). A set goes to
// Controller.SetGain, which the loop takes at its next cycle; a value
// outside the range is refused as rclcpp refuses one outside a
// descriptor's range, and as SetGain would.
//
// controller_manager's node has update_rate (int, read only) and each
// controller's NAME.type (string, read only: its ros2_controllers type,
// config.ROS2ControllerType), as ros2_control's manager declares them.
// Every controller the loop runs has its node, and so does one the
// manager lists at start that the loop does not run (the joint state
// controller); an unloaded controller's node leaves the graph and comes
// back when loaded again (syncControllerNodes).

// cmNode is the controller manager's node name.
const cmNode = "controller_manager"

// loopRate is the loop's rate in Hz.
func (b *Bridge) loopRate() int64 { return int64(time.Second / b.o.Loop.Period()) }

// controllerEntry is a controller with a node: one the loop runs (c),
// or one the manager lists that the loop does not run (the joint state
// controller, c nil).
type controllerEntry struct {
	name, typ string
	c         *control.Controller
}

// controllers are the loop's controllers, then the manager's others (as
// loaded at start), in order.
func (b *Bridge) controllers() []controllerEntry {
	var out []controllerEntry
	seen := map[string]bool{}
	for _, c := range b.o.Loop.Controllers() {
		out = append(out, controllerEntry{c.Name, c.Type, c})
		seen[c.Name] = true
	}
	if b.o.Manager != nil {
		for _, m := range b.o.Manager.List() {
			if !seen[m.Name] {
				out = append(out, controllerEntry{name: m.Name, typ: m.Type})
			}
		}
	}
	return out
}

// nodeOf is controller name's node, made the first time: its topics,
// services and action are its node's, as a ros2_controllers controller's
// are. A name that is not a node name gets frcd's node (logged).
func (b *Bridge) nodeOf(name string) *ros2node.Node {
	b.ctlMu.Lock()
	defer b.ctlMu.Unlock()
	if n := b.ctlNodes[name]; n != nil {
		return n
	}
	if b.ctlNodes == nil {
		b.ctlNodes = map[string]*ros2node.Node{}
	}
	n, err := b.node.NewNode(name, "")
	if err != nil {
		b.o.Logf("ros2: controller %s has no node of its own (its topics are frcd's node's): %v", name, err)
		n = b.node
	}
	b.ctlNodes[name] = n
	return n
}

// jointStateNode is the node /joint_states and /dynamic_joint_states are
// published from: the joint state controller's, as joint_state_broadcaster
// publishes them from its own node (ros-controls/ros2_controllers d99826ac
// joint_state_broadcaster.cpp on_configure, the same in the older form
// reading use_local_topics_ by get_parameter, and userdoc.rst:
// "joint_states" and "dynamic_joint_states", relative to the node's
// namespace unless use_local_topics, false by default, makes them ~/),
// so that the graph names it as their publisher; frcd's node when the
// YAML has no joint state controller (frcd publishes them anyway, at the
// default rate).
func (b *Bridge) jointStateNode() *ros2node.Node {
	for _, e := range b.controllers() {
		if t := config.LookupController(e.typ); e.c == nil && e.name != cmNode && t != nil && t.Controller.JointStates {
			return b.nodeOf(e.name)
		}
	}
	return b.node
}

// broadcasters are the manager's sensor broadcasters (none without one).
func (b *Bridge) broadcasters() []control.Broadcaster {
	if b.o.Manager == nil {
		return nil
	}
	return b.o.Manager.Broadcasters()
}

// serveControllerNodes serves every controller's node's parameters.
func (b *Bridge) serveControllerNodes() error {
	for _, e := range b.controllers() {
		if e.name == cmNode {
			b.o.Logf("ros2: controller %s has no node of its own: the controller manager's has its name", e.name)
			continue
		}
		if n := b.nodeOf(e.name); n != b.node {
			if err := b.serveParams(n, b.controllerParams(e)); err != nil {
				return err
			}
		}
	}
	b.syncControllerNodes()
	return nil
}

// syncControllerNodes puts in the graph the nodes of the controllers the
// manager has loaded and takes out the others', as ros2_control destroys
// an unloaded controller's node and makes it again on load: after each
// controller_manager call (ROS 2's, which also sees what a ROS 1 spawner
// did meanwhile) and at start. Its DDS endpoints (topics, parameter
// services, action) leave DDS discovery with it and come back with it
// under their GUIDs (ros2node.Node.Close and Show, rtps.Writer.Withdraw):
// a peer's DCPSPublication and DCPSSubscription lose them.
func (b *Bridge) syncControllerNodes() {
	if b.o.Manager == nil {
		return
	}
	loaded := map[string]bool{}
	for _, c := range b.o.Manager.List() {
		loaded[c.Name] = true
	}
	b.ctlMu.Lock() // one sync at a time, and none while New makes nodes
	defer b.ctlMu.Unlock()
	for _, e := range b.controllers() {
		n := b.ctlNodes[e.name]
		if n == nil || n == b.node || e.name == cmNode || loaded[e.name] == n.InGraph() {
			continue
		}
		var err error
		if loaded[e.name] {
			err = n.Show()
		} else {
			err = n.Close()
		}
		if err != nil {
			b.o.Logf("ros2: controller %s's node: %v", e.name, err)
		}
	}
}

// controllerParams is a controller's node's parameter table; e.c nil
// for one the loop does not run (the joint state controller, whose rate
// is the state topics', and a sensor broadcaster, whose is its
// publish_rate, at most the loop's: it runs at its own rate, broadcast.go).
func (b *Bridge) controllerParams(e controllerEntry) map[string]*param {
	c := e.c
	rate := b.loopRate()
	if c == nil {
		rate = int64(time.Second / b.o.Every)
		for _, bc := range b.broadcasters() {
			if bc.Name == e.name && bc.Rate > 0 {
				rate = min(b.loopRate(), max(1, int64(math.Round(bc.Rate))))
			}
		}
	}
	ps := map[string]*param{
		"use_sim_time": b.useSimTime(),
		"update_rate": {name: "update_rate", typ: paramInt, readOnly: true, doc: "the controller's update rate in Hz: the loop's",
			get: func() paramValue { return paramValue{typ: paramInt, i: rate} }},
	}
	if c == nil {
		return ps
	}
	for _, id := range c.GainIDs() {
		name, doc := gainParamName(c, id)
		lo, hi, _ := c.GainRange(id)
		ps[name] = &param{name: name, typ: paramDouble, ranged: true, lo: lo, hi: hi,
			doc: fmt.Sprintf("%s (frcd's %s), taken at the loop's next cycle", doc, yamlGain(id)),
			get: func() paramValue { v, _ := c.Gain(id); return paramValue{typ: paramDouble, f: v} },
			set: func(v paramValue) error { return c.SetGain(id, v.f, b.o.Clock()) }}
		if id.Joint == "" && id.Term == control.GainIClamp { // pid_controller's lower clamp: frcd's is symmetric
			low := "gains." + gainJoint(c, id) + ".i_clamp_min"
			ps[low] = &param{name: low, typ: paramDouble, readOnly: true, follows: name,
				doc: "lower integral clamp: minus i_clamp_max (frcd's integral clamp is symmetric)",
				get: func() paramValue { v, _ := c.Gain(id); return paramValue{typ: paramDouble, f: -v} }}
		}
	}
	return ps
}

// gainJoint is the joint a gain's parameter names: its PID's, or a
// single-PID controller's joint.
func gainJoint(c *control.Controller, id control.GainID) string {
	switch {
	case id.Joint != "":
		return id.Joint
	case len(c.Joints) > 0:
		return c.Joints[0]
	}
	return c.Name
}

// gainParamName is a gain's parameter on its controller's node and its
// description: a trajectory controller's (a PID per joint) as
// joint_trajectory_controller names them, a single PID's as
// pid_controller does (p, i and d the same in both).
func gainParamName(c *control.Controller, id control.GainID) (name, doc string) {
	term, doc := id.Term, map[string]string{control.GainP: "proportional gain", control.GainI: "integral gain",
		control.GainD: "derivative gain"}[id.Term]
	switch {
	case id.Term == control.GainIClamp && id.Joint == "":
		term, doc = "i_clamp_max", "upper integral clamp; i_clamp_min is minus it"
	case id.Term == control.GainIClamp:
		doc = "integral clamp, symmetrical in both directions"
	case id.Term == control.GainF && id.Joint == "":
		term, doc = "feedforward_gain", "gain of the feed-forward part"
	case id.Term == control.GainF:
		term, doc = "ff_velocity_scale", "feed-forward scaling of velocity"
	}
	return "gains." + gainJoint(c, id) + "." + term, doc
}

// yamlGain is frcd's name of a gain: its YAML key, and its joint for a
// trajectory controller's.
func yamlGain(id control.GainID) string {
	if id.Joint == "" {
		return "pid." + id.Term
	}
	return "pid." + id.Term + " of " + id.Joint
}

// cmParams is the controller manager's node's parameter table.
func (b *Bridge) cmParams() map[string]*param {
	rate := b.loopRate()
	ps := map[string]*param{
		"use_sim_time": b.useSimTime(),
		"update_rate": {name: "update_rate", typ: paramInt, readOnly: true, doc: "the controller manager's update rate in Hz: the loop's",
			get: func() paramValue { return paramValue{typ: paramInt, i: rate} }},
	}
	for _, e := range b.controllers() {
		name, typ := e.name+".type", config.ROS2ControllerType(e.typ)
		ps[name] = &param{name: name, typ: paramString, readOnly: true, doc: "controller " + e.name + "'s type",
			get: func() paramValue { return paramValue{typ: paramString, s: typ} }}
	}
	return ps
}

// newCMNode makes the controller manager's node with its parameters.
func (b *Bridge) newCMNode() (*ros2node.Node, error) {
	n := b.nodeOf(cmNode)
	if n == b.node {
		return nil, fmt.Errorf("ros2: no node %s", cmNode)
	}
	return n, b.serveParams(n, b.cmParams())
}
