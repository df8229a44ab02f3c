package frc

import (
	"math"
	"testing"

	"github.com/frcd/frcd/internal/sparkspec"
)

// Every SPARK frame frcd sends or reads is REV's: its API (class,
// index), id, length, remote or data, and for the status frames REV's
// default period and enabled-by-default, as REV's specification has them
// (testdata/spark-frames-2.0.5.txt); the layouts frcd decodes are REV's
// bit positions and scales.
func TestSparkFramesAreREVs(t *testing.T) {
	spec, err := sparkspec.Load("testdata/spark-frames-2.0.5.txt")
	if err != nil {
		t.Fatal(err)
	}
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
		{"WRITE_PARAMETER", SparkAPIParameterWrite, 5, false},
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
		{"GET_FIRMWARE_VERSION.PRERELEASE_HIGH", 16, 8, 1},
		{"GET_FIRMWARE_VERSION.FIX", 24, 8, 1},
		{"GET_FIRMWARE_VERSION.PRERELEASE_LOW", 32, 8, 1},
		{"GET_FIRMWARE_VERSION.HW_REV", 40, 8, 1},
		{"WRITE_PARAMETER.PARAMETER_ID", 0, 8, 1},
		{"WRITE_PARAMETER.VALUE", 8, 32, 1},
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
	field := func(d [8]byte, g sparkspec.Signal) uint64 {
		var raw uint64
		for i := range d {
			raw |= uint64(d[i]) << (8 * i)
		}
		return raw >> g.Bit & (1<<g.Bits - 1)
	}
	v, _ := EncodeSparkVersion(SparkFirmware{Major: 25, Minor: 1, Fix: 3, Prerelease: 0x0405, HWRev: 6})
	for sig, want := range map[string]uint64{"MAJOR": 25, "MINOR": 1, "FIX": 3, "PRERELEASE_HIGH": 4, "PRERELEASE_LOW": 5, "HW_REV": 6} {
		if got := field(v, spec.Signals["GET_FIRMWARE_VERSION."+sig]); got != want {
			t.Errorf("version %s: %d, want %d", sig, got, want)
		}
	}
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
