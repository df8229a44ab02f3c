// Package wpilibws serves WPILib's HAL simulation WebSocket protocol
// (allwpilib simulation/halsim_ws_core/doc/hardware_ws_api.md) from the
// simulated robot, so that the tools written against WPILib's
// halsim_ws_server (physics simulators, dashboards, WPILib's own
// @wpilib/node-wpilib-ws library) can watch and drive frcd. frcd plays the robot program's end, as WPILib's
// halsim_ws_server does: it sends the robot's outputs ("<" keys) and
// takes its inputs (">" keys) from the clients.
//
// # Connections
//
// The server listens on 127.0.0.1:3300 unless told otherwise (frcd run
// --wpilibws ADDR, or off). It accepts WebSocket clients on /wpilibws and,
// so that several tools can watch at once, on /wpilibws/NAME; as the spec
// says, each resource takes one client at a time and refuses a second
// with HTTP 409. Browsers from other origins are refused (the library's
// origin check).
//
// # What frcd sends
//
// On connect, a client gets the state of every device the robot opened,
// then, every 20 ms, only the values that changed. A client whose queue
// (4096 messages) fills, or whose write takes over 2 s, is closed, so a
// slow client never stalls the others or the loop (the server only reads
// the sim's state under its lock). When the server stops (the daemon stops
// it after making every output neutral), each client gets the whole state
// once more and a close frame, 1001 going away. A panic while serving a
// client goes to Options.OnPanic (the daemon then stops, outputs neutral).
// Devices, from the sim's I/O and the YAML's wiring:
//
//   - DriverStation (device ""): >enabled, >autonomous, >test, >estop,
//     >ds, >fms, >station, >match_time, >game_data; frcd's extensions
//     <opmodes (the YAML's op modes, [{"name":N,"mode":"autonomous"|
//     "teleop"|"test"}...]) and >opmode (the one selected, "" for none).
//   - Joystick 0-5: >axes, >buttons, >povs, as clients last set them.
//   - PWM N for each opened channel: <init; <speed, -1 to 1, from the
//     pulse width with the speed controller's calibration
//     (its type's config.Facts.PWM; a Nidec's from its DIO duty cycle while
//     its PWM line pulses; WPILib's 1-2 ms bounds when the YAML names no
//     controller), or <position, 0 to 1, for a servo across its pulse
//     range. What the driver wrote: 0 while disabled.
//   - DIO N for each channel opened as an input or output: <init,
//     <input, <>value (the electrical level: an input's as read, override
//     included; an output's as written).
//   - dPWM N (N counts the duty-cycle outputs): <init, <duty_cycle,
//     <dio_pin.
//   - AI N for each opened analog input: <init, >voltage (as read).
//   - Encoder N, N counting the encoders in the order they were opened:
//     <init, <channel_a, <channel_b, >count (what the driver reads),
//     >period (seconds between counts; the largest double when still).
//   - Relay N: <init_fwd, <init_rev (from the YAML direction), <fwd, <rev.
//   - Solenoid "PCM,CHANNEL" for each YAML solenoid channel: <init,
//     <output (the robot program's last command to the PCM).
//   - CANMotor "TalonSRX[ID]" / "VictorSPX[ID]": <percentOutput.
//   - Gyro and Accel, device = the YAML name of each navx and pigeon_imu.
//     The spec's standard Gyro and Accel types rather than a vendor's
//     SimDevice: every client understands them, and the navX's and
//     Pigeon's SimDevice keys are vendor code, not in the spec. Gyro:
//     <init, >connected, >angle_x/y/z (roll, pitch, yaw in degrees,
//     Z-Y-X from the IMU's quaternion, counter-clockwise positive about
//     each axis), >rate_x/y/z (deg/s). Accel: <init, >x/y/z in g.
//
// # What frcd takes
//
// Malformed messages (not JSON objects, or without a string type, a
// string device and an object data) and unknown types are ignored and
// counted (Stats.Ignored); values of the wrong JSON type, out of range,
// or for a device the robot lacks are ignored and counted
// (Stats.BadValues). Keys frcd does not use are ignored, as the spec says.
//
//   - DriverStation >enabled enables or disables the robot through the
//     daemon (the loop then neutralizes every output); >estop e-stops it;
//     >autonomous and >test set the mode; >ds attaches or detaches the
//     Driver Station; >fms sets the control word's FMS-attached bit
//     (hal.DSState.FMS: /FMSInfo/FMSControlData, the 2027 ControlWord);
//     >station and >game_data are the match's alliance station and
//     game-specific message (/FMSInfo, /DriverStation, the ROS
//     driver_station/ topics, read again the cycle after a change:
//     MatchSeq); >match_time is kept; >opmode (frcd's extension: the
//     WPILib protocol has no op modes) selects the op mode of that name,
//     the current robot mode's, else the first in the YAML, whose mode it
//     sets, "" none (an unknown name counted in BadValues; a change of
//     robot mode drops it); all are reported back. When the
//     client that last enabled the robot leaves, the robot is disabled,
//     as a real one is when its Driver Station connection drops. >new_data is accepted: frcd has no robot program
//     caching Driver Station data, so joystick values apply on arrival.
//   - Joystick N >axes, >buttons, >povs replace the sim's joystick
//     (sim.SetJoystick: at most 12 axes, 32 buttons, 12 POVs).
//   - DIO N <>value on an input channel, AI N >voltage, Encoder N >count,
//     Gyro NAME >angle_*/>rate_* and Accel NAME >x/y/z override what the
//     sensor reads (sim.Override*): the loop's drivers read the override
//     instead of the physics. An override lasts until the client that set
//     it disconnects, or until it sends the key with a null value (a
//     frcd extension; for Gyro and Accel, a null on any key ends the
//     IMU's override). Encoder >period and Gyro >connected are ignored.
//
// Limits: 16 clients, 4 from one remote address, a newcomer taking the
// place of the idlest client that never sent a message the server took
// (admission.go; refused with 503 only when every client in its way did);
// messages of 64 KiB; a queue of Options.Queue messages per client and
// each write within WriteTimeout, or the client is closed. With
// Options.Retry, a port another program holds is tried again every Retry.
package wpilibws
