// Package ros2node is a ROS 2 node over package rtps, without rcl: ROS 2's
// names, QoS profiles, environment and node graph. It knows nothing of
// frcd; frcd's ROS 2 transport builds on it as the ROS 1 one builds on
// goroslib.
//
// Conventions, each with its source:
//   - A topic /ns/x is the DDS topic rt/ns/x; names are resolved as rcl
//     does: absolute (/x), relative to the node's namespace (x), or private
//     to the node (~/x is <namespace>/<node>/x) (design.ros2.org "Topic and
//     Service name mapping to DDS"; "Topic and Service Names").
//   - QoS profiles (ros2/rmw@041f02c1 rmw/include/rmw/qos_profiles.h):
//     default reliable, volatile, keep last 10; sensor data best effort,
//     volatile, keep last 5; parameters and parameter events reliable,
//     volatile, keep last 1000; services reliable, volatile, keep last 10.
//     A latched topic (/robot_description as robot_state_publisher
//     publishes it, /tf_static) is reliable, transient local, keep last 1.
//   - The participant's USER_DATA is "enclave=/;"
//     (ros2/rmw_cyclonedds@854b89d5 rmw_cyclonedds_cpp/src/rmw_node.cpp).
//   - The node graph: each participant publishes a
//     rmw_dds_common::msg::dds_::ParticipantEntitiesInfo_ on the DDS topic
//     ros_discovery_info (no rt/ prefix), reliable, transient local, keep
//     last 1, listing its nodes and the gids of their readers and writers;
//     ros2 node list reads node names only from it (rmw_cyclonedds
//     rmw_node.cpp rmw_context_impl_s::init; rmw_dds_common src/graph_cache.cpp).
//     Several nodes may share one participant (Node.NewNode), as rclcpp's
//     nodes of one context do: one NodeEntitiesInfo each in the
//     participant's one ParticipantEntitiesInfo (rmw_dds_common humble
//     e26ba107, jazzy 973ad5c8 GraphCache::add_node).
//     A gid is the entity's DDS GUID (16 bytes; Humble pads to 24).
//   - Environment: ROS_DOMAIN_ID (default 0); ROS_LOCALHOST_ONLY=1 (Humble,
//     Iron) or ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST (Jazzy) keep
//     discovery on 127.0.0.1 with localhost as a static peer, OFF is that
//     without static peers; ROS_STATIC_PEERS lists unicast peers, separated
//     by ';' (rcl discovery_options.c, rmw_cyclonedds rmw_node.cpp, the
//     discovery-range switch: Discovery).
package ros2node
