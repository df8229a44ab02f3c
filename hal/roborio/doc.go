// Package roborio is the hal.Backend of a real roboRIO: every capability
// reaches the FPGA and NetComm through the WPILib HAL, libwpiHal.so, the
// 2026 season's C API (allwpilib tag v2026.2.2, the headers in
// hal/src/main/native/include/hal/), through hal/wpihal, the binding it
// shares with Systemcore's 2027 HAL. frcd's C declarations of the HAL
// functions are its own (hal/wpihal/hal2026.c); the library is loaded at
// run time with dlopen, so frcd builds without NI or WPILib files and Open
// fails with one clear line when they are missing. This package is the
// roboRIO's part: where the HAL is deployed, the checklist, Caps.
//
// The package builds only with the roborio build tag and cgo (make rio;
// see the Makefile); without them it holds nothing but this comment and
// Caps (what `frcd validate --hal roborio` checks against), so every other
// build and test stays pure Go.
//
// What each hal capability becomes:
//   - Open: HAL_Initialize, then HAL_ObserveUserProgramStarting, without
//     which the Driver Station never enables the robot.
//   - DS: HAL_RefreshDSData and HAL_GetControlWord, then the observe call
//     of the mode (HAL_ObserveUserProgramDisabled, Autonomous, Teleop or
//     Test) the Driver Station expects every loop; the daemon's loop calls
//     DS once a cycle. Joystick and MatchTime (hal.Joysticks,
//     hal.MatchTimer) read the data that refresh brought.
//   - BrownedOut (hal.Brownouts) is HAL_GetBrownedOut, read at every
//     call.
//   - PWM: HAL_InitializePWMPort; SetPulse is
//     HAL_SetPWMPulseTimeMicroseconds (rounded to the microsecond, under
//     4096 µs), HAL_SetPWMDisabled for 0 and HAL_SetPWMAlwaysHighMode for
//     hal.AlwaysHigh. The period stays the HAL's default (5.05 ms).
//   - DIO: HAL_InitializeDIOPort as input or output; HAL_GetDIO, HAL_SetDIO.
//     Duty cycle outputs: a DIO output routed to one of the FPGA's DIO PWM
//     generators (HAL_AllocateDigitalPWM, HAL_SetDigitalPWMOutputChannel,
//     HAL_SetDigitalPWMDutyCycle) at DutyCycleRate, the rate the Nidec
//     Brushless wants; the rate is shared by all generators.
//     Duty-cycle inputs (duty_cycle_encoder): a DIO input routed to one of
//     the FPGA's 8 duty-cycle counters, HAL_InitializeDutyCycle(the DIO's
//     handle, trigger type 0) as WPILib's DutyCycle of a DigitalInput
//     (allwpilib v2026.2.2 hal/include/hal/DutyCycle.h,
//     wpilibc DutyCycle.cpp, DigitalInput.cpp); Output is
//     HAL_GetDutyCycleOutput (the FPGA's count over 4e7 − 1), Frequency
//     HAL_GetDutyCycleFrequency (an int32_t, whole Hz). A ninth is
//     refused (NO_AVAILABLE_RESOURCES) and its DIO freed again.
//   - Encoders: two DIO inputs routed to HAL_InitializeEncoder in 1x, 2x
//     or 4x; Count is HAL_GetEncoderRaw (edges, per the encoding).
//   - Analog: HAL_InitializeAnalogInputPort with HAL_SetAnalogAverageBits
//     and HAL_SetAnalogOversampleBits; Voltage reads
//     HAL_GetAnalogAverageVoltage when averaging or oversampling, else
//     HAL_GetAnalogVoltage. Analog outputs: HAL_SetAnalogOutput, clamped
//     to 0-5 V.
//   - Relays: a forward and a reverse HAL relay port per channel.
//   - CAN: HAL_CAN_SendMessage (sent once); Latest asks
//     HAL_CAN_ReceiveMessage for the id and keeps the newest frame per id,
//     stamped on the backend's Clock from NetComm's receive time stamp.
//   - CTRE's devices (talon_srx, can_victor_spx, pigeon_imu through Phoenix
//     5; talon_fx, cancoder, pigeon2 through Phoenix 6): CTRE's libraries
//     loaded by hal/ctre at Open when deployed, under the FRC rules (the
//     Driver Station enables them; frcd feeds nothing). Vendor gives them
//     to the hal.Open helpers; when they are missing, opening a CTRE
//     device fails with hal.ErrUnsupported saying why (Lacks).
//   - SPI and I2C: periph spi.Port and i2c.Bus over HAL_InitializeSPI and
//     HAL_TransactionSPI, HAL_InitializeI2C and HAL_TransactionI2C.
//   - Vin: HAL_GetVinVoltage. Clock: the OS's monotonic clock since Open
//     (NetComm stamps CAN frames on it); HAL_GetFPGATime is ReadClock's,
//     which the daemon checks against it every cycle, a clock that cannot
//     be read, stalls or steps back disabling the robot
//     (docs/architecture.md, The clocks).
//
// Every HAL status becomes an error naming the call, the status code and
// the HAL's message (HAL_GetErrorMessage, or HAL_GetLastError when the HAL
// says to); RESOURCE_IS_ALLOCATED wraps hal.ErrInUse and the out-of-range
// statuses hal.ErrNoDevice.
//
// The tests (hal/wpihal's, with the roborio tag) compile a fake
// libwpiHal.so from internal/fakehal/c/fakehal2026.c with the host's C
// compiler; it records every call with its arguments, and the tests check
// them. deploy/roborio-checklist.md
// lists what that verifies and what still needs a robot.
package roborio
