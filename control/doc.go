// Package control runs the cycle: read every device, merge joint states,
// run the controllers, apply safety, write every device.
//
// Merging follows the spec's "Driven vs Passive Joints": each movable URDF
// joint gets exactly one JointState (registered as "joint/joint"), built
// afresh every cycle from the handles of the devices that describe it:
//
//   - position and velocity from its first encoder or analog input
//     (RateState);
//   - otherwise position from a limit switch that is pressed (the joint's
//     lower or upper limit, velocity 0), from a digital input without a
//     limit key (on = upper limit), or from its actuator: a solenoid or
//     digital output (on = upper), a double solenoid or relay (forward =
//     upper, reverse = lower, off = unchanged), a servo's commanded angle,
//     an analog output's value;
//   - effort from its speed controller's PDP channel: current × k_eff, with
//     the sign of the voltage applied;
//   - a joint that mimics another and has no source of its own follows it.
//
// A joint with no source, or whose sources' devices failed to read this
// cycle, has no fields: absent, not zero.
//
// Controllers come from the YAML's `controllers:` list. Each claims its
// device's command handle (one claimer per handle: a second is an error
// naming both) and takes commands through Controller.Command, which
// refuses numbers that are not finite (and out-of-range tri-states) and
// counts them. Position, velocity and effort controllers on speed
// controllers are PIDs on the roboRIO, from the measured joint state to
// volts, with integral clamping and an output limit.
//
// A profiled position controller (frcd_controllers/ProfiledPositionController,
// WPILib's ProfiledPIDController) takes a goal rather than a setpoint. A
// new goal plans a trapezoidal Profile (profile.go: triangular when the
// move is short) to it at rest, within the controller's velocity and
// acceleration limits, from the current setpoint and its velocity while a
// profile runs (so re-targeting mid-move keeps the acceleration limit), or
// from the measured position and velocity when idle; the same goal again
// changes nothing. Each cycle the setpoint advances by the cycle's dt and
// the PID drives the measured position to it, plus pid.f × the profile's
// velocity, its derivative acting on the error's rate; continuous joints go
// the shortest way round. Goals outside the joint's URDF limits are
// refused like non-finite numbers. A goal holds until replaced (no timeout
// unless one is set). Disable, e-stop, a timeout or lost feedback make the
// output neutral and the controller idle: disable and e-stop drop the goal
// as they drop every command, so nothing moves on re-enable until a new
// goal arrives, and its profile starts from the measured state, without a
// jump.
//
// Safety, every cycle after the controllers: when the Driver Station is
// disabled or e-stopped, or the loop is inhibited (Loop.Inhibit: the daemon
// refuses to enable while a required CAN device is missing; the reason is
// on the snapshot and its State), every device is halted (0 V, solenoids off,
// relays off, PWM disabled) and every held command is dropped, so that
// nothing moves on re-enable until a new command arrives; a command older
// than its controller's timeout makes that output neutral; a pressed limit
// switch zeroes a voltage that would drive its joint further into it; a
// command value that is not finite never reaches a device.
//
// Time is passed in: Cycle(now) takes the loop's clock, and the loop never
// calls time.Now. Phase timings use Options.Stopwatch when given. Cycle
// does not allocate.
package control
