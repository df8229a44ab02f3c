package control

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(jointPositionType) }

// jointPositionType is a position PID from the measured position to
// volts, or the device's own position loop (closed_loop: device).
var jointPositionType = &Type{Forward: true, family: kindPosition, iface: interfaces.Voltage, Timeout: NoTimeout, Config: holds(config.JointControllerType(
	config.JointPositionController, "Holds a joint at a commanded position: a PID on the roboRIO, output in volts.",
	"As ros_controllers' effort_controllers/JointPositionController, with the PID's output in volts. Command: "+
		"std_msgs/Float64 in rad or m on /NAME/command. Needs the joint's measured position, and gains.",
	config.ControllerFacts{Measures: config.Position, DeviceLoop: config.Position,
		ROS2Type: "pid_controller/PidController", HardwareInterface: "hardware_interface::EffortJointInterface", Hints: []string{"position"}},
	config.ControllerJointKey("The speed controller's joint.", config.SpeedControllerRole), config.PIDKeys("")...))}
