package sim

// IMU is the motion an IMU on the robot feels, in its own frame: what the
// simulated navX and Pigeon report. With a drivetrain, the base's motion
// drives the IMUs fixed to it; Sim.SetIMU sets it.
type IMU struct {
	// Orientation is a unit quaternion w, x, y, z. The zero value is read
	// as the identity.
	Orientation [4]float64
	// AngularVelocity is in rad/s about x, y, z.
	AngularVelocity [3]float64
	// LinearAcceleration is in m/s² along x, y, z, gravity excluded (the
	// navX's "world linear acceleration").
	LinearAcceleration [3]float64
}
