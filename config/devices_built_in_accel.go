package config

// builtInAccel is the roboRIO's built-in accelerometer (frc_control's
// built_in_accel).
var builtInAccel = &Type{
	Name: "built_in_accel", Class: "BuiltInAccelerometer", Group: "special",
	Summary: "The roboRIO's built-in 3-axis accelerometer.",
	Doc: "State: an IMU handle with the linear acceleration only, in m/s² along the roboRIO's x, y, z, gravity included " +
		"(9.8 along z lying flat); its orientation and angular velocity are marked not provided (covariance -1, as " +
		"sensor_msgs/Imu has it). frame_id names the frame it is read in: the link the roboRIO is mounted on. " +
		"A roboRIO has one, so a file has at most one; a Linux coprocessor has none.",
	Place:   YAMLOnly,
	Example: "{name: rio_accel, type: built_in_accel, frame_id: base_link}",
	Keys: []Key{
		{Name: "frame_id", Kind: String, Required: true, Doc: "The tf2 frame of the accelerometer: the URDF link the roboRIO is mounted on."},
		{Name: "range", Kind: Int, Default: 8, HasRange: true, Min: 2, Max: 8, Unit: "g", Doc: "The measuring range: 2, 4 or 8 g (WPILib's BuiltInAccelerometer.Range)."},
	},
	Check: func(d *Device, c *Checker) {
		if r := d.Int("range"); r != 2 && r != 4 && r != 8 {
			c.Errorf(d.ValuePos("range"), "%s: range %d g: the accelerometer measures 2, 4 or 8 g", d, r)
		}
		c.Once(d, "built-in accelerometer", d.TypePos)
	},
}
