package ctre

// Phoenix 6 signal and config numbers (SPNs) for the Phoenix 6 release
// whose C signatures phoenix.h declares (v26): checked against CTRE's
// published phoenix6 26.1.0 Python package (phoenix6/spns/spn_value.py,
// the SpnValue enum its device classes read signals and apply configs
// by). CTRE renumbers the signal SPNs between seasons (25.0's were
// 200-250 higher: PRO_SUPPLY_AND_TEMP_STATOR_CURRENT 2029 there, 1779
// here), so a library of another season reads other signals:
// deploy/ctre.md says which season to deploy and checks each signal on
// hardware. The fault SPNs (10001 and up) are the same in 25.0 and 26.1.
const (
	spnAllFaults       = 844 // ALL_FAULTS: a bit field (the bits' meanings are not published)
	spnAllStickyFaults = 845 // ALL_STICKY_FAULTS

	spnP2QuatW       = 952 // PIGEON2_QUAT_W; X, Y, Z follow
	spnP2Temperature = 959 // PIGEON2_TEMPERATURE, °C
	spnP2AccelX      = 970 // PIGEON2_ACCELERATION_X, g; Y, Z follow
	spnP2SupplyV     = 973 // PIGEON2_SUPPLY_VOLTAGE
	spnP2AngVelX     = 976 // PIGEON2_ANGULAR_VELOCITY_X (device frame), deg/s; Y, Z follow

	spnFXMotorVoltage  = 1772 // PRO_MOTOR_OUTPUT_MOTOR_VOLTAGE, V applied
	spnFXStatorCurrent = 1779 // PRO_SUPPLY_AND_TEMP_STATOR_CURRENT
	spnFXSupplyCurrent = 1780 // PRO_SUPPLY_AND_TEMP_SUPPLY_CURRENT
	spnFXSupplyVoltage = 1781 // PRO_SUPPLY_AND_TEMP_SUPPLY_VOLTAGE
	spnFXDeviceTemp    = 1782 // PRO_SUPPLY_AND_TEMP_DEVICE_TEMP, °C
	spnFXProcTemp      = 1783 // PRO_SUPPLY_AND_TEMP_PROCESSOR_TEMP, °C
	spnFXRotorVelocity = 1785 // PRO_ROTOR_POS_AND_VEL_VELOCITY, rotations/s
	spnFXRotorPosition = 1786 // PRO_ROTOR_POS_AND_VEL_POSITION, rotations

	spnSlot0KP   = 1877 // SLOT0_K_P; then K_I, K_D, K_S, K_V (1878-1881)
	spnSlotKI    = 1    // offsets from a slot's K_P
	spnSlotKD    = 2
	spnSlotKS    = 3
	spnSlotKV    = 4
	slotStride   = 8 // SLOT1_K_P is 1885, SLOT2_K_P 1893
	gainsPerSlot = 5
	numSlots     = 3

	// The Talon FX's neutral mode (MotorOutputConfigs.NeutralMode, an
	// int: NeutralModeValue COAST 0, BRAKE 1) and current limits
	// (CurrentLimitsConfigs: the limits and the lower time doubles, A and
	// s; the enables bools), as their config groups serialize them.
	spnCfgNeutralMode       = 1904 // CONFIG_NEUTRAL_MODE
	spnCfgStatorLimit       = 1906 // CONFIG_STATOR_CURRENT_LIMIT
	spnCfgStatorLimitEnable = 1907 // CONFIG_STATOR_CURR_LIMIT_EN
	spnCfgSupplyLimit       = 1908 // CONFIG_SUPPLY_CURRENT_LIMIT
	spnCfgSupplyLimitEnable = 1909 // CONFIG_SUPPLY_CURR_LIMIT_EN
	spnCfgSupplyLowerLimit  = 1992 // CONFIG_SUPPLY_CURRENT_LOWER_LIMIT
	spnCfgSupplyLowerTime   = 1993 // CONFIG_SUPPLY_CURRENT_LOWER_TIME

	spnCCVelocity    = 1952 // CANCODER_VELOCITY, rotations/s
	spnCCPosition    = 1953 // CANCODER_POSITION, rotations
	spnCCAbsPosition = 1954 // CANCODER_ABS_POSITION, rotations
	spnCCSupplyV     = 1958 // CAN_CODER_SUPPLY_VOLTAGE

	// The named faults frcd reads (each a signal, 1 while active).
	spnFaultHardware         = 10001
	spnFaultProcTemp         = 10004
	spnFaultDeviceTemp       = 10007
	spnFaultUndervoltage     = 10010
	spnFaultBootDuringEnable = 10013
	spnFaultP2BootupAccel    = 10019
	spnFaultP2BootupGyros    = 10022
	spnFaultP2BootIntoMotion = 10028
	spnFaultP2SaturatedGyros = 10043
	spnFaultCCBadMagnet      = 10046
	spnFaultFXBridgeBrownout = 10049
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
