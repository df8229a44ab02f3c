// Package urdf reads a robot's extended URDF: the links, joints and sensors
// frcd needs to drive and measure an FRC robot.
//
// # What is parsed
//
// Parse reads a URDF as urdfdom (the parser of ROS and check_urdf) reads it,
// plus frcd's sensors. It reads the <robot> element and, inside it:
//
//   - version: "1.0" (the default) or "1.1", checked as urdfdom checks it
//     ("x.y", non-negative integers), anything else refused with its reason;
//   - <link>: <inertial> (origin, mass, inertia), <visual> and <collision>
//     (origin and one geometry: box, cylinder, sphere, mesh, and in 1.1
//     capsule) and <sensor>;
//   - <joint>: type, <parent link>, <child link>, <origin>, <axis>, <limit>,
//     <mimic>, <dynamics>, <safety_controller>, <calibration> and <sensor>;
//   - <material> at robot level: a unique name and a color or texture;
//   - robot-level <sensor> elements with a <parent link="..."/> or
//     <parent joint="..."/>.
//
// What urdfdom requires is required here, and missing it is an error: an
// inertial's mass value and six inertia terms, a geometry whose first
// element is a known shape with its sizes, a limit's effort and velocity, a
// safety controller's k_velocity, damping or friction in <dynamics>. An
// <origin> may rotate by rpy or, in 1.1, by quat_xyzw (one or the other),
// read into RPY; a 1.0 file's quat_xyzw and capsule are ignored with a
// warning, as newer urdfdom ignores them.
//
// Other elements (<gazebo>, <transmission>, ...) and unknown children of
// links and joints are skipped silently, as urdfdom skips them. The
// contents of <gazebo> are never read: Gazebo's own <sensor> elements are
// not frcd sensors. Nor are robot-level sensors of other tools: a type frcd
// has no device for (camera, ray, force_torque, ...), a body other than
// <parent> and <origin>, or a <parent joint> naming the sensor itself
// (iCub's force/torque sensors); they are left alone with one note.
//
// # The extension
//
// Plain URDF cannot tie a sensor to a joint. frcd accepts a <sensor> in
// three places (see the project's "URDF Format" notes):
//
//	<joint name="shoulder" type="revolute">
//	  <sensor name="shoulder_pot" type="analog"/>   <!-- measures "shoulder" -->
//	  ...
//	</joint>
//	<link name="imu">
//	  <sensor name="main_imu" type="imu"/>          <!-- sits in link "imu" -->
//	</link>
//	<sensor name="main_imu" type="imu">             <!-- robot level -->
//	  <parent link="chassis"/>                      <!-- or <parent joint="..."/> -->
//	</sensor>
//
// A sensor either measures a joint or sits in a link. Its type is free text
// and optional. Sensor names share one name space with joint names, because
// the YAML device list names "a joint or a sensor".
//
// Only 1-DoF joints are supported: revolute, continuous and prismatic, plus
// fixed for rigid mounts (which should carry no sensor: a warning). floating
// and planar joints are refused.
//
// # Findings and positions
//
// Parse never stops at the first problem: it returns every finding as a
// diag.List, each at the file:line:col of the element or attribute it is
// about (lines and columns count from 1, columns in characters). Only
// malformed XML ends parsing. A xacro file that was not expanded is
// reported once and its other findings are kept, except those the macros
// would answer: the tree and the names it refers to when xacro elements sit
// in <robot>, what an element holding xacro lacks, values with ${...}.
// Such a file is Unreadable: the YAML is not cross-checked against it. Parse always returns a non-nil
// Robot holding whatever it could read, so callers can still cross-check
// names against it.
//
// Units are SI throughout: metres, radians, kilograms, newtons, newton
// metres, metres and radians per second.
package urdf
