package control

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(jointVoltageType) }

// jointVoltageType forwards volts to one speed controller.
var jointVoltageType = &Type{Forward: true, family: kindForward, iface: interfaces.Voltage, Config: config.JointControllerType(
	config.JointVoltageController, "Forwards a voltage command to a speed controller.",
	"frcd's own. Command: std_msgs/Float64 in V on /NAME/command. The speed controller scales it by the measured bus voltage.",
	config.ControllerFacts{ROS2Type: "forward_command_controller/ForwardCommandController", HardwareInterface: "frcd::voltage_controllers", Hints: []string{"voltage"}},
	config.ControllerJointKey("The speed controller's joint.", config.SpeedControllerRole))}
