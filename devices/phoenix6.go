package devices

import (
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
)

// The keys and CAN traffic the Phoenix 6 devices (talon_fx, cancoder,
// pigeon2) share. Each one's type is in its own file.

// p6InvertedKey is the Phoenix 6 sensors' inversion (the sensor keys
// are config.SensorRatioKey and config.DistancePerRotationKey).
var p6InvertedKey = config.Key{Name: "inverted", Kind: config.Bool, Default: false, Doc: "Whether the device's positive direction is the joint's negative."}

// The Phoenix 6 devices' CAN traffic. Their frame ids and layouts are
// closed (Phoenix 6 groups its status signals in frames only its
// libraries decode), so each kind's status is one aggregate frame whose
// load at 8 bytes is CTRE's published average utilization of the device on
// CAN 2.0 at its default signal frequencies (v6.docs.ctr-electronics.com,
// "CAN Bus Utilization": Talon FX 4.1 %, CANcoder 1.7 %, Pigeon 2 3.1 %
// of a 1 Mbit/s bus; on CAN FD 1.8, 0.9 and 1.3 %, with most signals at
// 100 Hz); the Talon FX's control request goes every 10 ms (Phoenix 6's
// default, and what hal/ctre sends). The device types are the FRC ones
// (motor controller, encoder, gyro) with CTRE's manufacturer: assumed, and
// checked on hardware with `frcd can scan` (deploy/ctre.md).
var (
	canTalonFX = &CANKind{Name: "CTRE Talon FX (Phoenix 6)", DevType: frc.DevMotorController, Mfr: frc.MfrCTRE, Frames: []CANFrame{
		{"Control request", 0x02, 8, 10 * time.Millisecond, false},
		{"Status (Phoenix 6 signals, aggregate)", 0x50, 8, p6Period(0.041), true},
	}}
	canCANcoder = &CANKind{Name: "CTRE CANcoder", DevType: frc.DevEncoder, Mfr: frc.MfrCTRE, Frames: []CANFrame{
		{"Status (Phoenix 6 signals, aggregate)", 0x50, 8, p6Period(0.017), true},
	}}
	canPigeon2 = &CANKind{Name: "CTRE Pigeon 2", DevType: frc.DevGyro, Mfr: frc.MfrCTRE, Frames: []CANFrame{
		{"Status (Phoenix 6 signals, aggregate)", 0x50, 8, p6Period(0.031), true},
	}}
)

// p6Period is the period of an 8-byte frame (worst case 160 bit times)
// that loads a 1 Mbit/s bus by share.
func p6Period(share float64) time.Duration {
	const bits = 160.0
	return time.Duration(bits / (share * 1e6) * float64(time.Second))
}
