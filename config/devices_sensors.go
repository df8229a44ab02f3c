package config

import "fmt"

// The spec's "Supported WPILib & Vendor sensors".

// jointKey is the spec's `joint` key of the standard joint sensors: it is
// optional now, since the URDF says which joint a sensor measures, and is
// accepted only when it agrees with the URDF.
var jointKey = Key{Name: "joint", Kind: String,
	Doc: "The URDF joint this sensor measures. Optional: the URDF <sensor> placement decides; when given it must agree."}

var analogInput = &Type{
	Name: "analog_input", Class: "AnalogInput", Group: "sensor",
	Summary: "An analog sensor (potentiometer, ultrasonic, pressure) on a roboRIO analog input.",
	Doc: "State: a RateState (position and rate) with an AnalogState handle on the position. " +
		"Linked to a joint, it sets the JointState's position (volts / 5 V × scale + offset) and velocity; effort is not set.",
	Place: JointSensor, Provides: Position | Velocity,
	Keys: []Key{
		{Name: "ain_channel", Kind: Int, Required: true, Resource: AnalogIn, Doc: "The analog input channel of the sensor (4-7 are on the MXP)."},
		{Name: "scale", Kind: Float, Required: true, NonZero: true, Unit: "rad or m", Doc: "The full-scale value of the sensor: the reading at 5 V, less the offset."},
		{Name: "offset", Kind: Float, Required: true, Unit: "rad or m", Doc: "The offset value of the sensor: the reading at 0 V."},
		{Name: "average_bits", Kind: Int, Default: 7, HasRange: true, Min: 0, Max: 7, Doc: "The FPGA averages 2^average_bits samples per reading."},
		{Name: "oversample_bits", Kind: Int, Default: 0, HasRange: true, Min: 0, Max: 7, Doc: "The FPGA oversamples 2^oversample_bits samples per reading."},
		{Name: "accumulator", Kind: Bool, Default: false, Doc: "Integrate the input in the FPGA's accumulator (analog channels 0 and 1 only)."},
		jointKey,
	},
	Check: func(d *Device, c *Checker) {
		if d.Bool("accumulator") && d.Int("ain_channel") > 1 {
			c.Errorf(d.ValuePos("accumulator"), "%s: the roboRIO has accumulators on analog inputs 0 and 1 only, not on %d", d, d.Int("ain_channel"))
		} else if d.Bool("accumulator") {
			c.Warnf(d.ValuePos("accumulator"), "%s: frcd's HAL has no accumulator yet, so `frcd run` refuses accumulator: true", d)
		}
	},
}

var digitalInput = &Type{
	Name: "digital_input", Class: "DigitalInput", Group: "sensor",
	Summary: "A switch, limit switch or beam break on a roboRIO DIO channel.",
	Doc: "State: a BinaryState. Linked to a joint, it sets the JointState's position to the joint's upper limit when active " +
		"and the lower limit when not; velocity and effort are 0. With `limit`, it is a limit switch: when active the joint is " +
		"at that limit and motion past it is blocked, and when inactive it leaves the position to the joint's other sensors.",
	Place: JointSensor, Provides: Position | Velocity | Effort,
	Keys: []Key{
		{Name: "dio_channel", Kind: Int, Required: true, Resource: DIO, Doc: "The DIO channel of the sensor (10-25 are on the MXP)."},
		{Name: "inverted", Kind: Bool, Default: false, Doc: "Whether the input signal should be inverted."},
		{Name: "limit", Kind: String, Enum: []string{"lower", "upper"}, Doc: "Marks a limit switch at that end of its joint."},
		jointKey,
	},
}

var encoder = &Type{
	Name: "encoder", Class: "Encoder", Group: "sensor",
	Summary: "A quadrature encoder on two roboRIO DIO channels.",
	Doc:     "State: a RateState (position and rate) with an AnalogState handle on the position. Linked to a joint, it sets the JointState's position and velocity; effort is not set.",
	Place:   JointSensor, Provides: Position | Velocity,
	Keys: []Key{
		{Name: "ch_a", Kind: Int, Required: true, Resource: DIO, Doc: "The DIO channel of signal A."},
		{Name: "ch_b", Kind: Int, Required: true, Resource: DIO, Doc: "The DIO channel of signal B."},
		{Name: "dist_per_pulse", Kind: Float, Required: true, NonZero: true, Unit: "rad or m", Doc: "The distance travelled on each tick of the encoder."},
		{Name: "inverted", Kind: Bool, Default: false, Doc: "Whether the direction is inverted."},
		{Name: "encoding", Kind: Int, Default: 4, Enum: []string{"1", "2", "4"}, Doc: "The sampling mode: 1x, 2x or 4x decoding of the quadrature edges."},
		jointKey,
	},
	Check: func(d *Device, c *Checker) {
		if d.Has("ch_a") && d.Has("ch_b") && d.Int("ch_a") == d.Int("ch_b") {
			c.Errorf(d.ValuePos("ch_b"), "%s: ch_a and ch_b are both DIO %d; an encoder needs two channels", d, d.Int("ch_a"))
		}
	},
}

var frameIDKey = Key{Name: "frame_id", Kind: String, Required: true, Doc: "The tf2 frame of the sensor: a URDF link."}

var pigeonIMU = &Type{
	Name: "pigeon_imu", Class: "PigeonIMU", Group: "sensor",
	Summary: "A CTRE Pigeon IMU, on the CAN bus or on a Talon SRX's gadgeteer port.",
	Doc:     "State: an IMU handle (orientation, angular velocity, linear acceleration). Exactly one of `id` or `talon` must be given.",
	Place:   LinkSensor,
	Example: "{name: pigeon, type: pigeon_imu, frame_id: base_link, talon: left_front_wheel_joint}",
	Schema:  map[string]any{"oneOf": []any{map[string]any{"required": []string{"id"}}, map[string]any{"required": []string{"talon"}}}},
	Keys: []Key{
		frameIDKey,
		{Name: "id", Kind: Int, Resource: CANGyro, Scope: "can_bus", Doc: "The CAN id of the Pigeon, when it is on the CAN bus."},
		{Name: "talon", Kind: String, Ref: []string{"talon_srx"}, Doc: "The name of the Talon SRX the Pigeon is plugged into."},
		canBusKey, requiredKey,
	},
	Check: func(d *Device, c *Checker) {
		switch {
		case d.Has("id") && d.Has("talon"):
			c.Errorf(d.KeyPos("talon"), "%s: give either id (on CAN) or talon (on a Talon SRX), not both", d)
		case !d.Has("id") && !d.Has("talon"):
			c.Errorf(d.Pos, "%s: needs id (its CAN id) or talon (the Talon SRX it is plugged into)", d)
		}
	},
}

// navX ports per interface, as WPILib numbers them: SPI::Port kOnboardCS0-3
// and kMXP = 4; I2C::Port kOnboard = 0, kMXP = 1; SerialPort::Port kOnboard
// = 0, kMXP = 1, kUSB1 = 2, kUSB2 = 3.
var navxPorts = map[string]int{"spi": 4, "i2c": 1, "serial": 3}

var navx = &Type{
	Name: "navx", Class: "AHRS", Group: "sensor",
	Summary: "A Kauai Labs navX-MXP IMU on SPI, I2C or serial, on a roboRIO port or a Linux coprocessor's bus.",
	Doc: "State: an IMU handle (orientation, angular velocity, linear acceleration). On a roboRIO give `id`, the WPILib port; " +
		"on a Linux coprocessor give `bus` (and `chip_select` on SPI): the navX is then on /dev/spidevBUS.CHIP_SELECT " +
		"(SPI mode 3, with the navX CRC) or on /dev/i2c-BUS at address 0x32.",
	Place:   LinkSensor,
	Example: "{name: imu, type: navx, frame_id: base_link, interface: spi, id: 0}",
	Schema:  map[string]any{"oneOf": []any{map[string]any{"required": []string{"id"}}, map[string]any{"required": []string{"bus"}}}},
	Keys: []Key{
		frameIDKey,
		{Name: "interface", Kind: String, Required: true, Enum: []string{"spi", "serial", "i2c"}, Doc: "The interface the navX is connected by."},
		{Name: "id", Kind: Int, HasRange: true, Min: 0, Max: 4, Doc: "On a roboRIO, the port on that interface: SPI 0-3 onboard chip selects, 4 the MXP; I2C 0 onboard, 1 MXP; serial 0 onboard, 1 MXP, 2-3 USB. Give id or bus."},
		{Name: "bus", Kind: Int, HasRange: true, Min: 0, Max: 255, Doc: "On a Linux coprocessor, the bus number: SPI /dev/spidevBUS.CS, I2C /dev/i2c-BUS. Give id or bus."},
		{Name: "chip_select", Kind: Int, Default: 0, HasRange: true, Min: 0, Max: 255, Doc: "On a Linux coprocessor's SPI bus, the chip select (the CS of /dev/spidevBUS.CS); with bus only."},
	},
	Check: checkNavX,
}

// checkNavX checks the navX's port: a roboRIO id or a Linux bus, not both,
// and claims it.
func checkNavX(d *Device, c *Checker) {
	iface := d.Str("interface")
	max, ok := navxPorts[iface]
	if !ok {
		return
	}
	switch {
	case d.Has("id") && d.Has("bus"):
		c.Errorf(d.KeyPos("bus"), "%s: give id (a roboRIO %s port) or bus (a Linux %s bus on a coprocessor), not both", d, iface, iface)
		return
	case !d.Has("id") && !d.Has("bus"):
		c.Errorf(d.Pos, "%s: needs id (its roboRIO %s port, 0-%d) or bus (its Linux %s bus on a coprocessor)", d, iface, max, iface)
		return
	case d.Has("chip_select") && (!d.Has("bus") || iface != "spi"):
		c.Errorf(d.KeyPos("chip_select"), "%s: chip_select is for a navX on a Linux SPI bus (interface: spi with bus)", d)
		return
	}
	if d.Has("bus") {
		switch iface {
		case "serial":
			c.Errorf(d.KeyPos("bus"), "%s: a navX on serial has no Linux bus: connect it by spi or i2c", d)
		case "spi":
			c.Claim(d, NavXPort, fmt.Sprintf("/dev/spidev%d.%d", d.Int("bus"), d.Int("chip_select")), 0, d.ValuePos("bus"))
		default:
			c.Claim(d, NavXPort, fmt.Sprintf("/dev/i2c-%d", d.Int("bus")), 0, d.ValuePos("bus"))
		}
		return
	}
	if id := d.Int("id"); id > max {
		c.Errorf(d.ValuePos("id"), "%s: %s port %d is out of range 0-%d", d, iface, id, max)
		return
	}
	c.Claim(d, NavXPort, iface, d.Int("id"), d.ValuePos("id"))
	if iface == "serial" {
		c.Warnf(d.ValuePos("interface"), "%s: frcd's HAL has no serial ports yet, so `frcd run` refuses a navX on serial: connect it by spi or i2c", d)
	}
}

var sensorTypes = []*Type{analogInput, digitalInput, encoder, pigeonIMU, navx}
