// Package sim is the simulated robot: a complete hal.Backend over physics
// plants, built from the same robot description (robot.Load) as the real
// one. It emulates the hardware at the level drivers touch it: PWM pulse
// widths, DIO levels, encoder edge counts, analog volts, relay contacts,
// CAN frames of a CTRE PDP and PCM (PROTOCOLS.md), emulated CTRE motor
// controllers and Pigeons behind hal.CANMotor and hal.Pigeon, and navX
// registers over SPI and I2C. It never imports the drivers (package
// devices); it reads the wiring from the YAML devices.
//
// # Time
//
// In manual mode (the default) time moves only with AdvanceTo, which
// integrates in substeps of Options.Step (1 ms): runs are deterministic,
// the same inputs give bit-identical truth. With Options.RealTime, Now
// follows the wall clock from New and the loop calls AdvanceTo(Now()).
// The Driver Station starts attached, disabled, in teleop; SetDS changes
// it. While it is disabled (or e-stopped), the FPGA sends no PWM pulses
// and opens the relays, a CAN motor controller is neutral and a PCM turns
// every output and the compressor off; DIO and analog outputs stay.
//
// # Joints
//
// Each URDF joint driven by a speed controller is a DC motor + gearbox +
// inertia plant. A motor (Motors() lists the types; the table holds each
// one's stall torque, stall current, free current and free speed at 12 V)
// has R = 12 V / stall current, kt = stall torque / stall current and
// kv = free speed / (12 V - free current × R); each motor's current is
// I = (V - G q̇ / kv) / R, the joint's torque is Motors × G × kt × I, and
// q̈ = (torque - damping q̇ - friction sign(q̇) - load) / inertia. Each
// motor also has its own viscous drag, kt × free current / free speed at
// its shaft, so that at 12 V it turns at exactly its free speed drawing
// exactly its free current. The back-EMF and damping terms are integrated
// implicitly, so a step is stable for any gearing and inertia. A neutral
// controller (duty 0) disconnects the motor: it coasts and draws nothing.
//
// Defaults, each overridden by Options.Joints (JointParams):
//   - Motor "cim", Motors 1.
//   - Gearing k_eff / (kt × Motors) when the actuator's YAML entry writes
//     k_eff, so that the PDP channel's current × k_eff is the joint's
//     effort (a PDP channel carries one motor's current); else the gearing
//     that makes the joint's free speed the URDF limit velocity; else 10.
//   - Inertia: everything the joint moves, from the URDF <inertial>s of
//     its child link and the links below it (joints below at 0): the total
//     mass for a prismatic joint, the moment of inertia about the joint's
//     axis otherwise (mass × 0.1 m² when the links give mass but no
//     tensor); 0.1 when the URDF gives nothing.
//   - Damping and Friction: the joint's URDF <dynamics>, else 0. Load 0.
//   - Travel 0.25 s.
//
// The plant's voltage: a PWM speed controller reads the pulse width with
// its hal.SpeedControllerPWM calibration, V = duty × battery terminal
// voltage; a Nidec Brushless runs while its PWM line has pulses (or is
// hal.AlwaysHigh), at duty (DIO duty cycle - 0.5) × 2; a Talon SRX or
// Victor SPX on CAN applies its SetDuty, neutral after 100 ms without
// one. A YAML `inverted: true` means the motor is wired reversed: the
// plant sees -V.
//
// Revolute and prismatic joints are held within their URDF limits;
// continuous joints are not bounded. Passive joints have the same plant
// with no motor; a passive <mimic> joint follows the joint it mimics.
//
// Positional actuators move at their range per Travel: a solenoid to the
// upper limit when its PCM output is on, back to the lower one (a spring)
// when off; a double solenoid to the upper limit after forward, the lower
// after reverse, on to its last end when both or neither are on; a relay
// toward the upper limit on its forward contact alone, the lower on its
// reverse contact alone, else it stops; a digital output to the upper
// limit while active (level XOR inverted), else the lower; an analog
// output to volts / 5 × scale + offset. Outputs no driver has opened leave
// their joints where they are. A servo turns at 6 rad/s to
// min_angle + (width - min_pulse) / (max_pulse - min_pulse) × (max_angle -
// min_angle), widths clamped into its pulse range, and stays put without
// pulses.
//
// # Power and air
//
// The battery is an open-circuit voltage (12.8 V) behind a resistance
// (0.020 Ω); its current is what the motor controllers draw, 10 A per
// running compressor and 1.5 A for the controller itself. A controller at
// duty d draws d × its motors' current (all of it at full duty; negative
// when a motor outruns its voltage and drives current back). The terminal
// voltage is solved together with the motors' currents each step (they
// depend on it). Vin is the terminal voltage less 0.05 V. A PDP channel
// reads the magnitude of its motor's current, so that channel current ×
// k_eff is the joint's effort at any duty.
//
// Each PCM has its tank, starting at Options.Pressure (120 psi). It obeys
// its Control1 frames only while the robot is enabled and the newest one
// is at most 100 ms old. With closed-loop control on and the pressure
// switch not full, its compressor draws 10 A and adds 2 psi/s; the switch
// reads full at 120 psi and not full again below 100 psi (a relief valve
// holds it at 125 psi at most). Each air-driven
// piston stroke uses 2 psi, and below 20 psi air moves no piston.
//
// # Sensors
//
// An encoder counts trunc(q / dist_per_pulse × encoding) edges, negated
// when the YAML says inverted (mounted backwards) or when opened with A
// and B swapped; as hal says, the count is since the encoder was opened.
// An analog input reads (q - offset) / scale × 5 V, clamped to 0-5 V. A
// digital input with `limit` is pressed within 1e-3 of that limit (or
// beyond); without, it is active when the joint is above the middle of its
// limits; the level is active XOR inverted. Sensors in links read what
// SetSensor sets (digital: inactive, analog: its offset, 0 V, until then).
// Channels no YAML device uses may be opened; they read 0 and drive
// nothing.
//
// # Overrides and joysticks
//
// A simulation client (package wpilibws) may override what an input
// reads: OverrideDIO (a DIO input's level), OverrideAI (an analog input's
// voltage, clamped to 0-5 V), OverrideEncoder (an encoder's count, by the
// order encoders were opened) and OverrideIMU (an IMU's motion, winning
// over SetIMU). The drivers read the override instead of the physics
// until Clear. Outputs cannot be overridden. SetJoystick keeps the Driver
// Station's six joysticks (axes clamped to -1..1). ReadIO copies the whole
// I/O (what was opened, written and is read) under one lock, for a reader
// in another goroutine.
//
// # CAN
//
// Every 20 ms each PDP sends Status1-3 and Energy with its channels'
// currents (|current| of the motor on each pdp_ch), the terminal voltage,
// 25 °C, the battery's current, power and energy; each PCM sends Status1.
// Frames are stamped with sim time; Latest keeps the newest per id.
package sim
