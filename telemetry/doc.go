// Package telemetry names what frcd shows its dashboards and logs: one
// list of topics (name, type, properties) filled from the loop's
// snapshot, which the NetworkTables 4 server (nt4) publishes and the
// WPILOG writer (wpilog) records under the same names, types and
// metadata.
//
// A Source belongs to one goroutine off the loop: Sample copies the
// loop's latest snapshot (control.Loop.ReadSnapshot) and updates the
// topics whose value changed, bumping their Seq; readers keep their own
// cursor of Seqs. Sampling does not allocate once the topics exist (a
// change in device health builds the Alerts' strings). Sample works only
// on the topics someone reads (want.go): all of them while the WPILOG is
// open (KeepAll), else those the NT4 clients subscribe to (Want).
//
// Names, under Prefix (default /frcd; /Telemetry in WPILib 2027's
// layout, Options.Layout, where the PID controllers are also tunables
// under /Tunables and the Field2d moves: layout.go):
//
//	joints/NAME/position, velocity, effort   double, property unit (rad, m, rad/s, m/s, N*m, N)
//	joints/NAME/command                      double: its controller's last accepted command
//	controllers/NAME/gains                   double[] p, i, d, f of a PID controller
//	imu/NAME/orientation                     double[] quaternion x, y, z, w; yaw double (rad)
//	imu/NAME/angular_velocity                double[] rad/s; linear_acceleration double[] m/s^2
//	power/NAME/voltage, current, temperature double (V, A, degC); channels double[] (A)
//	power/vin                                double (V): the controller's input, where the backend measures it
//	compressor/NAME/running, full, closed_loop boolean; current double (A)
//	sensors/NAME                             a sensor in a URDF link: boolean (digital input), double (analog, V)
//	loop/cycles, overruns, refused, stale, blocked, device_errors, disabled  int
//	loop/period_mean, period_max, jitter_p99, busy_p99                       double (s)
//	ds/enabled, estop, attached boolean; ds/mode, ds/state string
//	ds/joystickN/axes, povs, buttons         double[]: joystick N (0-5) as the Driver Station sends it (joystick.go)
//	sim/pose struct:Pose2d, sim/pose3d struct:Pose3d (the sim's true field pose)
//	sim/components struct:Pose3d[]: each URDF link's pose relative to the robot
//	mechanism/...  a WPILib Mechanism2d: a side view of the revolute and prismatic joints (mechanism.go)
//
// and the struct schemas under /.schema/struct:NAME (type structschema),
// as WPILib's struct specification and ntcore publish them. Outside the
// prefix, the Alerts where WPILib's SmartDashboard puts them
// (/SmartDashboard/Alerts/.type "Alerts"; errors, warnings, infos
// string[]), and the Driver Station in WPILib's own tables (ds.go):
//
//	/FMSInfo/...       WPILib 2026: FMSControlData int, match and alliance
//	/DriverStation/... WPILib 2027: ControlWord struct:ControlWord, match and alliance
//
// With Options.EveryCycle the joints come from the loop's per-cycle
// history (Replay), one cycle at a time, so that readers of every value
// (NT4's all, the WPILOG) miss none, each stamped with its cycle's time.
// A moving joint's sample is passed on every cycle even when equal to the
// one before (read twice within an encoder count, as a catch-up cycle
// right after a late one is), as an ntcore publisher with keepDuplicates
// does; a joint at rest and the other topics change only with their value.
// Pause stops the history while nobody reads.
package telemetry
