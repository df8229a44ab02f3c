package control

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(servoPositionType) }

// servoPositionType forwards an angle to a servo, which holds it itself.
var servoPositionType = &Type{Forward: true, family: kindForward, iface: interfaces.Position, Timeout: NoTimeout, Config: holds(config.JointControllerType(
	config.ServoPositionController, "Forwards a position command to a servo.",
	"ros_controllers' position_controllers/JointPositionController: the servo holds the angle itself. Command: "+
		"std_msgs/Float64 in rad on /NAME/command, held to the joint's URDF limits within the servo's min_angle..max_angle "+
		"(past them by more than 10 % of that range: refused).",
	config.ControllerFacts{ROS2Type: "position_controllers/JointGroupPositionController", HardwareInterface: "hardware_interface::PositionJointInterface"},
	config.ControllerJointKey("The servo's joint.", config.ServoPositionController)))}
