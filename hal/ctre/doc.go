// Package ctre drives CTRE's CAN devices through CTRE's own C interfaces,
// loaded at run time with dlopen, so that frcd builds without CTRE's files
// and a robot without them fails with one clear line:
//
//   - Phoenix 5 (libCTRE_PhoenixCCI.so, the "CCI"): talon_srx and
//     can_victor_spx as hal.CANMotor (c_MotController_Create1 with the
//     controller's base arbitration id, c_MotController_Set_4 in
//     PercentOutput, c_MotController_GetBusVoltage, GetOutputCurrent,
//     GetTemperature), pigeon_imu as hal.Pigeon (c_PigeonIMU_Create1, or
//     Create2 on a Talon SRX; Get6dQuaternion, GetRawGyro,
//     GetBiasedAccelerometer).
//   - Phoenix 6 (libCTRE_PhoenixTools.so): talon_fx, cancoder and pigeon2
//     (phoenix6.Provider): c_ctre_phoenix6_encode_device gives each device's
//     hash; the control requests DutyCycleOut, VoltageOut,
//     PositionVoltage, VelocityVoltage and NeutralOut; signals read with
//     c_ctre_phoenix6_get_signal (the latest value, no wait) by SPN
//     (spns.go: the v26 numbers, checked against CTRE's phoenix6 26.1.0
//     package); gains applied with c_ctre_phoenix6_serialize_double and
//     c_ctre_phoenix6_set_configs. Each device's health (phoenix6.Healthy:
//     temperature, supply, fault fields, named faults) is read through
//     signals of its own, apart from the loop's, for /diagnostics.
//
// A failing call's StatusError is kept per call site while its code
// repeats (errCache): a device failing every cycle allocates nothing.
//
// Enabling: on a roboRIO (Options.FRC) the devices follow the Driver
// Station through NetComm and frcd feeds nothing. Elsewhere (a Linux
// coprocessor, Phoenix's SocketCAN platform library) actuators run only
// while fed: Lib.Feed, called every loop while the robot is enabled, calls
// c_FeedEnable and c_ctre_phoenix6_unmanaged_feed_enable with
// FeedTimeout; a disabled robot, a stopped loop or a dead process stops
// the feed and the devices disable within FeedTimeout.
//
// The package builds with cgo and the ctre or roborio build tag (make rio,
// make test); without them it holds nothing but this comment and Caps.
// The tests compile a fake library from testdata/fakectre.c that records
// every call; they run on the host and, built for ARM, under qemu-arm
// (make rio-test). What needs a robot is in deploy/ctre.md.
package ctre
