package control

import "github.com/frcd/frcd/config"

func init() { MustRegister(imuSensorType) }

// imuSensorType is an IMU's broadcaster: ros_controllers'
// imu_sensor_controller/ImuSensorController name (ros-controls/
// ros_controllers 16d89d68 imu_sensor_controller.cpp: publish_rate,
// required there, every IMU of the interface on /SENSOR) with
// ros2_controllers' IMUSensorBroadcaster keys (ros-controls/ros2_controllers
// 7b55a857 imu_sensor_broadcaster/src/imu_sensor_broadcaster_parameters.yaml:
// sensor_name, frame_id, both mandatory there), one IMU a controller as in
// ROS 2, or, without sensor_name, every IMU no other one names, as
// ros_controllers' does (frc_control's uwreact_2019_robot.yaml, a team's
// published robot, has one so: type and publish_rate only). It takes no command and the loop does not run
// it; the transports publish its IMU at its own rate (Facts.Sensor; the
// bridges wake for it: ros/broadcast.go, ros2bridge/broadcast.go), on its
// own node in ROS 2 (3348ea04 imu_sensor_broadcaster.cpp: "~/imu").
var imuSensorType = &Type{family: familyNone, Config: &config.Type{
	Name: "imu_sensor_controller/ImuSensorController", Check: checkIMUSensor,
	Example: "{name: imu_broadcaster, type: imu_sensor_controller/ImuSensorController, sensor_name: navx, publish_rate: 20, frame_id: imu_link}",
	Summary: "Publishes an IMU, or every IMU, at a rate of its own.",
	Doc: "ros_controllers' IMU sensor controller, with ros2_controllers' IMUSensorBroadcaster keys: one IMU " +
		"(sensor_name), sensor_msgs/Imu at publish_rate, stamped in frame_id. ROS 1: on the IMU's /NAME/imu; ROS 2: " +
		"on CONTROLLER/imu from the controller's node, as IMUSensorBroadcaster's ~/imu (the IMU's /NAME/imu then " +
		"goes). Without sensor_name, as ros_controllers' controller is written (type and publish_rate only), it " +
		"publishes every IMU that no other IMU sensor controller names, each on its /NAME/imu in its own frame (from " +
		"the controller's node in ROS 2); at most one such. The state topics leave its IMUs to it; without one, an IMU is published with the state topics at the " +
		"joint state controller's publish_rate. It runs at its own rate, as each ros_control controller does: faster or " +
		"slower than the state topics (at most the loop's rate), each message stamped with its cycle's time, and it " +
		"follows its own running state only (it publishes while the joint state controller is stopped, not while it is). " +
		"One per IMU.",
	Keys: []config.Key{
		{Name: "sensor_name", Kind: config.String, Ref: []config.Role{config.IMURole},
			DefaultDoc: "every IMU no other IMU sensor controller names",
			Doc:        "The IMU it publishes (a navX, Pigeon or other IMU of the joints list)."},
		{Name: "publish_rate", Kind: config.Float, HasRange: true, Min: 0.1, Max: 1000, Unit: "Hz",
			DefaultDoc: "the state topics' rate", Doc: "How often the IMU is published, at most the loop's rate."},
		{Name: "frame_id", Kind: config.String, DefaultDoc: "the IMU's name", Doc: "The header's frame_id (with sensor_name; without, each IMU's name)."},
	},
	Facts: config.Facts{Controller: &config.ControllerFacts{Sensor: config.IMURole,
		ROS2Type: "imu_sensor_broadcaster/IMUSensorBroadcaster", HardwareInterface: "hardware_interface::ImuSensorInterface",
		Hints: []string{"imu", "imu_sensor"}}},
}}

// checkIMUSensor allows one broadcaster per IMU, and one of every IMU
// (no sensor_name).
func checkIMUSensor(d *config.Device, c *config.Checker) {
	if imu := d.Ref("sensor_name"); imu != nil {
		c.Once(d, "IMU sensor controller of "+imu.Name, d.ValuePos("sensor_name"))
	} else if !d.Has("sensor_name") {
		c.Once(d, "IMU sensor controller of every IMU", d.Pos)
	}
}
