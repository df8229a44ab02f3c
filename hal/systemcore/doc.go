// Package systemcore is the HAL backend of Systemcore, WPILib's robot
// controller from the 2027 season (a Raspberry Pi CM5 running aarch64
// Linux with systemd): `frcd run --hal systemcore`.
//
// CAN: the five buses, plain SocketCAN interfaces can_s0 to can_s4, each
// opened for CAN FD frames when its interface has the CAN FD MTU (72), as
// WPILib's own HAL opens them. The FRC universal heartbeat is the OS's
// (its robot heartbeat service sends it from the Driver Station's state):
// frcd sends none unless the `linux:` section's heartbeat asks (auto by
// default with ros_enable).
//
// Everything else goes through WPILib's 2027 HAL, libwpiHal.so, loaded at
// run time by hal/wpihal (the binding the roboRIO shares), as a WPILib
// robot program reaches it; the HAL reaches Systemcore through mrclib, the
// closed library in the OS image (docs/systemcore.md has every signature
// and the commit it was read from):
//   - the six SmartIO channels (0-5, one use each) as PWM outputs (20 ms
//     period), digital inputs and outputs, analog inputs (0-3.3 V) and
//     quadrature encoders on the pairs 0/1, 2/3, 4/5;
//   - the Driver Station: enable, e-stop, mode, joysticks, match time and
//     match info; it also drives the heartbeats' enable when frcd sends
//     them. With `linux: {ros_enable: true}` frcd's own Driver Station,
//     enabled over ROS, takes its place, as on a coprocessor;
//   - the built-in IMU, for the systemcore_imu device type;
//   - the battery voltage and the brownout state.
//
// The HAL needs cgo: only a build with the systemcore tag and cgo (make
// systemcore) has it; any other build's backend opens the CAN buses and
// then fails, saying so.
//
// Safety, as a WPILib robot program has it: the robot is enabled only
// while the HAL says the Driver Station enables it, its data is fresh and
// outputs are enabled (Systemcore's watchdog); an e-stop latches until
// frcd restarts; the daemon's final halt holds it disabled and tells the
// Driver Station so; Close sets every SmartIO output neutral before the
// HAL shuts down.
package systemcore
