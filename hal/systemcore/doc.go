// Package systemcore is the HAL backend of Systemcore, WPILib's robot
// controller from the 2027 season (a Raspberry Pi CM5 running aarch64
// Linux with systemd): `frcd run --hal systemcore`.
//
// What it runs: the five CAN buses, plain SocketCAN interfaces can_s0 to
// can_s4, each opened for CAN FD frames when its interface has the CAN FD
// MTU (72), as WPILib's own HAL opens them; the FRC universal heartbeat on
// each bus in the `linux:` section's mode (auto by default: Systemcore's
// WPILib HAL sends none, and auto stands back if another sender is on the
// bus); frcd's own Driver Station, enabled over ROS (/frcd/enable with
// `linux: {ros_enable: true}`), as on a Linux coprocessor.
//
// What it does not run, and why (docs/systemcore.md has the facts and the
// WPILib commit they were read from): since WPILib's June 2026 changes,
// the SmartIO channels (PWM, DIO, analog in, encoders, counters), the
// Driver Station's control data, the built-in IMU, the battery voltage and
// brownout are reached only through mrclib, a closed C library, not
// through the NT4 system server on 127.0.0.1:6810; frcd is a static Go
// binary without cgo and has no binding to it. Those providers are absent
// from Caps, so `frcd validate --hal systemcore` names every device that
// needs one, and opening one is hal.ErrUnsupported with that reason.
// Systemcore has no relays, analog outputs or roboRIO ports at all.
//
// The NT4 system server (127.0.0.1:6810) still runs; the backend connects
// to it with nt4.Conn and reports on /diagnostics whether it answers, how
// many topics it announces and which REV Expansion Hubs it says are
// connected, so that a team sees on new hardware what it offers.
//
// The `linux:` section of the robot's YAML configures it as it configures
// a coprocessor: can (default can_s0 to can_s4), heartbeat, ros_enable;
// its gpio map does not apply (Systemcore's DIO are SmartIO channels).
package systemcore
