package control

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(solenoidType) }

// solenoidType opens and closes a single solenoid.
var solenoidType = &Type{family: kindBinary, iface: interfaces.Binary, Takes: Bool, Config: config.JointControllerType(
	config.SolenoidController, "Opens and closes a single solenoid.",
	"frcd's own. Command: std_msgs/Bool on /NAME/command: true energises the solenoid.",
	config.ControllerFacts{HardwareInterface: "frcd::frcd_controllers", Hints: []string{"binary"}},
	config.ControllerJointKey("The solenoid.", config.SolenoidController))}
