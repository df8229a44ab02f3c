// Package sim is the simulated robot: a complete hal.Backend over physics
// plants, built from the same robot description (robot.Load) as the real
// one. It emulates the hardware at the level drivers touch it: PWM pulse
// widths, DIO levels, encoder edge counts, analog volts, relay contacts,
// CAN frames of CTRE PDPs and PCMs and REV PDHs and PHs on named buses
// (PROTOCOLS.md), emulated CTRE motor
// controllers and Pigeons behind hal.CANMotors and hal.Pigeons, and navX
// registers over SPI and I2C: on the roboRIO port of its `id`, or, for a
// navX the YAML puts on a Linux coprocessor's bus (`bus`, `chip_select`),
// on that bus through hal.LinuxBuses (SPIDev, I2CDev; linux.go), so a
// coprocessor robot runs on the sim unchanged. It never imports the
// drivers (package devices); it reads the wiring from the YAML devices.
//
// # Parts
//
// What an entry of each device type becomes in the sim is its part: one
// file, part_TYPE.go, registering it by one line (registerPart): what the
// entry puts on its CAN bus, the joint it drives, the joint it measures.
// A type's facts may call for a shared part instead (every PWM speed
// controller is a PWM motor with its type's calibration, so a new one
// needs no part). The files of the sim itself: sim.go (the Sim and New),
// options.go, wiring.go (joints and sensors from the robot, through the
// parts), step.go (the physics' stepping), backend.go (the hal
// providers), channels.go (their handles), inspect.go (getters and
// setters for tests and tools).
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
// controller (duty 0) in coast disconnects the motor: it coasts and draws
// nothing from the battery. A CAN controller in brake (its neutral_mode,
// as the driver applied it) shorts the windings instead: no voltage, so
// the back-EMF drives a current that brakes the motor (drivelimits.go),
// whether it is neutral because disabled, e-stopped, told 0 or its command
// went stale. A CAN controller's current limits, in its vendor's terms,
// bound the voltage it applies (drivelimits.go). A PWM controller's
// neutral mode is a jumper (or B/C CAL button) on the controller, which
// PWM cannot set: it coasts unless the sim joint's jumper is brake
// (JointParams.Brake), and then brakes as a CAN controller in brake does,
// disabled (no pulses) included; it has no current limit.
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
// its type's calibration (config.Facts.PWM), V = duty × battery terminal
// voltage; a Nidec Brushless runs while its PWM line has pulses (or is
// hal.AlwaysHigh), at duty (DIO duty cycle - 0.5) × 2; a Talon SRX or
// Victor SPX on CAN applies its SetDuty, neutral after 100 ms without
// one. A YAML `inverted: true` means the motor is wired reversed: the
// plant sees -V.
//
// Revolute and prismatic joints are held within their URDF limits;
// continuous joints are not bounded. SetJoint places a joint at a position
// and velocity at once (held within its limits), as the path-planner
// text's "push": the ROS bridge's /sim/push. Passive joints have the same plant
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
// # Drivetrain
//
// Options.Drivetrain (the YAML's `sim: drivetrain:`) makes wheel joints
// drive the robot's base on a flat field. The base has a true pose x, y,
// yaw (Pose, SetPose) and a velocity; its mass is Drivetrain.Mass, else
// the URDF's total mass (else 50 kg), and its yaw inertia YawInertia,
// else the URDF's about the root link's z axis (scaled to the mass given),
// else mass × (track / 2)². Each wheel joint (continuous, driven by a
// speed controller) keeps its motor plant; its contact is at its URDF
// origin relative to the root link, it rolls along axis × z, with the
// radius WheelRadius, else its link's cylinder, else 3 in.
//
// Each substep, after the wheels' plants have moved, the floor's traction
// on each wheel is solved together with the base's motion: a stiff linear
// function of the slip speed (wheel surface speed less the ground speed at
// the contact, along the gripping direction) reaching friction × the
// wheel's share of the weight (mu m g / n) at 0.01 m/s of slip, and
// limited to that: beyond it the wheel slips. The traction is solved
// implicitly (projected Gauss-Seidel over the contacts, the wheels'
// implicit inertias I + h × their viscous terms), so a 1 ms step is stable
// for any gearing; it pushes the base (force and torque about its origin)
// and reacts on the wheel joint as a load torque (radius × force). Then
// the pose integrates. Wheels grip:
//   - tank: along their rolling direction; sideways grip (mu m g) acts at
//     the middle of the wheels, so turning does not scrub (as a
//     drop-center drive).
//   - mecanum (front_left, front_right, rear_left, rear_right): only
//     across their 45° rollers (front left and rear right on one
//     diagonal, the others on the other); along the rollers they slide.
//   - swerve: each module grips along and across its rolling direction,
//     turned by its steering joint's position about its vertical axis,
//     within one friction circle; the module's contact is its steering
//     axis. The floor puts no torque on the steering joints.
//
// A wheel joint's truth (Joint) stays its own rotation, which its encoder
// counts, so odometry from the encoders drifts from the pose as wheels
// slip. The base's field-frame force and velocity disturbances (base.force,
// base.vel: a push, a moving floor) enter the same step. IMUs whose
// frame_id link is fixed to the root link (through fixed joints) feel the
// base's motion every substep: orientation yaw × their mount, turn rate
// and acceleration (with the tangential and centripetal terms of their
// offset) in their own frame; SetIMU takes an IMU off the base. Without a
// drivetrain, IMUs read what SetIMU sets.
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
// Each PCM (and PH) has its tank, starting at Options.Pressure (120 psi). It obeys
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
// # Faults
//
// Options.Faults (the YAML's `sim: sensors:`, or SetFault at run time)
// gives a sensor Veranda's fault model, SensorFault, applied where the
// drivers read the hardware:
//   - Noise (mu, sigma) is added to each reading in the units the sensor
//     measures: an encoder counts trunc((q + noise + drift) / dpp ×
//     encoding), an analog input reads (q + noise + drift - offset) /
//     scale × 5 V. An IMU's yaw is off by noise + drift (about the world
//     z axis, counter-clockwise), and its z rate reads, besides, the
//     drift's mean rate (the gyro bias that makes a yaw drift) plus a
//     noise of deviation sigma in rad/s. A Pigeon draws at each Read, a
//     navX at each sample it latches.
//   - Drift (mu, sigma per second) is a random walk integrated with the
//     physics, mu h + sigma √h N(0, 1) per substep h, whether or not
//     anything reads: after t seconds its mean is mu t and its deviation
//     sigma √t. A new model from SetFault keeps the drift so far.
//   - Dropout is the probability that a read is lost, as the device
//     loses it: an encoder, analog or digital input repeats its previous
//     reading (stale); a Pigeon sends no frame (hal.ErrTimeout); a navX
//     garbles its SPI response (its CRC fails) or NACKs an I2C read. The
//     drivers keep their last state; a navX with no good read for three
//     update periods times out.
//   - Stuck freezes the reading at its value (without noise) at FaultAt:
//     the count, the volts, the level, the IMU's motion (a stuck navX
//     still ticks its timestamp).
//   - Disconnected, from FaultAt: an encoder stops counting, an analog
//     input floats to 0 V, a digital input reads high (the roboRIO's
//     pull-up, whatever the sensor's inversion), a Pigeon times out, a
//     navX reads zeros on SPI and NACKs on I2C.
//
// A digital input takes no noise or drift. Each faulty sensor draws from
// random streams of its own, seeded from Options.Seed and its name: the
// same seed and calls give bit-identical readings, and reading one sensor
// more often changes no other draw, nor its own drift.
//
// # Disturbances
//
// Options.Disturbances (the YAML's `sim: disturbances:`, or
// SetDisturbances) push a joint or the drive base, as Gazebo's
// RandomVelocityPlugin: a Disturbance holds its initial value until
// UpdatePeriod (default 10 s) has passed since it was set, then at each
// multiple of it draws each axis uniform in -1 to 1, normalizes the
// vector, scales it to Magnitude and clamps each axis to its Min and Max
// (unbounded when not given). A joint has one axis, x, so a draw is
// ±Magnitude, clamped; the base has the field's x and y. A value drawn
// at time t acts from t on. A force (N·m or N) adds to a joint's torque
// balance (joints moved by a motor, or passive ones); a velocity (rad/s or
// m/s) carries the joint along, pos += v h each substep, within its
// limits, and adds to its true velocity. Joints that mimic another cannot
// be pushed. The base's force and velocity sums are handed to the
// drivetrain's model (baseDisturbance). Draws come from each
// disturbance's own stream, seeded from Options.Seed.
//
// # Overrides and joysticks
//
// A simulation client (package wpilibws) may override what an input
// reads: OverrideDIO (a DIO input's level), OverrideAI (an analog input's
// voltage, clamped to 0-5 V), OverrideEncoder (an encoder's count, by the
// order encoders were opened) and OverrideIMU (an IMU's motion, winning
// over SetIMU). The drivers read the override instead of the physics
// until Clear (overrides win over faults; ReadIO shows a fault's offset
// and freeze but draws no noise or dropout, so watching never changes a
// run). Outputs cannot be overridden. SetJoystick keeps the Driver
// Station's six joysticks (axes clamped to -1..1). ReadIO copies the whole
// I/O (what was opened, written and is read) under one lock, for a reader
// in another goroutine.
//
// # CAN
//
// Each name a YAML can_bus gives is a bus of its own (CANBus; CAN is the
// default, ""; a name no device uses is an empty bus), and every
// emulated device sits on its device's bus: the same CAN ids on two buses
// are two devices. Every 20 ms each PDP sends Status1-3 and Energy with
// its channels' currents (|current| of the motor on each pdp_ch), the
// terminal voltage, 25 °C, the battery's current, power and energy; each
// PDH (rev_pdh) sends Status0-4 (allwpilib's PDHFrames layouts) with its
// 24 channels' currents the same way, the terminal voltage, the system
// enable, its switchable channel (as SetSwitch last set it) and the
// battery's current; each PCM sends Status1; each PH sends Status0 and
// Status1 (its outputs, pressure switch, compressor on, configuration,
// bus voltage, compressor current). A PH is a module like a PCM with 16
// channels: its solenoids drive the same pneumatic plant from its SetAll
// frames (2 bits per channel, 1 on) under the same rule (enabled, the
// newest at most 100 ms old), and its compressor runs with the same tank
// while the newest CompressorConfig asks for digital control (use
// digital, not force-disabled) and the robot is enabled. The emulated
// Talon SRX and Victor SPX send the legacy STATUS_1 (every 10 ms),
// STATUS_2 (20 ms), STATUS_3 and STATUS_4 (160 ms) ids 0x02041400 +
// 0x40 k + id, 8 bytes, with the sim's own payload (duty, current, bus
// voltage, temperature: the real layouts are closed); a Pigeon on CAN
// sends two stand-in frames with a real Pigeon's ids (device type 0x15,
// CTRE), API 0x88 every 10 ms (quaternion) and 0x8A every 20 ms (rates),
// and one cabled to a Talon SRX the same through the Talon, with its
// device type and number. So the ids a bus hears and its load are those
// of a real bus. Frames are
// stamped with sim time; Latest keeps the newest per id.
//
// Each bus is a hal.CANMonitor: Heard lists the ids its devices sent,
// each with its last time and count; Stats counts the frames both ways
// (the drivers' sends are Tx) and measures Load, the bit time
// (hal.FrameBits: the 29-bit frame with its stuff bits) of the frames of
// the last simulated second over hal.CANBitRate. Nothing allocates per
// frame.
//
// A CAN device may fall silent, as with a cut cable: SetCANSilent (by the
// YAML name of a device on it; a solenoid's or compressor's is its PCM or
// PH, for every device on the module) or Options.CANFaults (the YAML's
// `sim: can_faults:`, from and until a sim time). It then sends no frame
// and hears none: its status goes stale after 100 ms in the drivers, a
// PCM or PH drops its outputs 100 ms after its last control frame, a
// motor controller goes neutral 100 ms after its last SetDuty (its Status
// fails at once with hal.ErrTimeout), and a Pigeon's Read fails (so does
// a Pigeon cabled to a silent Talon SRX). Heard again, it answers at its
// next period.
//
// # Scenarios
//
// A Scenario is the sim's starting point as a JSON file (as Veranda saves
// worlds): the seed, whether the Driver Station starts enabled, the
// battery and air, the plants, the joints' initial positions and
// velocities, the link sensors' values, the sensor faults, the
// disturbances and the CAN faults. Sim.Scenario gives the one a
// Sim was built from (`frcd run --sim --save-scenario F` writes it);
// loaded (LoadScenario, `--scenario F`), it replaces the YAML's sim:
// section and the seed, so the same scenario and the same commands replay
// a run bit for bit. Unknown fields and values that are not numbers are
// errors with file:line:col.
package sim
