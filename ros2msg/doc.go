// Package ros2msg holds the ROS 2 message types frcd publishes and takes,
// with their DDS type names and their CDR (XCDR1) encoding. It knows
// nothing of frcd nor of RTPS.
//
// Wire facts, each with its source:
//   - A ROS 2 message pkg/msg/Type is the DDS type pkg::msg::dds_::Type_
//     (ROS 2 design article "Topic and Service name mapping to DDS",
//     design.ros2.org/articles/topic_and_service_names.html; rmw_dds_common
//     and rosidl_typesupport_introspection's type-name helpers build
//     "<pkg>::msg::dds_::<Type>_").
//   - Fields are encoded in the order of the .msg file, as the IDL that
//     rosidl_adapter generates from it: float64 -> double, int32 -> long,
//     uint32 -> unsigned long, string -> string, T[] -> sequence<T>, a nested
//     message -> its fields inline (ros2/rosidl rosidl_adapter msg.py).
//   - builtin_interfaces/Time is {int32 sec; uint32 nanosec}
//     (ros2/rcl_interfaces builtin_interfaces/msg/Time.msg);
//     std_msgs/Header is {Time stamp; string frame_id} (ros2/common_interfaces
//     std_msgs/msg/Header.msg: no seq field, unlike ROS 1);
//     sensor_msgs/JointState is {Header header; string[] name; float64[]
//     position; float64[] velocity; float64[] effort}
//     (sensor_msgs/msg/JointState.msg); std_msgs/Float64 {float64 data},
//     std_msgs/String {string data}; std_msgs/Float64MultiArray
//     {MultiArrayLayout layout; float64[] data} with MultiArrayLayout
//     {MultiArrayDimension[] dim; uint32 data_offset} and
//     MultiArrayDimension {string label; uint32 size; uint32 stride}.
package ros2msg
