package frc

import (
	"encoding/binary"
	"fmt"
	"math"
)

// REV SPARK MAX and SPARK Flex on the CAN bus, firmware 25 and 26 (the
// layouts docs/rev-spark.md records with their sources: REV's generated
// frame specifications, can-specs sparkFramesSpec 2.0.5 and 2.1.0, which
// agree on every frame here but the version answer). Every frame is FRC
// device type motor controller, manufacturer REV, the SPARK's CAN id as
// device number (the heartbeat: device 0). The APIs are class << 4 |
// index; sparkframes_test.go checks each against the specification's
// tables (testdata/spark-frames-2.0.5.txt, spark-frames-2.1.0.txt).
const (
	SparkAPIVelocitySetpoint    = 0<<4 | 0  // float32 RPM, PID slot
	SparkAPIDutyCycle           = 0<<4 | 2  // float32 duty, -1 to 1
	SparkAPIPositionSetpoint    = 0<<4 | 4  // float32 rotations, PID slot
	SparkAPISetStatusesEnabled  = 1<<4 | 0  // 4 bytes: mask (uint16 LE), enable bits (uint16 LE), bit n Status n
	SparkAPISetStatusesResponse = 1<<4 | 1  // 5 bytes: result, the mask given, every status's enable bit
	SparkAPIVersion             = 9<<4 | 8  // a remote (RTR) frame asks; the answer: SparkFirmware's 8 bytes
	SparkAPIHeartbeat           = 11<<4 | 2 // device 0; uint64 LE: bit n enables the SPARK with CAN id n
	SparkAPIParameterWrite      = 14<<4 | 0 // 5 bytes: parameter id, value (uint32 LE, a float32's bits for a float)
	SparkAPIParameterAck        = 14<<4 | 1 // 7 bytes: parameter id, type, value (uint32 LE), result code
	SparkAPIStatus0             = 46<<4 | 0 // applied output, bus voltage, current, motor temperature
	SparkAPIStatus1             = 46<<4 | 1 // faults and warnings, active and sticky
	SparkAPIStatus2             = 46<<4 | 2 // primary encoder velocity (RPM) and position (rotations)
	SparkVersionLen             = 8         // the firmware version answer's length, which its request asks for
	SparkSetStatusesEnabledLen  = 4
	SparkSetStatusesResponseLen = 5
)

// The status frames' defaults on a SPARK nothing has configured (REV's
// specification: defaultPeriodMs and enabledByDefault of STATUS_0-2):
// Status 0 every 10 ms and Status 1 every 250 ms, both enabled; Status 2
// (the encoder) every 20 ms once enabled, but not enabled: a SPARK sends
// it only after a Set Statuses Enabled frame turns it on.
var (
	SparkDefaultPeriodMs   = [3]uint32{10, 250, 20}
	SparkEnabledByDefault  = [3]bool{true, true, false}
	SparkParamStatusPeriod = [3]uint8{158, 159, 160} // kStatus0Period-kStatus2Period: uint32, ms
)

// SparkID is the arbitration id of a SPARK frame of that API for CAN id n.
func SparkID(api, n int) uint32 { return FRCID(DevMotorController, MfrREV, api, n) }

// SparkFirmware is a firmware version as a SPARK reports it in the
// answer to the version request (REV's GET_FIRMWARE_VERSION), whose
// layout depends on the major version in byte 0 (DecodeSparkVersion):
// byte 1 is the minor version and byte 5 the hardware revision in both.
type SparkFirmware struct {
	Major, Minor uint8
	Fix          uint16 // the fix (firmware 25) or build (the others) number
	Prerelease   uint16 // firmware 25 only: 0 for a release
	Debug        uint8  // the others: non-zero for a debug build
	HWRev        uint8  // the hardware revision
}

func (v SparkFirmware) String() string {
	s := fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Fix)
	if v.Prerelease != 0 {
		s += fmt.Sprintf(" (prerelease %d)", v.Prerelease)
	}
	if v.Debug != 0 {
		s += " (debug build)"
	}
	return s
}

// SparkFirmwareMajors are the firmware major versions whose frames frcd
// speaks, each checked frame by frame against REV's specification of
// that season (docs/rev-spark.md, sparkframes_test.go): 25 (specification
// 2.0.5) and 26 (2.1.0: the frames frcd uses are 2.0.5's, the version
// answer's layout aside). Firmware before 25 uses another layout; a major
// after 26 nobody has checked.
var SparkFirmwareMajors = [...]uint8{25, 26}

// SparkFirmwareNewest is the newest major version in SparkFirmwareMajors,
// the one to update a SPARK to.
const SparkFirmwareNewest = 26

// Supported reports whether frcd drives a SPARK running this firmware,
// and if not, why, naming the firmware and what is supported.
func (v SparkFirmware) Supported() error {
	for _, m := range SparkFirmwareMajors {
		if v.Major == m {
			return nil
		}
	}
	if v.Major < SparkFirmwareMajors[0] {
		return fmt.Errorf("firmware %s uses the frame layout before firmware 25, which frcd does not drive: update it to %d.x with the REV Hardware Client", v, SparkFirmwareNewest)
	}
	return fmt.Errorf("firmware %s is newer than the firmware frcd's frames were checked against (25.x and 26.x, REV's CAN specifications 2.0.5 and 2.1.0): frcd refuses to drive it rather than guess its frames", v)
}

// sparkLayout25 reports whether a version answer of that major version
// has firmware 25's layout: byte 2 the prerelease number's high byte,
// byte 3 the fix, byte 4 the prerelease number's low byte (REV's
// specification 2.0.5). Every other major version, before 25 and from 26
// on, answers in the layout REV's specification 2.1.0 gives: bytes 2-3
// the build number, big endian, byte 4 non-zero for a debug build. (On a
// release, prerelease 0, the two agree: fix = build.)
func sparkLayout25(major uint8) bool { return major == 25 }

// DecodeSparkVersion decodes a version answer in its major version's
// layout (SparkFirmware); ok is false for a frame shorter than 4 bytes.
// Bytes 4 and 5 read as 0 when absent.
func DecodeSparkVersion(d []byte) (v SparkFirmware, ok bool) {
	if len(d) < 4 {
		return v, false
	}
	var b [6]byte
	copy(b[:], d)
	v = SparkFirmware{Major: b[0], Minor: b[1], HWRev: b[5]}
	if sparkLayout25(v.Major) {
		v.Fix, v.Prerelease = uint16(b[3]), uint16(b[2])<<8|uint16(b[4])
	} else {
		v.Fix, v.Debug = binary.BigEndian.Uint16(b[2:4]), b[4]
	}
	return v, true
}

// EncodeSparkVersion is DecodeSparkVersion's inverse (8 bytes); in
// firmware 25's layout the fix is its low byte.
func EncodeSparkVersion(v SparkFirmware) (d [8]byte, n uint8) {
	d[0], d[1], d[5] = v.Major, v.Minor, v.HWRev
	if sparkLayout25(v.Major) {
		d[2], d[3], d[4] = byte(v.Prerelease>>8), byte(v.Fix), byte(v.Prerelease)
	} else {
		binary.BigEndian.PutUint16(d[2:4], v.Fix)
		d[4] = v.Debug
	}
	return d, SparkVersionLen
}

// EncodeSparkSetStatusesEnabled builds a Set Statuses Enabled frame:
// the statuses whose bit is set in mask (bit n: Status n) are enabled
// where enabled has the bit, disabled where it has not; the others are
// left as they are (4 bytes).
func EncodeSparkSetStatusesEnabled(mask, enabled uint16) (d [8]byte, n uint8) {
	binary.LittleEndian.PutUint16(d[0:2], mask)
	binary.LittleEndian.PutUint16(d[2:4], enabled)
	return d, SparkSetStatusesEnabledLen
}

// DecodeSparkSetStatusesEnabled is EncodeSparkSetStatusesEnabled's
// inverse; ok is false for a frame shorter than 4 bytes.
func DecodeSparkSetStatusesEnabled(d []byte) (mask, enabled uint16, ok bool) {
	if len(d) < SparkSetStatusesEnabledLen {
		return 0, 0, false
	}
	return binary.LittleEndian.Uint16(d[0:2]), binary.LittleEndian.Uint16(d[2:4]), true
}

// SparkStatusesResponse is the answer to Set Statuses Enabled: its
// result (0 success, 1 a status that does not exist or is unavailable),
// the mask it was given, and every status's enable bit now.
type SparkStatusesResponse struct {
	Result        uint8
	Mask, Enabled uint16
}

// DecodeSparkStatusesResponse decodes the answer (byte 0 the result,
// bytes 1-2 the mask, bytes 3-4 the enable bits, little endian); ok is
// false for a frame shorter than 5 bytes.
func DecodeSparkStatusesResponse(d []byte) (r SparkStatusesResponse, ok bool) {
	if len(d) < SparkSetStatusesResponseLen {
		return r, false
	}
	return SparkStatusesResponse{Result: d[0], Mask: binary.LittleEndian.Uint16(d[1:3]), Enabled: binary.LittleEndian.Uint16(d[3:5])}, true
}

// EncodeSparkStatusesResponse is DecodeSparkStatusesResponse's inverse.
func EncodeSparkStatusesResponse(r SparkStatusesResponse) (d [8]byte, n uint8) {
	d[0] = r.Result
	binary.LittleEndian.PutUint16(d[1:3], r.Mask)
	binary.LittleEndian.PutUint16(d[3:5], r.Enabled)
	return d, SparkSetStatusesResponseLen
}

// Status 0 scales (firmware 25 and 26): applied output int16 at bits
// 0-15, bus voltage uint12 at bits 16-27, output current uint12 at bits
// 28-39, motor temperature uint8 at bits 40-47 (°C); firmware 26 adds
// the SPARK's model, uint4 at bits 54-57 (reserved in REV's 2.0.5, but
// a SPARK MAX on firmware 25 already sends its model there: the captured
// frame in spark_test.go).
const (
	SparkAppliedLSB = 0.00003082369457075716 // per unit of applied output
	SparkVoltsLSB   = 0.0073260073260073     // V per unit (30 V / 4095)
	SparkAmpsLSB    = 0.0366300366300366     // A per unit (150 A / 4095)
)

// SparkStatus0 is Status 0.
type SparkStatus0 struct {
	Applied float64 // duty the SPARK applies, -1 to 1
	Volts   float64 // its input voltage
	Amps    float64 // its output current
	TempC   float64 // its motor's temperature
	Model   uint8   // the SPARK's model (SparkModel*)
}

// The SPARK models Status 0 gives: REVLib's SparkModel (kUnknown 0,
// kSparkFlex 1, kSparkMax 2).
const (
	SparkModelUnknown = 0
	SparkModelFlex    = 1
	SparkModelMax     = 2
)

// SparkModelName names a model; "" for one REVLib does not name.
func SparkModelName(m uint8) string {
	switch m {
	case SparkModelFlex:
		return "SPARK Flex"
	case SparkModelMax:
		return "SPARK MAX"
	}
	return ""
}

// DecodeSparkStatus0 decodes Status 0 from its 8 bytes.
func DecodeSparkStatus0(d [8]byte) SparkStatus0 {
	raw := binary.LittleEndian.Uint64(d[:])
	return SparkStatus0{
		Applied: float64(int16(raw)) * SparkAppliedLSB,
		Volts:   float64(raw>>16&0xFFF) * SparkVoltsLSB,
		Amps:    float64(raw>>28&0xFFF) * SparkAmpsLSB,
		TempC:   float64(raw >> 40 & 0xFF),
		Model:   uint8(raw >> 54 & 0xF),
	}
}

// EncodeSparkStatus0 is DecodeSparkStatus0's inverse, saturating each
// field at its range (for emulating a SPARK).
func EncodeSparkStatus0(s SparkStatus0) [8]byte {
	applied := int64(math.Round(clamp(s.Applied/SparkAppliedLSB, math.MinInt16, math.MaxInt16)))
	volts := uint64(math.Round(clamp(s.Volts/SparkVoltsLSB, 0, 0xFFF)))
	amps := uint64(math.Round(clamp(s.Amps/SparkAmpsLSB, 0, 0xFFF)))
	temp := uint64(math.Round(clamp(s.TempC, 0, 0xFF)))
	raw := uint64(uint16(applied)) | volts<<16 | amps<<28 | temp<<40 | uint64(s.Model&0xF)<<54
	var d [8]byte
	binary.LittleEndian.PutUint64(d[:], raw)
	return d
}

// SparkStatus1 is Status 1: the active faults (bits 0-7), active warnings
// (16-23), sticky faults (24-31) and sticky warnings (40-47), each a
// byte with SparkFaultNames' or SparkWarningNames' bit order.
type SparkStatus1 struct {
	Faults, Warnings, StickyFaults, StickyWarnings uint8
}

// SparkFaultNames and SparkWarningNames name the fault and warning bits,
// bit 0 first.
var (
	SparkFaultNames   = [8]string{"other", "motor type", "sensor", "CAN", "temperature", "gate driver", "ESC EEPROM", "firmware"}
	SparkWarningNames = [8]string{"brownout", "overcurrent", "ESC EEPROM", "external EEPROM", "sensor", "stall", "has reset", "other"}
)

// DecodeSparkStatus1 decodes Status 1.
func DecodeSparkStatus1(d [8]byte) SparkStatus1 {
	return SparkStatus1{Faults: d[0], Warnings: d[2], StickyFaults: d[3], StickyWarnings: d[5]}
}

// EncodeSparkStatus1 is DecodeSparkStatus1's inverse.
func EncodeSparkStatus1(s SparkStatus1) (d [8]byte) {
	d[0], d[2], d[3], d[5] = s.Faults, s.Warnings, s.StickyFaults, s.StickyWarnings
	return d
}

// DecodeSparkStatus2 decodes Status 2: the primary encoder's (the
// motor's built-in sensor's) velocity, float32 RPM at b0-3, and position,
// float32 rotations at b4-7, both little endian.
func DecodeSparkStatus2(d [8]byte) (rpm, rotations float64) {
	return float64(math.Float32frombits(binary.LittleEndian.Uint32(d[0:4]))),
		float64(math.Float32frombits(binary.LittleEndian.Uint32(d[4:8])))
}

// EncodeSparkStatus2 is DecodeSparkStatus2's inverse.
func EncodeSparkStatus2(rpm, rotations float64) (d [8]byte) {
	binary.LittleEndian.PutUint32(d[0:4], Float32Bits(rpm))
	binary.LittleEndian.PutUint32(d[4:8], Float32Bits(rotations))
	return d
}

// Float32Bits is v's float32 bits as a frame carries them, never ±Inf or
// NaN: a finite v beyond ±math.MaxFloat32 (which float32(v) would turn
// into ±Inf) is clamped to ±math.MaxFloat32, and a NaN or ±Inf v is
// sent as 0 (neutral). Every float32 a frame here carries goes through
// it.
func Float32Bits(v float64) uint32 {
	switch {
	case v != v || math.IsInf(v, 0):
		v = 0
	case v > math.MaxFloat32:
		v = math.MaxFloat32
	case v < -math.MaxFloat32:
		v = -math.MaxFloat32
	}
	return math.Float32bits(float32(v))
}

// EncodeSparkSetpoint builds a set-point frame's 8 bytes: the value as a
// little-endian float32 at b0-3 (Float32Bits: never ±Inf or NaN), an arbitrary feed-forward int16 at b4-5
// (0 here), the PID slot in b6 bits 0-1.
func EncodeSparkSetpoint(value float64, slot int) (d [8]byte) {
	binary.LittleEndian.PutUint32(d[0:4], Float32Bits(value))
	d[6] = byte(slot & 3)
	return d
}

// DecodeSparkSetpoint decodes a set-point frame's value and PID slot.
func DecodeSparkSetpoint(d [8]byte) (value float64, slot int) {
	return float64(math.Float32frombits(binary.LittleEndian.Uint32(d[0:4]))), int(d[6] & 3)
}

// The parameters frcd writes: slot 0's closed-loop gains, all float32.
// Their ids are the same in every REVLib from 2020 (ConfigParameter kP_0
// 13, kI_0 14, kD_0 15, kF_0 16) to REVLib 2026's generated SparkParameters
// (c_Spark_kP_0 13 ... c_Spark_kV_0 16: the feed forward renamed).
const (
	SparkParamP0 = 13 // proportional gain, slot 0
	SparkParamI0 = 14 // integral gain, slot 0
	SparkParamD0 = 15 // derivative gain, slot 0
	SparkParamV0 = 16 // velocity feed forward, slot 0 (kF_0, later kV_0)

	// The idle mode and current limits (REVLib 2026's SparkParameters;
	// the same ids in REV's SPARK MAX parameter table): kIdleMode (uint,
	// 0 coast, 1 brake), kCurrentChop (float, A: the secondary limit),
	// kCurrentChopCycles (uint), kSmartCurrentStallLimit,
	// kSmartCurrentFreeLimit (uint, A) and kSmartCurrentConfig (uint,
	// RPM: below it the stall limit holds).
	SparkParamIdleMode          = 6
	SparkParamCurrentChop       = 11
	SparkParamCurrentChopCycles = 12
	SparkParamSmartStallLimit   = 59
	SparkParamSmartFreeLimit    = 60
	SparkParamSmartLimitRPM     = 61

	// SparkParamUint32 and SparkParamFloat32 are REVLib's
	// c_REVLib_kUint32 and c_REVLib_kFloat32: the parameter type a
	// write's acknowledgement gives for an unsigned or a float parameter
	// (the status periods are unsigned, the gains float).
	SparkParamUint32  = 2
	SparkParamFloat32 = 3
)

// EncodeSparkParameterWrite builds a parameter write: byte 0 the
// parameter id, bytes 1-4 the float32 value's bits, little endian (5
// bytes, REV's can-specs spark frames 2.0.5 "Parameter Write").
func EncodeSparkParameterWrite(param uint8, value float32) (d [8]byte, n uint8) {
	return EncodeSparkParameterBits(param, Float32Bits(float64(value)))
}

// EncodeSparkParameterBits builds a parameter write of a value's 32 bits
// (an unsigned parameter's value, or a float's bits).
func EncodeSparkParameterBits(param uint8, bits uint32) (d [8]byte, n uint8) {
	d[0] = param
	binary.LittleEndian.PutUint32(d[1:5], bits)
	return d, 5
}

// DecodeSparkParameterWrite is EncodeSparkParameterWrite's inverse; ok is
// false for a frame shorter than 5 bytes.
func DecodeSparkParameterWrite(d []byte) (param uint8, bits uint32, ok bool) {
	if len(d) < 5 {
		return 0, 0, false
	}
	return d[0], binary.LittleEndian.Uint32(d[1:5]), true
}

// SparkParameterAck is a parameter write's acknowledgement ("Parameter
// Write Response"): the parameter, its type, the value it now holds and
// the result (0: written).
type SparkParameterAck struct {
	Param, Type uint8
	Value       uint32
	Result      uint8
}

// DecodeSparkParameterAck decodes an acknowledgement: byte 0 the
// parameter id, byte 1 its type, bytes 2-5 the value (uint32 LE), byte 6
// the result code; ok is false for a frame shorter than 7 bytes.
func DecodeSparkParameterAck(d []byte) (a SparkParameterAck, ok bool) {
	if len(d) < 7 {
		return a, false
	}
	return SparkParameterAck{Param: d[0], Type: d[1], Value: binary.LittleEndian.Uint32(d[2:6]), Result: d[6]}, true
}

// EncodeSparkParameterAck is DecodeSparkParameterAck's inverse (7 bytes).
func EncodeSparkParameterAck(a SparkParameterAck) (d [8]byte, n uint8) {
	d[0], d[1], d[6] = a.Param, a.Type, a.Result
	binary.LittleEndian.PutUint32(d[2:6], a.Value)
	return d, 7
}

func clamp(x, lo, hi float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return max(lo, min(hi, x))
}
