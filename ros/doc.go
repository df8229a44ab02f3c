// Package ros is frcd's bridge to ROS 1, over goroslib: it publishes the
// loop's snapshots (joint states, IMUs, PDPs, compressors, diagnostics),
// feeds controller commands from topics to the loop's controllers, offers
// the /frcd services, and keeps registered with a master, starting an
// embedded one (package ros/master) when none answers.
//
// The loop never waits on ROS: it signals each new snapshot and the bridge
// copies the newest one in its own goroutine. Commands reach a controller
// through Controller.Command, which refuses what is not finite and counts
// it; a message of the wrong type on a command topic is refused by the
// connection handshake and counted too.
//
// Names are ROS 1's (Names): topics and robot_description relative to the
// node's namespace, frcd's services and parameters private (~enable),
// /diagnostics global; the command line's remappings apply (ParseArgs).
// When the master shuts the node down (rosnode kill, a second node of its
// name), the master is lost, or another running node holds its name, the
// node is off the graph (Options.NodeDown) and registers again as soon as
// it may; nothing from the network ends Run. Below, the names with the defaults
// (namespace /, node frcd).
//
// Topics (NAME is the device's or controller's name):
//
//	/joint_states          sensor_msgs/JointState, every movable joint in one order; never NaN (jointState)
//	/NAME/imu              sensor_msgs/Imu per IMU; one with an IMU sensor controller at its own publish_rate, in its frame_id (broadcast.go)
//	/NAME/odom, /tf        nav_msgs/Odometry, tf2_msgs/TFMessage per drive controller, at its own publish_rate while it runs (broadcast.go)
//	/NAME/battery          sensor_msgs/BatteryState per PDP
//	/NAME/currents         std_msgs/Float64MultiArray per PDP: the channels' currents (16, or a PDH's 24)
//	/NAME/running, /NAME/closed_loop, /NAME/pressure_switch   std_msgs/Bool per compressor
//	/NAME/current          std_msgs/Float64 per compressor
//	/NAME                  std_msgs/Bool per digital_input in a URDF link (a beam break), std_msgs/Float64
//	                       per analog_input in a link (a range finder, in its units); none after a failed read
//	/diagnostics           diagnostic_msgs/DiagnosticArray, once a second
//	/CONTROLLER/command    each controller's command (Float64, Bool, Int8 or Float64MultiArray)
//	/sim/joint_states_truth  sensor_msgs/JointState, every movable joint's true state (Options.Truth set: the sim)
//	/sim/ground_truth      nav_msgs/Odometry, the drive base's true pose and twist (the sim, with a drivetrain)
//	/sim/push              sensor_msgs/JointState in: on the sim (Options.Push), place the named joints
//
// /sim/push is a topic because no srv type the stock rosservice knows takes
// joints and positions; a message naming an unknown joint, or with a value
// that is not finite or lists of the wrong lengths, is refused whole
// (Stats.PushRefused, and a log line): nothing moves.
//
// Services: ~enable (std_srvs/SetBool) and ~list_controllers
// (std_srvs/Trigger); parameters ~publish_rate (Hz) and
// ~start_controllers; ros_control's controller_manager/ services
// (controller_manager.go).
package ros
