// Package systemcore is the HAL backend of Systemcore, WPILib's robot
// controller from the 2027 season (a Raspberry Pi CM5 running aarch64
// Linux with systemd): `frcd run --hal systemcore`.
//
// CAN: the five buses, plain SocketCAN interfaces can_s0 to can_s4, each
// opened for CAN FD frames when its interface has the CAN FD MTU (72), as
// WPILib's own HAL opens them; the FRC universal heartbeat on each bus in
// the `linux:` section's mode (auto by default: Systemcore's WPILib HAL
// sends none, and auto stands back if another sender is on the bus).
//
// Everything else goes through Systemcore's NT4 system server
// (127.0.0.1:6810, `linux: system_server`), with the topics WPILib's
// Systemcore HAL used in v2027.0.0-alpha-4 to -6 (docs/systemcore.md has
// every fact and the commit it was read from):
//   - the six SmartIO channels (0-5, one use each) as PWM outputs, digital
//     inputs and outputs, analog inputs and duty-cycle outputs (/io/<ch>/...);
//   - the Driver Station: enable, e-stop, mode, joysticks, match time and
//     match info, from the protobuf /Netcomm/Control/ControlData and
//     MatchInfo; it also drives the heartbeats' enable. With
//     `linux: {ros_enable: true}` frcd's own Driver Station, enabled over
//     ROS, takes its place, as on a coprocessor;
//   - the built-in IMU (/imu/...), for the systemcore_imu device type;
//   - the battery voltage (/sys/battery).
//
// Since June 2026 WPILib reaches these through mrclib, a closed C library,
// instead; a system server that does not announce a topic a configured
// device needs is reported on /diagnostics, and every read of it fails
// saying so. Quadrature encoders (never on the system server), relays,
// analog outputs and the roboRIO's ports Systemcore's backend lacks;
// Lacks says why.
//
// Safety: the control loop never waits on the network (outputs are
// published by the link's goroutine, inputs are the latest values sent).
// The Driver Station reads disabled while the server is not connected or
// silent for 0.5 s, or its control data is older than 0.5 s; every new
// connection starts every SmartIO output at 0.
package systemcore
