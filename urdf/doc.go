// Package urdf reads a robot's extended URDF: the links, joints and sensors
// frcd needs to drive and measure an FRC robot.
//
// # What is parsed
//
// Parse reads the <robot> element and, inside it:
//
//   - <link>: <inertial> (origin, mass, inertia), <visual> and <collision>
//     (origin and one geometry: box, cylinder, sphere or mesh) and <sensor>;
//   - <joint>: type, <parent link>, <child link>, <origin>, <axis>, <limit>,
//     <mimic>, <dynamics>, <safety_controller> and <sensor>;
//   - robot-level <sensor> elements with a <parent link="..."/> or
//     <parent joint="..."/>.
//
// Other elements (<gazebo>, <transmission>, <material>, ...) and unknown
// children of links and joints are skipped silently. The contents of
// <gazebo> are never read: Gazebo's own <sensor> elements are not frcd
// sensors.
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
// fixed for rigid mounts (which carry no sensor). floating and planar joints
// are refused.
//
// # Findings and positions
//
// Parse never stops at the first problem: it returns every finding as a
// diag.List, each at the file:line:col of the element or attribute it is
// about (lines and columns count from 1, columns in characters). Only
// malformed XML ends parsing; a xacro file that was not expanded is
// reported once, and the rest of its checks are skipped because they
// would only echo the unexpanded macros. Parse always returns a non-nil
// Robot holding whatever it could read, so callers can still cross-check
// names against it.
//
// Units are SI throughout: metres, radians, kilograms, newtons, newton
// metres, metres and radians per second.
package urdf
