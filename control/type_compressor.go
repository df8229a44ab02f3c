package control

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(compressorType) }

// compressorType turns a pneumatics module's closed-loop compressor
// control on or off.
var compressorType = &Type{family: kindBinary, iface: interfaces.Binary, Takes: Bool, Config: config.JointControllerType(
	config.CompressorController, "Turns a compressor's closed-loop control on or off.",
	"frcd's own. Command: std_msgs/Bool on /NAME/command: true lets the PCM or PH run the compressor until the pressure switch reads full.",
	config.ControllerFacts{HardwareInterface: "frcd::frcd_controllers"},
	config.ControllerJointKey("The compressor.", config.CompressorController))}
