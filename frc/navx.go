package frc

// NavXCRC is the navX-MXP SPI protocol's CRC-7 (polynomial 0x91, bits
// shifted out least significant first, starting from 0): the device driver
// checks and the sim's firmware model signs with the same one.
func NavXCRC(b []byte) byte {
	var crc byte
	for _, c := range b {
		crc ^= c
		for range 8 {
			if crc&1 != 0 {
				crc ^= 0x91
			}
			crc >>= 1
		}
	}
	return crc
}

// The navX-MXP's register map (PROTOCOLS.md "navX-MXP"; kauailabs/navxmxp
// IMURegisters.h), which the driver reads and the sim's firmware model
// serves. Multi-byte registers are little-endian.
const (
	NavXRegWhoAmI         = 0x00 // u8, NavXModel
	NavXRegUpdateRate     = 0x04 // u8, Hz, read-write, 4-200
	NavXRegAccelFSR       = 0x05 // u8, accelerometer full-scale range, g
	NavXRegGyroFSR        = 0x06 // u16, gyro full-scale range, °/s
	NavXRegOpStatus       = 0x08 // u8, NavXOpNormal when running
	NavXRegCalStatus      = 0x09 // u8
	NavXRegSelfTest       = 0x0A // u8
	NavXRegCapability     = 0x0B // u16
	NavXRegSensorStatus   = 0x10 // u16, NavXStatus*
	NavXRegTimestamp      = 0x12 // u32, ms
	NavXRegYaw            = 0x16 // s16, 0.01°, -180 to 180, clockwise positive
	NavXRegRoll           = 0x18 // s16, 0.01°
	NavXRegPitch          = 0x1A // s16, 0.01°
	NavXRegHeading        = 0x1C // u16, 0.01°, 0 to 360, tilt-compensated compass
	NavXRegFusedHeading   = 0x1E // u16, 0.01°, 0 to 360
	NavXRegLinearAccel    = 0x24 // 3 × s16, 0.001 g, world frame, gravity removed
	NavXRegQuat           = 0x2A // 4 × s16 W, X, Y, Z, ×32768
	NavXRegTemp           = 0x32 // s16, 0.01 °C
	NavXRegGyro           = 0x34 // 3 × s16, raw: °/s × 32768 / gyro FSR
	NavXRegAccel          = 0x3A // 3 × s16, raw: g × 32768 / accel FSR, gravity included
	NavXRegYawOffset      = 0x4C // s16, 0.01°, the yaw at the last board-level reset
	NavXRegIntegrationCtl = 0x56 // u8, write-only
	NavXRegLast           = 0x6F // the last register
	NavXRegCount          = NavXRegLast + 1
)

// Register values.
const (
	NavXModel          = 0x32 // WHOAMI of a navX-MXP
	NavXDefaultRateHz  = 60   // UPDATE_RATE_HZ at power-up
	NavXMinRateHz      = 4    // the firmware clips UPDATE_RATE_HZ to 4-200
	NavXMaxRateHz      = 200  //
	NavXAccelFSRg      = 2    // the firmware's defaults (AHRS.cpp)
	NavXGyroFSRdps     = 2000 // °/s
	NavXOpNormal       = 0x04 // OP_STATUS: running
	NavXCalComplete    = 0x02 // CAL_STATUS: IMU calibration complete
	NavXSelfTestPassed = 0x87 // SELFTEST_STATUS: complete; gyro, accel, mag passed
	NavXCapYawReset    = 0x0080
	NavXCapAHRSPosTS   = 0x0100
	NavXCapOmnimount   = 0x0004
	NavXStatusMoving   = 0x01 // SENSOR_STATUS bits
	NavXStatusYawOK    = 0x02 // yaw stable: not rotating
	NavXResetYaw       = 0x80 // INTEGRATION_CTL: zero the yaw
	NavXI2CAddr        = 0x32
	NavXStandardG      = 9.80665
)
