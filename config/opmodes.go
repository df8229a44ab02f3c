package config

import (
	"strings"
	"unicode/utf8"
)

// OpModes is the type of the `op_modes:` section: the routines the robot
// offers per robot mode, which the Driver Station selects.
//
//	op_modes:
//	  autonomous: [Two Piece, Taxi]
//	  teleop: [Drive]
//	  test: [Pit Check]
var OpModes = &Type{
	Name: "op_modes", Group: "section", Class: "-",
	Summary: "The robot's op modes per robot mode: the routines the Driver Station selects (WPILib 2027), or a dashboard's chooser (2026).",
	Doc: "On Systemcore frcd registers them with WPILib's 2027 HAL (HAL_SetOpModeOptions), so the 2027 Driver Station " +
		"lists them; on the roboRIO and the other backends frcd offers one SendableChooser per robot mode over NT4 " +
		"(/SmartDashboard/Autonomous Op Mode, Teleop Op Mode, Test Op Mode), the first name its default; on the sim the " +
		"WebSocket Driver Station selects one by name (>opmode). The one selected is published on ROS 1 and ROS 2 " +
		"(driver_station/op_mode, std_msgs/String, latched), NT4 (/DriverStation/OpMode) and the log (DS:opMode), " +
		"so a ROS node runs the chosen routine. test is WPILib 2027's utility mode.",
	Place: YAMLOnly,
	Keys: []Key{
		{Name: "autonomous", Kind: StringList, Doc: "The autonomous op modes, by name; the first is the chooser's default."},
		{Name: "teleop", Kind: StringList, Doc: "The teleoperated op modes, by name; the first is the chooser's default."},
		{Name: "test", Kind: StringList, Doc: "The test (2027: utility) op modes, by name; the first is the chooser's default."},
	},
	Check: checkOpModes,
}

// OpModeKeys are the op_modes: keys, one per robot mode: autonomous,
// teleop, test.
var OpModeKeys = [3]string{"autonomous", "teleop", "test"}

// MaxOpModeName bounds an op mode's name, bytes: the Driver Station shows
// it in a list (mrclib truncates names to its own limit, which its public
// headers do not state).
const MaxOpModeName = 64

// maxOpModesPerMode bounds each list.
const maxOpModesPerMode = 64

// checkOpModes checks each name is printable, not blank and bounded, and
// each list bounded (the list decoder refuses a name listed twice).
func checkOpModes(d *Device, c *Checker) {
	for _, key := range OpModeKeys {
		names := d.List(key)
		if len(names) > maxOpModesPerMode {
			c.Errorf(d.ValuePos(key), "op_modes: %s: %d op modes, %d is the limit", key, len(names), maxOpModesPerMode)
		}
		for _, n := range names {
			switch {
			case strings.TrimSpace(n) == "":
				c.Errorf(d.ValuePos(key), "op_modes: %s: an op mode's name is blank", key)
			case len(n) > MaxOpModeName:
				c.Errorf(d.ValuePos(key), "op_modes: %s: %q is %d bytes, %d is the limit", key, n, len(n), MaxOpModeName)
			case !utf8.ValidString(n) || strings.IndexFunc(n, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0:
				c.Errorf(d.ValuePos(key), "op_modes: %s: %q has control characters", key, n)
			case n != strings.TrimSpace(n):
				c.Errorf(d.ValuePos(key), "op_modes: %s: %q starts or ends with spaces", key, n)
			}
		}
	}
}
