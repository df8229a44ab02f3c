package frc

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

// The bytes here are worked out by hand from docs/rev-spark.md's layouts
// (and two frames captured from a SPARK MAX on firmware 25, published
// with the community specification the doc cites), not from the encoders.

func TestSparkIDs(t *testing.T) {
	for _, tc := range []struct {
		api, n int
		want   uint32
	}{
		{SparkAPIStatus0, 1, 0x0205B801}, // class 46 (0xB800 >> 10), index 0
		{SparkAPIStatus2, 8, 0x0205B888},
		{SparkAPIStatus1, 62, 0x0205B87E},
		{SparkAPIDutyCycle, 3, 0x02050083},
		{SparkAPIVelocitySetpoint, 1, 0x02050001},
		{SparkAPIPositionSetpoint, 2, 0x02050102},
		{SparkAPIHeartbeat, 0, 0x02052C80},
		{SparkAPIVersion, 5, 0x02052605},
	} {
		if got := SparkID(tc.api, tc.n); got != tc.want {
			t.Errorf("SparkID(%#x, %d) = %#08x, want %#08x", tc.api, tc.n, got, tc.want)
		}
	}
}

func TestSparkSetpoint(t *testing.T) {
	// 300.0 = 0x43960000; slot 1 in b6.
	want := [8]byte{0x00, 0x00, 0x96, 0x43, 0x00, 0x00, 0x01, 0x00}
	if got := EncodeSparkSetpoint(300, 1); got != want {
		t.Errorf("setpoint 300 slot 1: % x, want % x", got, want)
	}
	// -0.5 = 0xBF000000.
	want = [8]byte{0x00, 0x00, 0x00, 0xBF}
	if got := EncodeSparkSetpoint(-0.5, 0); got != want {
		t.Errorf("duty -0.5: % x, want % x", got, want)
	}
	if v, slot := DecodeSparkSetpoint([8]byte{0x00, 0x00, 0x96, 0x43, 0, 0, 0x03}); v != 300 || slot != 3 {
		t.Errorf("decode: %v slot %d, want 300 slot 3", v, slot)
	}
}

func TestSparkStatus0(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    [8]byte
		want SparkStatus0
	}{
		// Captured idle: voltage 0x6D1 (b2 | (b3 & 0xF) << 8) = 1745 units, 24 °C.
		{"idle", [8]byte{0x00, 0x00, 0xD1, 0x06, 0x00, 0x18, 0x80, 0x00}, SparkStatus0{0, 1745 * 0.0073260073260073, 0, 24, 0}},
		// Applied 0x3F5D = 16221, voltage 0x666 = 1638, current
		// (b3 >> 4) | b4 << 4 = 0x111 = 273, 40 °C.
		{"driving", [8]byte{0x5D, 0x3F, 0x66, 0x16, 0x11, 0x28, 0x00, 0x00}, SparkStatus0{16221 * 0.00003082369457075716, 1638 * 0.0073260073260073, 273 * 0.0366300366300366, 40, 0}},
		// Applied 0x8000 = -32768: full reverse, a little past -1.
		{"reverse", [8]byte{0x00, 0x80}, SparkStatus0{-32768 * 0.00003082369457075716, 0, 0, 0, 0}},
	} {
		got := DecodeSparkStatus0(tc.d)
		if !near(got.Applied, tc.want.Applied) || !near(got.Volts, tc.want.Volts) || !near(got.Amps, tc.want.Amps) || got.TempC != tc.want.TempC {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	if v := DecodeSparkStatus0([8]byte{0x5D, 0x3F, 0x66, 0x16, 0x11, 0x28}); math.Abs(v.Applied-0.5) > 1e-4 || math.Abs(v.Volts-12) > 0.01 || math.Abs(v.Amps-10) > 0.02 {
		t.Errorf("driving: %+v, want about 0.5, 12 V, 10 A", v)
	}
	// The encoder gives the same bytes back.
	want := [8]byte{0x5D, 0x3F, 0x66, 0x16, 0x11, 0x28, 0x00, 0x00}
	if got := EncodeSparkStatus0(SparkStatus0{Applied: 0.5, Volts: 12, Amps: 10, TempC: 40}); got != want {
		t.Errorf("encode: % x, want % x", got, want)
	}
}

func TestSparkStatus1(t *testing.T) {
	// b0 bit 4 a temperature fault, b2 bit 1 an overcurrent warning, b3
	// bit 3 a sticky CAN fault, b5 bit 6 a sticky has-reset warning.
	d := [8]byte{0x10, 0x00, 0x02, 0x08, 0x00, 0x40}
	want := SparkStatus1{Faults: 0x10, Warnings: 0x02, StickyFaults: 0x08, StickyWarnings: 0x40}
	if got := DecodeSparkStatus1(d); got != want {
		t.Errorf("%+v, want %+v", got, want)
	}
	if SparkFaultNames[4] != "temperature" || SparkWarningNames[1] != "overcurrent" || SparkFaultNames[3] != "CAN" || SparkWarningNames[6] != "has reset" {
		t.Error("fault names out of the documented order")
	}
	if got := EncodeSparkStatus1(want); got != d {
		t.Errorf("encode: % x, want % x", got, d)
	}
}

func TestSparkStatus2(t *testing.T) {
	// Captured mid-spin: 0x427B6F01 = 62.858 RPM, 0x408D553F = 4.4167 rotations.
	rpm, rot := DecodeSparkStatus2([8]byte{0x01, 0x6F, 0x7B, 0x42, 0x3F, 0x55, 0x8D, 0x40})
	if math.Abs(rpm-62.858) > 0.001 || math.Abs(rot-4.4167) > 0.0001 {
		t.Errorf("%v RPM %v rotations, want 62.858, 4.4167", rpm, rot)
	}
	// 1000 RPM = 0x447A0000, -2.5 rotations = 0xC0200000.
	want := [8]byte{0x00, 0x00, 0x7A, 0x44, 0x00, 0x00, 0x20, 0xC0}
	if got := EncodeSparkStatus2(1000, -2.5); got != want {
		t.Errorf("encode: % x, want % x", got, want)
	}
}

func TestSparkVersion(t *testing.T) {
	// REV's GET_FIRMWARE_VERSION: major, minor, prerelease high, fix,
	// prerelease low, hardware revision. 25.0.4 on hardware revision 2;
	// bytes 2 and 4 (prerelease) are not a build number and a debug flag.
	v, ok := DecodeSparkVersion([]byte{25, 0, 0x00, 0x04, 0x00, 0x02, 0, 0})
	if !ok || v != (SparkFirmware{Major: 25, Minor: 0, Fix: 4, HWRev: 2}) || v.String() != "25.0.4" {
		t.Errorf("%+v %v, want 25.0.4 hardware revision 2", v, ok)
	}
	v, _ = DecodeSparkVersion([]byte{25, 1, 0x01, 0x02, 0x03, 0x01, 0, 0})
	if v != (SparkFirmware{Major: 25, Minor: 1, Fix: 2, Prerelease: 0x0103, HWRev: 1}) || v.String() != "25.1.2 (prerelease 259)" {
		t.Errorf("prerelease: %+v %q", v, v.String())
	}
	if v.Supported() != nil {
		t.Errorf("25.x refused: %v", v.Supported())
	}
	if _, ok := DecodeSparkVersion(nil); ok {
		t.Error("the request itself decoded as an answer")
	}
	d, n := EncodeSparkVersion(SparkFirmware{Major: 25, Minor: 0, Fix: 3, Prerelease: 0x0201, HWRev: 5})
	if n != 8 || d != [8]byte{25, 0, 2, 3, 1, 5} {
		t.Errorf("encode: % x (%d)", d, n)
	}
	// Before 25 and from 26 on: major, minor, build (big endian), debug
	// build, hardware revision (REV's specification 2.1.0, and the
	// classic protocol's "Major.Minor.Build H.Build L").
	if d, _ := EncodeSparkVersion(SparkFirmware{Major: 24, Minor: 0, Fix: 0x0103, HWRev: 5}); d != [8]byte{24, 0, 1, 3, 0, 5} {
		t.Errorf("encode 24: % x", d)
	}
	if v, _ := DecodeSparkVersion([]byte{26, 1, 0, 5, 0, 2, 0, 0}); v != (SparkFirmware{Major: 26, Minor: 1, Fix: 5, HWRev: 2}) || v.String() != "26.1.5" || v.Supported() != nil {
		t.Errorf("26.1.5: %+v %q %v", v, v, v.Supported())
	}
	for _, tc := range []struct {
		v    SparkFirmware
		want string
	}{
		{SparkFirmware{Major: 24, Fix: 3}, "firmware 24.0.3 uses the frame layout before firmware 25"},
		{SparkFirmware{Major: 1, Minor: 6, Fix: 4}, "firmware 1.6.4 uses the frame layout before firmware 25, which frcd does not drive: update it to 26.x"},
		{SparkFirmware{Major: 27, Minor: 0}, "firmware 27.0.0 is newer than the firmware frcd's frames were checked against (25.x and 26.x"},
	} {
		if err := tc.v.Supported(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.v, err, tc.want)
		}
	}
}

func TestSparkSetStatusesEnabled(t *testing.T) {
	// Enable Status 2 and leave the others: mask 0x0004 at bits 0-15,
	// enable 0x0004 at bits 16-31, little endian.
	d, n := EncodeSparkSetStatusesEnabled(0x0004, 0x0004)
	if n != 4 || d != [8]byte{0x04, 0x00, 0x04, 0x00} {
		t.Errorf("encode: % x (%d)", d, n)
	}
	if m, e, ok := DecodeSparkSetStatusesEnabled([]byte{0x07, 0x00, 0x05, 0x00}); !ok || m != 7 || e != 5 {
		t.Errorf("decode: %#x %#x %v", m, e, ok)
	}
	// The answer: result 0, mask 0x0007, Status 0-2 enabled.
	r, ok := DecodeSparkStatusesResponse([]byte{0x00, 0x07, 0x00, 0x07, 0x00})
	if !ok || r != (SparkStatusesResponse{Mask: 7, Enabled: 7}) {
		t.Errorf("response: %+v %v", r, ok)
	}
	if d, n := EncodeSparkStatusesResponse(SparkStatusesResponse{Result: 1, Mask: 0x0104, Enabled: 0x8001}); n != 5 || d != [8]byte{1, 0x04, 0x01, 0x01, 0x80} {
		t.Errorf("response encode: % x (%d)", d, n)
	}
	if _, ok := DecodeSparkStatusesResponse([]byte{0, 7, 0, 7}); ok {
		t.Error("a 4-byte response decoded")
	}
	// A period is an unsigned parameter: Status 1's (159) at 100 ms.
	if d, n := EncodeSparkParameterBits(SparkParamStatusPeriod[1], 100); n != 5 || d != [8]byte{159, 100, 0, 0, 0} {
		t.Errorf("period write: % x (%d)", d, n)
	}
}

func FuzzSparkStatus(f *testing.F) {
	f.Add([]byte{0x00, 0x00, 0xD1, 0x06, 0x00, 0x18, 0x80, 0x00})
	f.Add([]byte{0x01, 0x6F, 0x7B, 0x42, 0x3F, 0x55, 0x8D, 0x40})
	f.Add([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, b []byte) {
		var d [8]byte
		copy(d[:], b)
		s0 := DecodeSparkStatus0(d)
		if math.Abs(s0.Applied) > 1.011 || s0.Volts < 0 || s0.Volts > 30.0001 || s0.Amps < 0 || s0.Amps > 150.0001 || s0.TempC < 0 || s0.TempC > 255 {
			t.Fatalf("status 0 out of range: %+v", s0)
		}
		// Re-encoding gives the bytes' fields back (bits 48-63 are
		// flags the decoder leaves).
		if e := EncodeSparkStatus0(s0); [6]byte(e[:6]) != [6]byte(d[:6]) {
			t.Fatalf("status 0 % x re-encoded as % x", d, e)
		}
		if e := EncodeSparkStatus1(DecodeSparkStatus1(d)); e[0] != d[0] || e[2] != d[2] || e[3] != d[3] || e[5] != d[5] {
			t.Fatalf("status 1 % x re-encoded as % x", d, e)
		}
		rpm, rot := DecodeSparkStatus2(d)
		if e := EncodeSparkStatus2(rpm, rot); !math.IsNaN(rpm) && !math.IsNaN(rot) && e != d {
			t.Fatalf("status 2 % x re-encoded as % x", d, e)
		}
		if v, ok := DecodeSparkVersion(b); ok {
			_ = v.Supported()
			if e, _ := EncodeSparkVersion(v); len(b) >= 6 && [6]byte(e[:6]) != [6]byte(b[:6]) {
				t.Fatalf("version % x re-encoded as % x", b[:6], e[:6])
			}
		}
		if r, ok := DecodeSparkStatusesResponse(b); ok {
			if e, n := EncodeSparkStatusesResponse(r); [5]byte(e[:n]) != [5]byte(b[:5]) {
				t.Fatalf("statuses response % x re-encoded as % x", b[:5], e[:n])
			}
		}
		if a, ok := DecodeSparkParameterAck(b); ok {
			if e, n := EncodeSparkParameterAck(a); n != 7 || [7]byte(e[:7]) != [7]byte(b[:7]) {
				t.Fatalf("parameter ack % x re-encoded as % x", b[:7], e[:n])
			}
		}
		if p, bits, ok := DecodeSparkParameterWrite(b); ok {
			if e, n := EncodeSparkParameterWrite(p, math.Float32frombits(bits)); n != 5 || (e[0] != b[0]) || (!math.IsNaN(float64(math.Float32frombits(bits))) && [5]byte(e[:5]) != [5]byte(b[:5])) {
				t.Fatalf("parameter write % x re-encoded as % x", b[:5], e[:n])
			}
		}
	})
}

// The parameter write and its acknowledgement, against bytes worked out by
// hand from REV's can-specs spark frames 2.0.5: Parameter Write is
// 0x02053800 + n (class 14, index 0), 5 bytes: the id, then the float32;
// Parameter Write Response 0x02053840 + n, 7 bytes: id, type, value,
// result.
func TestSparkParameterFrames(t *testing.T) {
	if id := SparkID(SparkAPIParameterWrite, 3); id != 0x02053803 {
		t.Errorf("parameter write id %#x", id)
	}
	if id := SparkID(SparkAPIParameterAck, 3); id != 0x02053843 {
		t.Errorf("parameter ack id %#x", id)
	}
	// kP_0 (13 = 0x0D) = 0.5: float32 0x3F000000, little endian.
	d, n := EncodeSparkParameterWrite(SparkParamP0, 0.5)
	if n != 5 || d != [8]byte{0x0D, 0x00, 0x00, 0x00, 0x3F} {
		t.Errorf("write kP_0 0.5 = % x (%d)", d, n)
	}
	// kF_0 (16): the id 0x10, then float32(0.00017)'s bits.
	if d, _ := EncodeSparkParameterWrite(SparkParamV0, 0.00017); d[0] != 0x10 || binary.LittleEndian.Uint32(d[1:5]) != math.Float32bits(0.00017) {
		t.Errorf("write kF_0 = % x", d)
	}
	a, ok := DecodeSparkParameterAck([]byte{0x0D, 0x03, 0x00, 0x00, 0x00, 0x3F, 0x00})
	if !ok || a != (SparkParameterAck{Param: 13, Type: SparkParamFloat32, Value: 0x3F000000, Result: 0}) {
		t.Errorf("ack = %+v %v", a, ok)
	}
	if _, ok := DecodeSparkParameterAck([]byte{0x0D, 0x03, 0, 0, 0, 0x3F}); ok {
		t.Error("a 6-byte ack decoded")
	}
	if _, _, ok := DecodeSparkParameterWrite([]byte{0x0D, 0, 0, 0}); ok {
		t.Error("a 4-byte write decoded")
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestSparkFloatsNeverInf: a finite value beyond float32's range went out
// as ±Inf (float32(1e39) is +Inf), past every Finite check upstream.
// Every float32 a SPARK frame carries is clamped to ±MaxFloat32, and a
// NaN or ±Inf goes out as 0.
func TestSparkFloatsNeverInf(t *testing.T) {
	cases := []struct{ in, want float64 }{
		{1e39, math.MaxFloat32}, {-1e300, -math.MaxFloat32}, {math.MaxFloat64, math.MaxFloat32},
		{math.Inf(1), 0}, {math.Inf(-1), 0}, {math.NaN(), 0}, {1.5, 1.5}, {-2500, -2500},
	}
	for _, c := range cases {
		sp, _ := DecodeSparkSetpoint(EncodeSparkSetpoint(c.in, 0))
		rpm, rot := DecodeSparkStatus2(EncodeSparkStatus2(c.in, c.in))
		for _, got := range []float64{sp, rpm, rot} {
			if got != c.want {
				t.Errorf("%v went out as %v; want %v", c.in, got, c.want)
			}
		}
	}
	for _, v := range []float32{float32(math.Inf(1)), float32(math.NaN()), 2.5} {
		d, _ := EncodeSparkParameterWrite(1, v)
		_, bits, _ := DecodeSparkParameterWrite(d[:])
		if got := math.Float32frombits(bits); got != v && !(v != v || math.IsInf(float64(v), 0)) || (v != v || math.IsInf(float64(v), 0)) && got != 0 {
			t.Errorf("parameter %v went out as %v", v, got)
		}
	}
}
