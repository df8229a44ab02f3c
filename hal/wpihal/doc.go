// Package wpihal is frcd's one binding to WPILib's HAL, libwpiHal.so,
// loaded at run time with dlopen and called through its public C API:
// the roboRIO's 2026 HAL (allwpilib tag v2026.2.2, build tag roborio) and
// Systemcore's 2027 HAL (build tag systemcore) in two layouts: allwpilib
// tag v2027.0.0-alpha-6, the newest 2027 release (878da3d54c, 2026-05-07;
// alpha-5 declares the same), and main at caf0fb2dcc (2026-08-21), which
// differ in HAL_Initialize's parameters and HAL_MatchInfo's eventName (64
// bytes in alpha-6, 65 on main). What both HALs share (loading, status
// errors, the clock, the Driver Station, joysticks, match, battery, brownout, PWM,
// DIO, analog inputs, encoders) is one Go core (wpihal.go, io.go) over
// year-neutral C trampolines (wpihal.h); each year's C file (hal2026.c,
// hal2027.c) declares that year's functions from its headers and
// implements the trampolines on them, and each year's Go file
// (hal2026.go, hal2027.go) adds what only that HAL has. A build has one
// year: roborio wins when both tags are given.
//
// The platforms' backends are built on it: hal/roborio (the roboRIO, the
// whole backend) and hal/systemcore (Systemcore: the HAL for the Driver
// Station, SmartIO, the IMU, battery and brownout; SocketCAN for CAN).
//
// Loading reads the HAL's layout from the symbols the library exports (the
// HAL has no version call): main exports HAL_SendProgramCrash and
// HAL_SetBrownoutVoltages, alpha-6 HAL_GetBrownoutVoltage and neither of
// those, the 2026 HAL HAL_GetFPGATime and no HAL_GetMonotonicTime. A
// library of any other layout (a 2026 HAL under a 2027 build or the
// reverse, a 2027 alpha before alpha-5, main between the two) is one
// clear error naming which of those symbols it has and lacks and what the
// build calls, never a call with the wrong arguments. Backend.Layout says
// which was loaded. testdata/wpihal_decls.txt holds every HAL function
// frcd calls as each layout's headers declare it, with the header and
// commit; TestDeclarations checks frcd's tables against it.
//
// Safety, as a WPILib robot program has it: DS reads enabled only while
// the Driver Station enables the robot, the HAL has its data, outputs are
// enabled (Systemcore's watchdog) and no e-stop has been seen since Open
// (an e-stop latches until the process restarts); Hold (the daemon's final
// halt) disables for good. Close sets every output neutral and frees it.
//
// An output (PWM, DIO, relay, analog output, DIO PWM) set to the value it
// already holds is not written again: the FPGA and SmartIO keep an
// output's value, and the loop sets every output each cycle, neutral
// while the robot is disabled. It is written anyway at the tenth such set
// in a row and after a failed write.
//
// The tests compile a fake libwpiHal.so for each year (and each 2027
// layout, fakehal.Layouts) from internal/fakehal's fakehal2026.c and
// fakehal2027.c with the host's C compiler (or
// $FAKEHAL_CC: make rio-test runs the 2026 tests as ARM binaries under
// qemu-arm, make systemcore-test the 2027 tests as arm64 binaries under
// qemu-aarch64); the fakes record every call and play a Driver Station.
package wpihal
