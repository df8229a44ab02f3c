package frc

// The CTRE CAN motor controllers without a public wire protocol, by the
// model name hal.CANMotors opens them by (CTRE's class names).
const (
	TalonSRX  = "TalonSRX"
	VictorSPX = "VictorSPX"
)

// TalonFX is the model name of a Talon FX where the sim emulates it as a
// CAN motor controller (its frames' device type and number are a Talon's).
const TalonFX = "TalonFX"
