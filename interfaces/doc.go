// Package interfaces holds the handles through which devices, controllers
// and the ROS bridge share state and commands, after ros_control's
// hardware_interface: the spec's AnalogState/Command, BinaryState/Command,
// TernaryState/Command, RateState, PDPState, an IMU state, JointState, and
// joint commands on the Position, Velocity, Effort and Voltage interfaces.
//
// Handles live in a Registry keyed "name/interface". A state handle has one
// writer (the device that registered it) and any number of readers; a
// command handle has exactly one claimer, and a second claim is an error
// naming both. Handles are plain structs reached through pointers that are
// looked up once at start, so the control loop reads and writes them
// without locks or allocations; the loop is their only goroutine.
//
// Values are SI float64: rad, m, rad/s, m/s, V, A, N·m or N, W, J, °C.
// Time is a time.Duration since the daemon started, passed in by the loop.
//
// interfaces imports only the standard library.
package interfaces
