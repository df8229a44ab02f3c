package control

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(digitalOutputType) }

// digitalOutputType sets a digital output (or a PDH's switchable channel).
var digitalOutputType = &Type{family: kindBinary, iface: interfaces.Binary, Takes: Bool, Config: config.JointControllerType(
	config.DigitalOutputController, "Sets a digital output high or low.",
	"frcd's own. Command: std_msgs/Bool on /NAME/command. It also switches a REV PDH's switchable channel.",
	config.ControllerFacts{HardwareInterface: "frcd::frcd_controllers"},
	config.ControllerJointKey("The digital output, or a rev_pdh (its switchable channel).", config.DigitalOutputController))}
