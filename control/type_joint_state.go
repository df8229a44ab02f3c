package control

import "github.com/frcd/frcd/config"

func init() { MustRegister(jointStateType) }

// jointStateType is ros_controllers' joint state controller: it takes no
// command; the transports publish the state topics at its publish_rate.
var jointStateType = &Type{family: familyNone, Config: &config.Type{
	Name: config.JointStateController, Check: config.CheckStateController,
	Summary: "Publishes every measured joint on /joint_states, with the IMUs, PDPs and compressors.",
	Doc: "ros_controllers' joint state controller. frcd publishes /joint_states (sensor_msgs/JointState), /NAME/imu " +
		"(sensor_msgs/Imu) per IMU without an IMU sensor controller, /NAME/battery (sensor_msgs/BatteryState) and /NAME/currents (std_msgs/Float64MultiArray) " +
		"per PDP, and /NAME/state (frcd's CompressorState) per compressor at publish_rate; without this controller, at " +
		"the default rate. At most one.",
	Keys: []config.Key{{Name: "publish_rate", Kind: config.Float, HasRange: true, Min: 0.1, Max: 1000, Unit: "Hz",
		DefaultDoc: "the loop's rate_hz, at most 100", Doc: "How often the state topics are published."}},
	Facts: config.Facts{Controller: &config.ControllerFacts{JointStates: true,
		ROS2Type: "joint_state_broadcaster/JointStateBroadcaster", HardwareInterface: "hardware_interface::JointStateInterface", Hints: []string{"joint_state", "state"}}},
}}
