package daemon

import "github.com/frcd/frcd/ros2bridge"

// ROS2Sim are the sim's hooks for the ROS 2 bridge's sim/ topics, as the
// ROS 1 bridge's Options.Truth and Push; none off the sim.
func (d *Daemon) ROS2Sim() ros2bridge.SimOptions {
	if d.Sim == nil {
		return ros2bridge.SimOptions{}
	}
	return ros2bridge.SimOptions{Truth: d.Truth, Push: d.Sim.SetJoint}
}
