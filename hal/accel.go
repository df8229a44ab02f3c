package hal

// Gravity is one g, m/s²: the unit the built-in accelerometer reads in.
const Gravity = 9.80665

// Accelerometer is the roboRIO's built-in 3-axis accelerometer, opened.
type Accelerometer interface {
	// Read returns the acceleration along x, y, z in g, gravity included
	// (1 along z at rest, flat).
	Read() (x, y, z float64, err error)
}

// BuiltInAccelerometer is implemented by backends with a built-in
// accelerometer: the roboRIO's, and the simulated one.
type BuiltInAccelerometer interface {
	// OpenAccelerometer opens it with a range of 2, 4 or 8 g (WPILib's
	// BuiltInAccelerometer.Range); it can be opened once.
	OpenAccelerometer(rangeG int) (Accelerometer, error)
}
