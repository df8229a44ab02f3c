package control

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(analogOutputType) }

// analogOutputType forwards a value to an analog output.
var analogOutputType = &Type{family: kindForward, iface: interfaces.Analog, Config: config.JointControllerType(
	config.AnalogOutputController, "Forwards a value to an analog output.",
	"frcd's own. Command: std_msgs/Float64 on /NAME/command in the output's units (scale and offset).",
	config.ControllerFacts{HardwareInterface: "frcd::frcd_controllers", Hints: []string{"analog"}},
	config.ControllerJointKey("The analog output.", config.AnalogOutputController))}
