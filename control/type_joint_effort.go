package control

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(jointEffortType) }

// jointEffortType is a PID on the measured effort, to volts.
var jointEffortType = &Type{Forward: true, family: kindEffort, iface: interfaces.Voltage, Config: config.JointControllerType(
	config.JointEffortController, "Holds a joint at a commanded effort: a PID on the PDP-measured effort.",
	"As ros_controllers' effort_controllers/JointEffortController; a speed controller has no effort input, so a PID "+
		"closes the loop on the effort the PDP measures (current × k_eff; needs pdp_ch), and gains. Command: "+
		"std_msgs/Float64 in N·m or N on /NAME/command.",
	config.ControllerFacts{Measures: config.Effort, ROS2Type: "effort_controllers/JointGroupEffortController", HardwareInterface: "hardware_interface::EffortJointInterface", Hints: []string{"effort"}},
	config.ControllerJointKey("The speed controller's joint.", config.SpeedControllerRole), config.PIDKeys("N·m or N")...)}
