package control

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(relayType) }

// relayType sets a relay forward, off or reverse.
var relayType = &Type{family: kindTernary, iface: interfaces.Ternary, Takes: Int8, Config: config.JointControllerType(
	config.RelayController, "Sets a relay forward, off or reverse.",
	"frcd's own. Command: std_msgs/Int8 on /NAME/command: -1 reverse, 0 off, 1 forward; other values are refused.",
	config.ControllerFacts{HardwareInterface: "frcd::frcd_controllers"},
	config.ControllerJointKey("The relay.", config.RelayController))}
