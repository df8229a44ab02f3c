package ros2msg

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/frcd/frcd/cdr"
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
		&MultiDOFStateStamped{Header: h, DOFStates: []SingleDOFState{{Name: "hood_joint", Reference: 1, Feedback: 2, FeedbackDot: 3, Error: 4,
			ErrorDot: 5, TimeStep: 6, Output: 7}, {Name: "b", Output: -1}}},
		jtcState(false),
		&MultiDOFCommand{DOFNames: []string{"hood_joint"}, Values: []float64{0.4}, ValuesDot: []float64{0.1}},
		&DynamicJointState{Header: h, JointNames: []string{"a", "b"}, InterfaceValues: []InterfaceValue{
			{InterfaceNames: []string{"position", "velocity", "effort"}, Values: []float64{1, 2, 3}}, {InterfaceNames: []string{"position"}, Values: []float64{4}}}},
	}
}

// jtcState is a filled JointTrajectoryControllerState in Jazzy's layout
// or Humble's.
func jtcState(humble bool) *JointTrajectoryControllerState {
	pt := func(v float64) JointTrajectoryPoint {
		return JointTrajectoryPoint{Positions: []float64{v, v + 1}, Velocities: []float64{v + 2, v + 3}, Accelerations: []float64{v + 4},
			Effort: []float64{v + 5}, TimeFromStart: Duration{1, 500}}
	}
	m := &JointTrajectoryControllerState{Header: Header{Stamp: Time{7, 8}}, JointNames: []string{"shoulder_joint", "elevator_joint"},
		Reference: pt(1), Feedback: pt(10), Error: pt(20), Output: pt(30), MultiDOFJointNames: []string{"x"}, Humble: humble}
	if humble {
		m.Desired, m.Actual = pt(40), pt(50)
	} else {
		m.SpeedScalingFactor = 1
	}
	return m
}

// TestJointTrajectoryControllerStateLayouts: Humble's layout has two
// more points and two more empty multi-DOF points than Jazzy's, and no
// speed_scaling_factor; each decodes to itself, and Humble's does not
// decode as Jazzy's message.
func TestJointTrajectoryControllerStateLayouts(t *testing.T) {
	jazzy, humble := Marshal(nil, jtcState(false)), Marshal(nil, jtcState(true))
	if len(humble) <= len(jazzy) {
		t.Errorf("Humble's is %d bytes, Jazzy's %d: want Humble's two more points", len(humble), len(jazzy))
	}
	h := &JointTrajectoryControllerState{Humble: true}
	if err := Unmarshal(humble, h); err != nil || !reflect.DeepEqual(h, jtcState(true)) {
		t.Errorf("Humble's decoded as %+v, %v", h, err)
	}
	j := &JointTrajectoryControllerState{}
	if err := Unmarshal(jazzy, j); err != nil || !reflect.DeepEqual(j, jtcState(false)) {
		t.Errorf("Jazzy's decoded as %+v, %v", j, err)
	}
	// Each read in the other layout fails or leaves bytes over (CDR pads
	// the end to 4 at most).
	for _, c := range []struct {
		b      []byte
		humble bool
	}{{humble, false}, {jazzy, true}} {
		var d cdr.Decoder
		if err := d.Reset(c.b); err != nil {
			t.Fatal(err)
		}
		m := &JointTrajectoryControllerState{Humble: c.humble}
		if m.UnmarshalCDR(&d); d.Err() == nil && d.Remaining() < 4 {
			t.Errorf("the humble=%v layout read as humble=%v: %+v", !c.humble, c.humble, m)
		}
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
