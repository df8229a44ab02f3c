// Package devices binds each device of a robot's YAML file to the HAL and
// to its handles: one file per device type, named for the type, declaring
// the type once: its YAML keys and docs (a config.Type, with the facts the
// other layers read: config.Facts), its constructor, its CAN traffic and
// the HAL providers it needs, registered by a one-line init
// (MustRegister(Driver{...}), which registers the config.Type too); Build
// binds them all. docs/adding-a-device.md walks through adding one.
//
// # Lifecycle
//
// A Constructor opens the device's HAL channels and registers its handles;
// it does no other I/O. The loop then calls, each cycle, Read on every
// device in Build's order, and Write in the reverse order; Halt (reverse
// order too) makes every output neutral and writes it at once. Shared
// devices (a CTRE PCM, one per pcm_id, through Env.Shared) come first, so
// the PCM decodes its status before the solenoids read it and sends its
// control frame after they have set their bits. Read, Write and Halt take
// time from their arguments and do not allocate; their errors are
// prebuilt, or the device's wrapper of the HAL's error, made once per
// distinct cause and never changed after (the loop's snapshot hands it to
// other goroutines), classified with errors.Is (hal.ErrTimeout for a stale
// status; hal.ErrConfiguring while a device starts up within its own bound,
// which the loop does not count as an error: a SPARK's sparkStartup).
//
// # Handles
//
// Handle keys are "name/interface" with name the YAML entry's name and the
// interface one of package interfaces' constants. Command handles are
// registered with the device's name as owner.
//
//	type                  state handles                           command handles
//	analog_input          name/rate RateState (value, d/dt),      -
//	                      name/analog AnalogState (the value)
//	digital_input         name/binary BinaryState                 -
//	                      (level XOR inverted)
//	encoder               name/rate RateState, name/analog        -
//	                      AnalogState (position)
//	pigeon_imu            name/imu IMUState                       -
//	analog_output         name/rate RateState, name/analog        name/analog AnalogCommand
//	                      AnalogState (value written, user units) (user units)
//	digital_output        name/binary BinaryState (value          name/binary BinaryCommand
//	                      written, before inversion)
//	solenoid              name/binary BinaryState (PCM's output   name/binary BinaryCommand
//	                      when its status is fresh, else commanded)
//	double_solenoid       name/ternary TernaryState (likewise)    name/ternary TernaryCommand
//	relay                 name/ternary TernaryState (written)     name/ternary TernaryCommand
//	servo                 name/position AnalogState (angle sent,  name/position JointCommand
//	                      rad)                                    (rad)
//	speed controllers     name/voltage AnalogState (V applied,    name/voltage JointCommand (V)
//	                      joint's direction: duty × supply after
//	                      clamping, before inversion; 0 neutral)
//	compressor            name/binary BinaryState (closed loop    name/binary BinaryCommand
//	                      enabled, from the PCM's status),        (closed-loop enable; on
//	                      name/compressor CompressorState         when never set)
//	pdp                   name/pdp PDPState (16 channels)         -
//	rev_pdh               name/pdp PDPState (24 channels),        name/binary BinaryCommand
//	                      name/binary BinaryState (switchable     (switchable channel)
//	                      channel, as the PDH reports it)
//	spark_max, spark_flex name/voltage AnalogState (as speed      name/voltage JointCommand (V)
//	                      controllers, from the SPARK's Status 0),
//	                      name/rate RateState and name/analog
//	                      AnalogState (its built-in encoder ×
//	                      position_factor), name/effort
//	                      AnalogState (current × k_eff)
//	talon_fx, spark_max,  with closed_loop: device, also          name/position, name/velocity
//	spark_flex            (the controllers' setpoints go to the   JointCommand (rad or m, rad/s
//	                      device's own loop, gains from the YAML) or m/s)
//	rev_ph                name/compressor CompressorState (as     -
//	                      the hub reports it)
//
// The speed controllers are the types with config.Facts.Speed (frcd
// describe lists them). They read no sensors: a joint's position, velocity and effort
// come from its encoder, pot and PDP channel, merged by the loop.
//
// # Commands
//
// A device obeys its command handle's Set and Value only: the loop's
// safety phase resets stale or refused commands. An unset command means
// neutral: 0 V, output off, relay off, servo limp, analog output 0 V. A
// value that is not finite (interfaces.Finite) is written as neutral too,
// in defence in depth.
//
// # Conversions
//
// They match the hardware (and the sim, which emulates it):
//
//   - PWM speed controllers: duty = V / Vin, clamped to [-1, 1], negated
//     when inverted; pulse = the type's calibration (config.Facts.PWM, an
//     frc.PWM* value).Pulse(duty).
//     Neutral is the center pulse; Halt disables the output (width 0).
//     Vin is read each Write; when it fails or reads below 4.5 V (where a
//     roboRIO cannot run) 12 V is assumed.
//   - nidec: the PWM channel is held high (hal.AlwaysHigh) while running,
//     disabled on Halt; the DIO duty cycle is 0.5 + 0.5 × duty, 0.5 neutral.
//   - talon_srx, can_victor_spx: hal.CANMotor SetDuty(duty), the divisor
//     being the controller's own bus voltage (its Status) when it has one.
//     Their CAN protocol is closed: a real robot needs CTRE Phoenix behind
//     hal.CANMotor (and hal.Pigeon for pigeon_imu).
//   - encoder: position = count / encoding × dist_per_pulse, negated when
//     inverted; analog_input: value = volts / 5 × scale + offset. Their
//     rates are differences over at least 20 ms of samples.
//   - analog_output: volts = (value − offset) / scale × 5, clamped to 0-5 V.
//   - servo: pulse = min_pulse_us + (angle − min_angle) / (max_angle −
//     min_angle) × (max_pulse_us − min_pulse_us), angle clamped.
//   - relay: forward (true, false), reverse (false, true), off (false,
//     false); a direction the relay's `direction` forbids is off.
//   - PCM (solenoids, compressor): Status1 0x09041400+id decoded, stale
//     after 100 ms; Control1 0x09041C00+id sent on change and every 20 ms.
//   - PH (module_type rev_ph: solenoids 0-15, compressor, rev_ph):
//     Status0 0x09051800+id and Status1 0x09051840+id decoded, stale after
//     100 ms; SetAll 0x09050C00+id sent on change and every 20 ms;
//     CompressorConfig 0x09050840+id (digital closed loop, or disabled) on
//     change and while the hub reports otherwise.
//   - PDP: Status1-3 0x08041400/40/80+id and Energy 0x08041740+id decoded
//     per PROTOCOLS.md; stale after 100 ms.
//   - SPARK MAX and Flex (spark_max, spark_flex; frc/spark.go,
//     docs/rev-spark.md): firmware 25.x only, read from the version
//     answer (0x02052600+id, asked with a zero-length frame every 250
//     ms until it comes); Status0-2 0x0205B800/40/80+id decoded, stale
//     after 100 ms; the duty-cycle set point 0x02050080+id every Write;
//     the bus's heartbeat 0x02052C80 (bit n enables SPARK n) on change
//     and every 20 ms, all bits clear on Halt. With closed_loop: device,
//     slot 0's gains first, written one at a time (parameter write
//     0x02053800+id, 5 bytes) and each acknowledged (0x02053840+id,
//     result 0) before the next and before it is driven; then the
//     position 0x02050100+id or velocity 0x02050000+id set point instead
//     of the duty cycle.
//
// Devices with health of their own implement hal.Reporter: Talon FX,
// CANcoder and Pigeon 2 (p6Report: their temperature, supply and faults
// read when /diagnostics asks), SPARKs (Status 0 and 1): ERROR for an
// active fault or no status, WARN for a warning (brown-out...) or a
// sticky fault.
//   - PDH (rev_pdh): Status0-4 0x08051800/40/80/C0/900+id decoded (layouts
//     checked against allwpilib's PDHFrames), stale after 100 ms; SetSwitch
//     0x08050840+id (bit 0) on change and every 20 ms while the PDH
//     reports otherwise.
//
// # Buses
//
// CAN devices open the bus their can_bus names through hal.OpenCAN
// (frames) or hal.OpenCANMotor and hal.OpenPigeon (vendor devices); ""
// is the backend's default bus. A Pigeon on a Talon SRX uses the Talon's
// bus.
//
// # CAN traffic, load and inventory
//
// cantraffic.go holds, per YAML device type on the CAN bus, the frames the
// device and the controller exchange (id, length, default period; sources
// in its comments). ExpectedCAN lists a YAML's physical CAN devices (a PCM
// once however many solenoids name it; a Pigeon on a Talon SRX as a rider
// with the Talon's number); EstimateCANLoad and CheckCANLoad give each
// bus's worst-case load for `frcd validate` (a warning at 70 %, an error
// at 90 %); TakeInventory compares the expected devices with the ids a
// hal.CANMonitor heard: present, stale (unheard for 100 ms), missing,
// unexpected, and RequiredMissing for refusing to enable (control's
// Loop.Inhibit).
package devices
