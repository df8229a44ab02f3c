package devices

import (
	"fmt"
	"math"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
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

// p6Report is a Phoenix 6 device's /diagnostics entry from its health
// (phoenix6.Healthy, read by the diagnostics goroutine) and what the loop
// last measured (extra values): an error while its health cannot be read
// (unplugged, say) or a severe fault is active (hardware, over
// temperature, a CANcoder's magnet, a Pigeon 2's sensors at boot); a
// warning for the other faults (undervoltage or brown-out, a reboot while
// enabled, a saturated gyro), for sticky faults and for fault bits frcd
// does not name.
func p6Report(name string, h phoenix6.Health, err error, extra ...[2]string) hal.Report {
	r := hal.Report{Name: name}
	if err != nil {
		r.Message, r.Error = "no health signals: "+err.Error(), true
		return r
	}
	if !math.IsNaN(h.TempC) {
		r.Values = append(r.Values, [2]string{"temperature (°C)", fmt.Sprintf("%.0f", h.TempC)})
	}
	r.Values = append(r.Values, [2]string{"supply (V)", fmt.Sprintf("%.2f", h.SupplyV)})
	r.Values = append(r.Values, extra...)
	r.Values = append(r.Values, [2]string{"faults", fmt.Sprintf("0x%x", h.Faults)}, [2]string{"sticky faults", fmt.Sprintf("0x%x", h.StickyFaults)})
	switch {
	case h.Active&phoenix6.Severe != 0:
		r.Error, r.Message = true, "fault: "+h.Active.Names()
	case h.Active != 0:
		r.Warn, r.Message = true, "fault: "+h.Active.Names()
	case h.Faults != 0:
		r.Warn, r.Message = true, fmt.Sprintf("faults 0x%x", h.Faults)
	case h.StickyFaults != 0:
		r.Warn, r.Message = true, fmt.Sprintf("sticky faults 0x%x (cleared in Tuner X)", h.StickyFaults)
	default:
		r.Message = "ok"
	}
	return r
}
