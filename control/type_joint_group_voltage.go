package control

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(jointGroupVoltageType) }

// jointGroupVoltageType forwards one voltage per joint to several speed
// controllers.
var jointGroupVoltageType = &Type{Forward: true, family: kindGroup, iface: interfaces.Voltage, Takes: Float64Array, Config: &config.Type{
	Name: config.JointGroupVoltage, Check: config.CheckController,
	Summary: "Forwards one voltage per joint to several speed controllers.",
	Doc: "frcd's own, like forward_command_controller's group controllers. Command: std_msgs/Float64MultiArray on " +
		"/NAME/command, one value in V per joint in the order of joints; a message of another length is refused.",
	Keys: []config.Key{{Name: "joints", Kind: config.StringList, Required: true, Ref: config.SpeedRef, Doc: "The speed controllers' joints."},
		config.ControllerTimeoutKey},
	Facts: config.Facts{Controller: &config.ControllerFacts{ROS2Type: "forward_command_controller/ForwardCommandController", HardwareInterface: "frcd::voltage_controllers", Hints: []string{"group"}}},
}}
