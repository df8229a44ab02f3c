package frc

// The CTRE CAN motor controllers without a public wire protocol, by the
// model name hal.CANMotors opens them by (CTRE's class names).
const (
	TalonSRX  = "TalonSRX"
	VictorSPX = "VictorSPX"
)
