package ctre

// Phoenix 6 signal and config numbers (SPNs), from CTRE's published
// ctre/phoenix6/spns/SpnValue.hpp (Phoenix 6 v23-era numbering; CTRE
// renumbers between seasons: deploy/ctre.md's checklist reads each one
// back on hardware before a season's library is trusted).
const (
	spnAllFaults       = 835
	spnP2QuatW         = 970 // W, X, Y, Z follow
	spnP2AngVelX       = 985 // deg/s; Y, Z follow
	spnP2AccelX        = 988 // g; Y, Z follow
	spnFXStatorCurrent = 1365
	spnFXSupplyCurrent = 1366
	spnFXSupplyVoltage = 1367
	spnFXDeviceTemp    = 1368
	spnFXRotorVelocity = 1371
	spnFXRotorPosition = 1372
	spnSlot0KP         = 1407 // kP, kI, kD, kV, kS; then slot 1, slot 2
	spnCCVelocity      = 1468
	spnCCPosition      = 1469
	spnCCAbsPosition   = 1470
	gainsPerSlot       = 5
	numSlots           = 3
)

// The model names c_ctre_phoenix6_encode_device takes.
const (
	modelTalonFX  = "talon fx"
	modelCANcoder = "cancoder"
	modelPigeon2  = "pigeon 2"
)

// The base arbitration ids of Phoenix 5's motor controllers (device
// number added): Talon SRX 0x02040000, Victor SPX 0x01040000.
const (
	arbTalonSRX  = 0x02040000
	arbVictorSPX = 0x01040000
)
