package frc

import (
	"math"
	"strings"
	"testing"

	"github.com/frcd/frcd/internal/sparkspec"
)

// Every SPARK frame frcd sends or reads is REV's: its API (class,
// index), id, length, remote or data, and for the status frames REV's
// default period and enabled-by-default, as REV's specification has them
// (testdata/spark-frames-2.0.5.txt for firmware 25, 2.1.0 for 26); the
// layouts frcd decodes are REV's bit positions and scales.
func TestSparkFramesAreREVs(t *testing.T) {
	for _, tc := range []struct {
		file, paramWrite string
	}{
		{"testdata/spark-frames-2.0.5.txt", "WRITE_PARAMETER"},
		{"testdata/spark-frames-2.1.0.txt", "PARAMETER_WRITE"}, // renamed in 2.1.0, the same frame
	} {
		t.Run(tc.file, func(t *testing.T) {
			spec, err := sparkspec.Load(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			checkSparkFrames(t, spec, tc.paramWrite)
		})
	}
}

// checkSparkFrames checks what firmware 25 and 26 share against one of
// REV's tables.
func checkSparkFrames(t *testing.T, spec *sparkspec.Spec, paramWrite string) {
	t.Helper()
	for _, tc := range []struct {
		name     string
		api, len int
		rtr      bool
	}{
		{"VELOCITY_SETPOINT", SparkAPIVelocitySetpoint, 8, false},
		{"DUTY_CYCLE_SETPOINT", SparkAPIDutyCycle, 8, false},
		{"POSITION_SETPOINT", SparkAPIPositionSetpoint, 8, false},
		{"SET_STATUSES_ENABLED", SparkAPISetStatusesEnabled, SparkSetStatusesEnabledLen, false},
		{"SET_STATUSES_ENABLED_RESPONSE", SparkAPISetStatusesResponse, SparkSetStatusesResponseLen, false},
		{"GET_FIRMWARE_VERSION", SparkAPIVersion, SparkVersionLen, true},
		{"SECONDARY_HEARTBEAT", SparkAPIHeartbeat, 8, false},
		{paramWrite, SparkAPIParameterWrite, 5, false},
		{"PARAMETER_WRITE_RESPONSE", SparkAPIParameterAck, 7, false},
		{"STATUS_0", SparkAPIStatus0, 8, false},
		{"STATUS_1", SparkAPIStatus1, 8, false},
		{"STATUS_2", SparkAPIStatus2, 8, false},
	} {
		f, ok := spec.Frames[tc.name]
		if !ok {
			t.Errorf("%s: not in the specification's table", tc.name)
			continue
		}
		if tc.api != f.Class<<4|f.Index || SparkID(tc.api, 0) != f.ArbID || tc.len != f.Len || tc.rtr != f.RTR {
			t.Errorf("%s: frcd has API %#x (id %#x), %d bytes, rtr %v; REV: class %d index %d (id %#x), %d bytes, rtr %v",
				tc.name, tc.api, SparkID(tc.api, 0), tc.len, tc.rtr, f.Class, f.Index, f.ArbID, f.Len, f.RTR)
		}
	}
	for k, name := range []string{"STATUS_0", "STATUS_1", "STATUS_2"} {
		f := spec.Frames[name]
		if !f.Periodic || int(SparkDefaultPeriodMs[k]) != f.PeriodMs || SparkEnabledByDefault[k] != f.Enabled {
			t.Errorf("%s: frcd takes REV's default as every %d ms, enabled %v; REV: every %d ms, enabled %v",
				name, SparkDefaultPeriodMs[k], SparkEnabledByDefault[k], f.PeriodMs, f.Enabled)
		}
	}
	for _, tc := range []struct {
		signal    string
		bit, bits int
		scale     float64
	}{
		{"STATUS_0.APPLIED_OUTPUT", 0, 16, SparkAppliedLSB},
		{"STATUS_0.VOLTAGE", 16, 12, SparkVoltsLSB},
		{"STATUS_0.CURRENT", 28, 12, SparkAmpsLSB},
		{"STATUS_0.MOTOR_TEMPERATURE", 40, 8, 1},
		{"STATUS_1.SENSOR_FAULT", 2, 1, 1},
		{"STATUS_1.BROWNOUT_WARNING", 16, 1, 1},
		{"STATUS_1.HAS_RESET_WARNING", 22, 1, 1},
		{"STATUS_1.OTHER_STICKY_FAULT", 24, 1, 1},
		{"STATUS_2.PRIMARY_ENCODER_VELOCITY", 0, 32, 1},
		{"STATUS_2.PRIMARY_ENCODER_POSITION", 32, 32, 1},
		{"DUTY_CYCLE_SETPOINT.SETPOINT", 0, 32, 1},
		{"DUTY_CYCLE_SETPOINT.PID_SLOT", 48, 2, 1},
		{"SET_STATUSES_ENABLED.MASK", 0, 16, 1},
		{"SET_STATUSES_ENABLED.ENABLED_BITFIELD", 16, 16, 1},
		{"SET_STATUSES_ENABLED_RESPONSE.RESULT_CODE", 0, 8, 1},
		{"SET_STATUSES_ENABLED_RESPONSE.SPECIFIED_MASK", 8, 16, 1},
		{"SET_STATUSES_ENABLED_RESPONSE.ENABLED_BITFIELD", 24, 16, 1},
		{"GET_FIRMWARE_VERSION.MAJOR", 0, 8, 1},
		{"GET_FIRMWARE_VERSION.MINOR", 8, 8, 1},
		{"GET_FIRMWARE_VERSION.HW_REV", 40, 8, 1},
		{paramWrite + ".PARAMETER_ID", 0, 8, 1},
		{paramWrite + ".VALUE", 8, 32, 1},
		{"PARAMETER_WRITE_RESPONSE.PARAMETER_TYPE", 8, 8, 1},
		{"PARAMETER_WRITE_RESPONSE.VALUE", 16, 32, 1},
		{"PARAMETER_WRITE_RESPONSE.RESULT_CODE", 48, 8, 1},
	} {
		g, ok := spec.Signals[tc.signal]
		if !ok || g.Bit != tc.bit || g.Bits != tc.bits || math.Abs(g.Scale-tc.scale) > 1e-15 {
			t.Errorf("%s: frcd reads bits %d+%d × %v; REV: %+v (in the table: %v)", tc.signal, tc.bit, tc.bits, tc.scale, g, ok)
		}
	}
	// The encoders put each field where REV's table says: one field at a
	// time at its maximum, read back at its bit position.
	e, _ := EncodeSparkSetStatusesEnabled(0x0007, 0x0004)
	if field(e, spec.Signals["SET_STATUSES_ENABLED.MASK"]) != 7 || field(e, spec.Signals["SET_STATUSES_ENABLED.ENABLED_BITFIELD"]) != 4 {
		t.Errorf("Set Statuses Enabled % x", e)
	}
	r, _ := EncodeSparkStatusesResponse(SparkStatusesResponse{Result: 1, Mask: 0x0102, Enabled: 0x0304})
	if field(r, spec.Signals["SET_STATUSES_ENABLED_RESPONSE.RESULT_CODE"]) != 1 || field(r, spec.Signals["SET_STATUSES_ENABLED_RESPONSE.SPECIFIED_MASK"]) != 0x0102 ||
		field(r, spec.Signals["SET_STATUSES_ENABLED_RESPONSE.ENABLED_BITFIELD"]) != 0x0304 {
		t.Errorf("Set Statuses Enabled response % x", r)
	}
	s1 := EncodeSparkStatus1(SparkStatus1{Faults: 1 << 2, Warnings: 1 << 6, StickyFaults: 1})
	for _, sig := range []string{"SENSOR_FAULT", "HAS_RESET_WARNING", "OTHER_STICKY_FAULT"} {
		if field(s1, spec.Signals["STATUS_1."+sig]) != 1 {
			t.Errorf("Status 1 %s not at REV's bit: % x", sig, s1)
		}
	}
}

// field reads a signal from a frame as REV's table places it: bits from
// bit 0 of byte 0, little endian, or (type "-be", whole bytes) the bytes
// from its position on, most significant first.
func field(d [8]byte, g sparkspec.Signal) uint64 {
	var raw uint64
	if strings.HasSuffix(g.Type, "-be") {
		for i := g.Bit / 8; i < (g.Bit+g.Bits)/8; i++ {
			raw = raw<<8 | uint64(d[i])
		}
		return raw
	}
	for i := range d {
		raw |= uint64(d[i]) << (8 * i)
	}
	return raw >> g.Bit & (1<<g.Bits - 1)
}

// The version answer in each season's layout, as REV's table places its
// fields: firmware 25's prerelease and fix (2.0.5), firmware 26's build
// and debug flag (2.1.0). Among them REV's current releases, a SPARK MAX
// on 26.1.5 and a SPARK Flex on 26.1.6, built from the 2.1.0 table's
// positions and decoded, and both accepted.
func TestSparkVersionLayouts(t *testing.T) {
	for _, tc := range []struct {
		file   string
		v      SparkFirmware
		fields map[string]uint64
		text   string
	}{
		{"testdata/spark-frames-2.0.5.txt", SparkFirmware{Major: 25, Minor: 1, Fix: 3, Prerelease: 0x0405, HWRev: 6},
			map[string]uint64{"MAJOR": 25, "MINOR": 1, "FIX": 3, "PRERELEASE_HIGH": 4, "PRERELEASE_LOW": 5, "HW_REV": 6}, "25.1.3 (prerelease 1029)"},
		{"testdata/spark-frames-2.0.5.txt", SparkFirmware{Major: 25, Minor: 0, Fix: 4, HWRev: 2},
			map[string]uint64{"MAJOR": 25, "MINOR": 0, "FIX": 4, "PRERELEASE_HIGH": 0, "PRERELEASE_LOW": 0, "HW_REV": 2}, "25.0.4"},
		{"testdata/spark-frames-2.1.0.txt", SparkFirmware{Major: 26, Minor: 1, Fix: 5, HWRev: 2},
			map[string]uint64{"MAJOR": 26, "MINOR": 1, "BUILD": 5, "DEBUG_BUILD": 0, "HW_REV": 2}, "26.1.5"},
		{"testdata/spark-frames-2.1.0.txt", SparkFirmware{Major: 26, Minor: 1, Fix: 6, HWRev: 1},
			map[string]uint64{"MAJOR": 26, "MINOR": 1, "BUILD": 6, "DEBUG_BUILD": 0, "HW_REV": 1}, "26.1.6"},
		{"testdata/spark-frames-2.1.0.txt", SparkFirmware{Major: 26, Minor: 2, Fix: 0x0103, Debug: 1},
			map[string]uint64{"MAJOR": 26, "MINOR": 2, "BUILD": 0x0103, "DEBUG_BUILD": 1, "HW_REV": 0}, "26.2.259 (debug build)"},
	} {
		spec, err := sparkspec.Load(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		d, n := EncodeSparkVersion(tc.v)
		if n != 8 {
			t.Errorf("%v: %d bytes", tc.v, n)
		}
		var built [8]byte // the answer as the table places each field
		for sig, want := range tc.fields {
			g, ok := spec.Signals["GET_FIRMWARE_VERSION."+sig]
			if !ok {
				t.Fatalf("%s: no GET_FIRMWARE_VERSION.%s", tc.file, sig)
			}
			if got := field(d, g); got != want {
				t.Errorf("%s %v: %s = %d, want %d (% x)", tc.file, tc.v, sig, got, want, d)
			}
			for i := g.Bits/8 - 1; i >= 0; i-- {
				b := byte(want >> (8 * (g.Bits/8 - 1 - i)))
				if !strings.HasSuffix(g.Type, "-be") {
					b = byte(want >> (8 * i))
				}
				built[g.Bit/8+i] = b
			}
		}
		if built != d {
			t.Errorf("%v: encoded % x, REV's table places % x", tc.v, d, built)
		}
		got, ok := DecodeSparkVersion(built[:])
		if !ok || got != tc.v || got.String() != tc.text {
			t.Errorf("% x: decoded %+v %q, want %+v %q", built, got, got, tc.v, tc.text)
		}
		if err := got.Supported(); err != nil {
			t.Errorf("%v refused: %v", got, err)
		}
	}
}

// Status 0's model field (2.1.0's SPARK_MODEL, bits 54-57) round trips
// and sits where REV's table puts it. The Status 0 captured from a SPARK
// MAX on firmware 25 (spark_test.go) already has 2 there, SPARK MAX in
// REVLib's SparkModel, though 2.0.5 calls those bits reserved.
func TestSparkStatus0Model(t *testing.T) {
	spec, err := sparkspec.Load("testdata/spark-frames-2.1.0.txt")
	if err != nil {
		t.Fatal(err)
	}
	g := spec.Signals["STATUS_0.SPARK_MODEL"]
	for _, m := range []uint8{SparkModelUnknown, SparkModelFlex, SparkModelMax, 15} {
		d := EncodeSparkStatus0(SparkStatus0{Applied: -0.5, Volts: 12.5, Amps: 40, TempC: 30, Model: m})
		if got := field(d, g); got != uint64(m) {
			t.Errorf("model %d at REV's bits reads %d (% x)", m, got, d)
		}
		if st := DecodeSparkStatus0(d); st.Model != m || math.Abs(st.Volts-12.5) > 0.01 || math.Abs(st.Applied+0.5) > 1e-4 {
			t.Errorf("model %d: decoded %+v", m, st)
		}
	}
	if st := DecodeSparkStatus0([8]byte{0, 0, 0xD1, 0x06, 0, 0x18, 0x80, 0}); st.Model != SparkModelMax {
		t.Errorf("a SPARK MAX's captured status 0: model %d", st.Model)
	}
	if SparkModelName(SparkModelMax) != "SPARK MAX" || SparkModelName(SparkModelFlex) != "SPARK Flex" || SparkModelName(9) != "" {
		t.Error("model names")
	}
}
