package ros2node

import "github.com/frcd/frcd/rtps"

// QoS profiles of ROS 2 (ros2/rmw@041f02c1 rmw/include/rmw/qos_profiles.h).
var (
	// Default is rmw_qos_profile_default: reliable, volatile, keep last 10.
	Default = rtps.QoS{Reliability: rtps.Reliable, Durability: rtps.Volatile, History: rtps.KeepLast, Depth: 10}
	// SensorData is rmw_qos_profile_sensor_data: best effort, keep last 5.
	SensorData = rtps.QoS{Reliability: rtps.BestEffort, Durability: rtps.Volatile, History: rtps.KeepLast, Depth: 5}
	// ParameterEvents is rmw_qos_profile_parameter_events: reliable, keep last 1000.
	ParameterEvents = rtps.QoS{Reliability: rtps.Reliable, Durability: rtps.Volatile, History: rtps.KeepLast, Depth: 1000}
	// Services is rmw_qos_profile_services_default: reliable, keep last 10.
	Services = rtps.QoS{Reliability: rtps.Reliable, Durability: rtps.Volatile, History: rtps.KeepLast, Depth: 10}
	// Latched is what robot_state_publisher gives /robot_description and
	// tf2 gives /tf_static: reliable, transient local, keep last 1.
	Latched = rtps.QoS{Reliability: rtps.Reliable, Durability: rtps.TransientLocal, History: rtps.KeepLast, Depth: 1}
)
