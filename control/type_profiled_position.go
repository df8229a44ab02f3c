package control

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(profiledPositionType) }

// profiledPositionType is WPILib's ProfiledPIDController: a goal
// reached along a trapezoidal profile (profiled.go), its goal held until
// replaced.
var profiledPositionType = &Type{family: kindProfiled, iface: interfaces.Voltage, Timeout: NoTimeout, Config: &config.Type{
	Name: config.ProfiledPositionController, Check: config.CheckController,
	Summary: "Moves a joint to a goal along a trapezoidal motion profile: a PID on the roboRIO plus velocity feedforward, output in volts.",
	Doc: "frcd's own, as WPILib's ProfiledPIDController. Command: std_msgs/Float64 goal in rad or m on /NAME/command. " +
		"A new goal plans a trapezoidal (or, for a short move, triangular) profile from where the profile is, or from the " +
		"measured position and velocity when idle, within max_velocity and max_acceleration, even when the joint is " +
		"already moving; each cycle the setpoint advances along it and the PID drives the measured position to it, plus " +
		"pid.f × the profile's velocity. The same goal again changes nothing. Continuous joints go the shortest way round. " +
		"A goal is not a stream: it holds until replaced (or for timeout, when set). A goal that is not finite or is " +
		"outside the joint's URDF limits is refused and counted. Disabled or e-stopped, the output is neutral and the " +
		"goal is dropped, like any command: nothing moves on re-enable until a new goal arrives, and that goal's profile " +
		"starts from the measured position and velocity, so the joint does not jump. Needs the joint's measured " +
		"position, gains, and a velocity limit (max_velocity or the URDF's).",
	Keys: append([]config.Key{config.ControllerJointKey("The speed controller's joint.", config.SpeedControllerRole)}, profiledKeys()...),
	Example: "{name: arm_controller, type: " + config.ProfiledPositionController +
		", joint: arm_joint, pid: {p: 10, d: 0.5, f: 1.2}, max_acceleration: 6, tolerance: 0.02}",
	Facts: config.Facts{Controller: &config.ControllerFacts{Measures: config.Position, VelocityKey: "max_velocity",
		HardwareInterface: "frcd::frcd_controllers", Hints: []string{"profiled", "profiled_position", "profile"}}},
}}

// profiledKeys are a profiled position controller's own keys beside its
// PID's: its limits, its tolerance, and a timeout that is off by default.
func profiledKeys() []config.Key {
	keys := []config.Key{{Name: "timeout", Kind: config.Float, HasRange: true, Min: 0.001, Max: 3600, Unit: "s",
		DefaultDoc: "none: a goal holds until replaced", Doc: "How long a goal holds before the output goes neutral; by default it holds until another goal replaces it."}}
	for _, k := range config.PIDKeys("rad/s or m/s") {
		switch k.Name {
		case "pid.d":
			k.Doc = "Derivative gain, on the error's rate: the profile's velocity less the measured one."
		case "pid.f":
			k.Doc = "Feedforward gain: volts per unit of the profile's velocity."
		}
		keys = append(keys, k)
	}
	return append(keys,
		config.Key{Name: "max_velocity", Kind: config.Float, HasRange: true, Min: 1e-6, Max: 1e6, Unit: "rad/s or m/s",
			DefaultDoc: "the URDF joint limit's velocity", Doc: "The profile's velocity limit; required when the URDF joint has no velocity limit."},
		config.Key{Name: "max_acceleration", Kind: config.Float, Required: true, HasRange: true, Min: 1e-6, Max: 1e6, Unit: "rad/s² or m/s²",
			Doc: "The profile's acceleration limit."},
		config.Key{Name: "tolerance", Kind: config.Float, HasRange: true, Min: 0, Max: 1e6, Unit: "rad or m",
			DefaultDoc: "none: reached when the profile ends", Doc: "The goal counts as reached (list_controllers, /diagnostics) once the profile has ended and the measured position is within this of it."})
}
