package control

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(ledColorType) }

// ledColorType forwards a colour to addressable LEDs.
var ledColorType = &Type{family: kindForward, iface: interfaces.Analog,
	valid: &commandRange{0, 0xFFFFFF, "a colour 0xRRGGBB, 0 to 16777215"},
	Config: config.JointControllerType(
		config.LEDColorController, "Lights addressable LEDs in one colour.",
		"frcd's own. Command: std_msgs/Float64 on /NAME/command, the colour as 0xRRGGBB (red 16711680, green 65280, "+
			"blue 255, 0 off); other values are refused. Stale, disabled or e-stopped: every LED off.",
		config.ControllerFacts{HardwareInterface: "frcd::frcd_controllers", Hints: []string{"led"}},
		config.ControllerJointKey("The addressable LEDs.", config.LEDColorController))}
