package control

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(jointVelocityType) }

// jointVelocityType is a velocity PID plus feedforward to volts, or the
// device's own velocity loop (closed_loop: device).
var jointVelocityType = &Type{Forward: true, family: kindVelocity, iface: interfaces.Voltage, Config: config.JointControllerType(
	config.JointVelocityController, "Holds a joint at a commanded velocity: a PID plus feedforward, output in volts.",
	"As ros_controllers' effort_controllers/JointVelocityController, with the PID's output in volts. Command: "+
		"std_msgs/Float64 in rad/s or m/s on /NAME/command. Needs a measured velocity (an encoder or analog input), and gains.",
	config.ControllerFacts{Measures: config.Velocity, DeviceLoop: config.Velocity,
		ROS2Type: "pid_controller/PidController", HardwareInterface: "hardware_interface::EffortJointInterface", Hints: []string{"velocity"}},
	config.ControllerJointKey("The speed controller's joint.", config.SpeedControllerRole), config.PIDKeys("rad/s or m/s")...)}
