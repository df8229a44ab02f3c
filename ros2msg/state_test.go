package ros2msg

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/frcd/frcd/internal/bounds"
)

// stateMessages are one filled value of each state message.
func stateMessages() []Message {
	h := Header{Stamp: Time{7, 8}, FrameID: "imu"}
	return []Message{
		&Imu{Header: h, Orientation: Quaternion{0, 0, 0.5, 0.75}, OrientationCovariance: [9]float64{-1}, AngularVelocity: Vector3{1, 2, 3}, LinearAcceleration: Vector3{Z: 9.8}},
		&BatteryState{Header: h, Voltage: 12.5, Temperature: 30, Current: -40, Charge: 1, Capacity: 2, DesignCapacity: 3, Percentage: 0.5,
			PowerSupplyStatus: PowerSupplyStatusDischarging, Present: true, CellVoltage: []float32{3.7}, Location: "pdh", SerialNumber: "x"},
		&Joy{Header: h, Axes: []float32{0.5, -1}, Buttons: []int32{0, 1, 1}},
		&DiagnosticArray{Header: h, Status: []DiagnosticStatus{{Level: 2, Name: "frcd: loop", Message: "ok", HardwareID: "frcd", Values: []KeyValue{{"a", "b"}}}}},
		&TFMessage{Transforms: []TransformStamped{{Header: h, ChildFrameID: "base_link", Transform: Transform{Vector3{1, 2, 3}, Quaternion{W: 1}}}}},
		&Odometry{Header: h, ChildFrameID: "base_link", Position: Vector3{1, 2, 0}, Orientation: Quaternion{W: 1}, PoseCovariance: [36]float64{0: 1e-3},
			Twist: Twist{Linear: Vector3{X: 1}, Angular: Vector3{Z: 2}}, TwistCovariance: [36]float64{35: 1e-2}},
		&JointControllerState{Header: h, SetPoint: 1, ProcessValue: 2, ProcessValueDot: 3, Error: 4, TimeStep: 5, Command: 6, P: 7, I: 8, D: 9, IClamp: 10, Antiwindup: true},
		&Log{Stamp: Time{1, 2}, Level: LogWarn, Name: "frcd", Msg: "hello", File: "f.go", Function: "F", Line: 42},
	}
}

// TestStateRoundTrip: each state message decodes to itself, and its type
// has a definition (a hash to announce).
func TestStateRoundTrip(t *testing.T) {
	for _, m := range stateMessages() {
		again := reflect.New(reflect.TypeOf(m).Elem()).Interface().(Message)
		if err := Unmarshal(Marshal(nil, m), again); err != nil {
			t.Fatalf("%s: %v", m.TypeName(), err)
		}
		if !reflect.DeepEqual(again, m) {
			t.Errorf("%s: %+v decoded as %+v", m.TypeName(), m, again)
		}
		if UserDataTypeHash(m.TypeName()) == nil {
			t.Errorf("%s: no type hash", m.TypeName())
		}
		b := Marshal(nil, m)
		for cut := 4; cut < len(b)-3; cut++ { // the last bytes may be padding
			if Unmarshal(b[:cut], again) == nil && cut < len(b)-3 {
				if _, isLog := m.(*Log); !isLog {
					t.Fatalf("%s cut at %d of %d decoded", m.TypeName(), cut, len(b))
				}
			}
		}
	}
}

// TestROSType maps DDS type names back to ROS ones.
func TestROSType(t *testing.T) {
	for dds, want := range map[string]string{
		"sensor_msgs::msg::dds_::Imu_": "sensor_msgs/msg/Imu", "std_srvs::srv::dds_::SetBool_Request_": "std_srvs/srv/SetBool_Request",
		"Imu": "", "a::b::c::d_": "", "a::msg::dds_::_": "",
	} {
		if got := ROSType(dds); got != want {
			t.Errorf("ROSType(%q) = %q, want %q", dds, got, want)
		}
	}
	if got := string(UserDataTypeHash("std_msgs::msg::dds_::String_")); got != "typehash=RIHS01_"+knownHashes["std_msgs/msg/String"]+";" {
		t.Errorf("USER_DATA %q", got)
	}
	if UserDataTypeHash("foo::msg::dds_::Bar_") != nil {
		t.Error("a type without a definition has a hash")
	}
}

// FuzzUnmarshalState feeds the state messages arbitrary payloads: no
// panic, no more than bounds.Slow per input, and whatever decodes
// re-encodes to a payload that decodes and encodes to the same bytes.
func FuzzUnmarshalState(f *testing.F) {
	for _, m := range stateMessages() {
		f.Add(Marshal(nil, m))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		defer bounds.Slow(t)()
		for _, m := range stateMessages() {
			if Unmarshal(b, m) != nil {
				continue
			}
			once := Marshal(nil, m)
			again := reflect.New(reflect.TypeOf(m).Elem()).Interface().(Message)
			if err := Unmarshal(once, again); err != nil {
				t.Fatalf("%s: re-encoded message does not decode: %v", m.TypeName(), err)
			}
			if twice := Marshal(nil, again); !bytes.Equal(once, twice) {
				t.Fatalf("%s: % x re-encoded as % x", m.TypeName(), once, twice)
			}
		}
	})
}
