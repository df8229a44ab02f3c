package frc

import "strconv"

// FRC CAN identifiers (PROTOCOLS.md "FRC CAN identifiers"): a 29-bit
// extended id of device type (bits 28-24), manufacturer (23-16), API class
// (15-10), API index (9-6) and device number (5-0). The API here is the
// 10 bits of class and index together, as frame tables write it (0x50 is
// class 1, index 4).

// FRC device types.
const (
	DevBroadcast         = 0
	DevRobotController   = 1
	DevMotorController   = 2
	DevRelay             = 3
	DevGyro              = 4
	DevAccelerometer     = 5
	DevDistance          = 6
	DevEncoder           = 7
	DevPowerDistribution = 8
	DevPneumatics        = 9
	DevMisc              = 10
	DevIOBreakout        = 11
	DevServo             = 12
	DevColorSensor       = 13
	DevFirmwareUpdate    = 31
)

// FRC manufacturers.
const (
	MfrBroadcast = 0
	MfrNI        = 1
	MfrCTRE      = 4
	MfrREV       = 5
	MfrTeamUse   = 8
	MfrKauaiLabs = 9
)

// FRCID builds a 29-bit FRC CAN id from its device type, manufacturer,
// 10-bit API (class and index) and 6-bit device number.
func FRCID(devType, mfr, api, device int) uint32 {
	return uint32(devType&0x1F)<<24 | uint32(mfr&0xFF)<<16 | uint32(api&0x3FF)<<6 | uint32(device&0x3F)
}

// SplitFRCID splits a 29-bit FRC CAN id into its fields (FRCID's inverse).
func SplitFRCID(id uint32) (devType, mfr, api, device int) {
	return int(id>>24) & 0x1F, int(id>>16) & 0xFF, int(id>>6) & 0x3FF, int(id) & 0x3F
}

var devTypeNames = map[int]string{
	DevBroadcast: "broadcast", DevRobotController: "robot controller", DevMotorController: "motor controller",
	DevRelay: "relay", DevGyro: "gyro", DevAccelerometer: "accelerometer", DevDistance: "distance sensor",
	DevEncoder: "encoder", DevPowerDistribution: "power distribution", DevPneumatics: "pneumatics",
	DevMisc: "miscellaneous", DevIOBreakout: "IO breakout", DevServo: "servo controller",
	DevColorSensor: "colour sensor", DevFirmwareUpdate: "firmware update",
}

var mfrNames = map[int]string{
	MfrBroadcast: "broadcast", MfrNI: "NI", 2: "Luminary Micro", 3: "DEKA", MfrCTRE: "CTRE", MfrREV: "REV",
	6: "Grapple", 7: "MindSensors", MfrTeamUse: "team use", MfrKauaiLabs: "Kauai Labs", 10: "Copperforge",
	11: "Playing With Fusion", 12: "Studica", 13: "The Thrifty Bot", 14: "Redux Robotics",
	15: "AndyMark", 16: "Vivid Hosting",
}

// DeviceTypeName names an FRC device type ("power distribution"), or
// gives its number.
func DeviceTypeName(t int) string {
	if s, ok := devTypeNames[t]; ok {
		return s
	}
	return "device type " + strconv.Itoa(t)
}

// ManufacturerName names an FRC manufacturer ("CTRE"), or gives its
// number.
func ManufacturerName(m int) string {
	if s, ok := mfrNames[m]; ok {
		return s
	}
	return "manufacturer " + strconv.Itoa(m)
}
