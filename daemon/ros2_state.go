package daemon

import (
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/urdf"
)

// ros2State is what the ROS 2 bridge's state topics need from the daemon:
// the URDF's fixed joints for /tf_static and its movable ones for /tf, what
// the Driver Station says for driver_station/ (as the ROS 1 bridge has
// it), and the one health model for /diagnostics (the same statuses the ROS 1 bridge, the NT4 Alerts and
// the WPILOG read).
func (d *Daemon) ros2State() ros2bridge.StateOptions {
	return ros2bridge.StateOptions{Static: staticTransforms(d.Robot.URDF), Diagnostics: healthFor2(d.health),
		DriverStation: d.driverStation, Movable: movableJoints(d.Robot.URDF)}
}

// movableJoints are the URDF's revolute, continuous and prismatic joints,
// for /tf as robot_state_publisher puts them.
func movableJoints(m *urdf.Robot) []ros2bridge.MovableJoint {
	if m == nil {
		return nil
	}
	var out []ros2bridge.MovableJoint
	for _, j := range m.Joints {
		switch j.Type {
		case urdf.Revolute, urdf.Continuous, urdf.Prismatic:
			out = append(out, ros2bridge.MovableJoint{Name: j.Name, Parent: j.Parent, Child: j.Child, Motion: j.Motion})
		}
	}
	return out
}

// staticTransforms are the URDF's fixed joints: each child link's frame
// in its parent's, as robot_state_publisher puts them on /tf_static.
func staticTransforms(m *urdf.Robot) []ros2bridge.StaticTransform {
	if m == nil {
		return nil
	}
	var out []ros2bridge.StaticTransform
	for _, j := range m.Joints {
		if j.Type != urdf.Fixed {
			continue
		}
		q := j.Origin.RPY.Quaternion() // w, x, y, z
		out = append(out, ros2bridge.StaticTransform{Parent: j.Parent, Child: j.Child, Translation: j.Origin.XYZ, Rotation: [4]float64{q[1], q[2], q[3], q[0]}})
	}
	return out
}

// healthFor2 reads the health model for the ROS 2 bridge, reusing one list
// (it is called from the bridge's goroutine only).
func healthFor2(health func([]ros.Status) []ros.Status) func([]ros2bridge.Status) []ros2bridge.Status {
	var list []ros.Status
	return func(dst []ros2bridge.Status) []ros2bridge.Status {
		list = health(list[:0])
		for _, s := range list {
			dst = append(dst, ros2bridge.Status{Level: uint8(s.Level), Name: s.Name, HardwareID: s.HardwareID, Message: s.Message, Values: s.Values})
		}
		return dst
	}
}
