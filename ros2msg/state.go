package ros2msg

import "github.com/frcd/frcd/cdr"

// The state messages frcd publishes beside /joint_states: IMUs, power,
// diagnostics, transforms, odometry, joysticks, controller states and
// /rosout. Fields in their .msg order (the same definitions as
// typehash.go's, whose hashes are checked against rosidl's):
// ros2/common_interfaces (geometry_msgs, sensor_msgs, nav_msgs,
// diagnostic_msgs), ros2/geometry2 tf2_msgs/msg/TFMessage.msg,
// ros-controls/control_msgs control_msgs/msg/JointControllerState.msg and
// ros2/rcl_interfaces rcl_interfaces/msg/Log.msg. A nested message is its
// fields inline; a fixed array (float64[9]) has no count (CORBA 3.3 part
// 2 §9.3.2); .msg byte is an octet, bool one byte, float32 4-aligned.

// Vector3 (also Point's layout) and Twist are in motion.go.

// Quaternion is geometry_msgs/msg/Quaternion.
type Quaternion struct{ X, Y, Z, W float64 }

func (q *Quaternion) marshal(e *cdr.Encoder) {
	e.Float64(q.X)
	e.Float64(q.Y)
	e.Float64(q.Z)
	e.Float64(q.W)
}

func (q *Quaternion) unmarshal(d *cdr.Decoder) {
	q.X, q.Y, q.Z, q.W = d.Float64(), d.Float64(), d.Float64(), d.Float64()
}

// Transform is geometry_msgs/msg/Transform.
type Transform struct {
	Translation Vector3
	Rotation    Quaternion
}

// TransformStamped is geometry_msgs/msg/TransformStamped.
type TransformStamped struct {
	Header       Header
	ChildFrameID string
	Transform    Transform
}

func (t *TransformStamped) marshal(e *cdr.Encoder) {
	t.Header.MarshalCDR(e)
	e.String(t.ChildFrameID)
	t.Transform.Translation.marshal(e)
	t.Transform.Rotation.marshal(e)
}

func (t *TransformStamped) unmarshal(d *cdr.Decoder) {
	t.Header.UnmarshalCDR(d)
	t.ChildFrameID = d.String()
	t.Transform.Translation.unmarshal(d)
	t.Transform.Rotation.unmarshal(d)
}

// TFMessage is tf2_msgs/msg/TFMessage.
type TFMessage struct{ Transforms []TransformStamped }

// TypeName implements Message.
func (*TFMessage) TypeName() string { return "tf2_msgs::msg::dds_::TFMessage_" }

// MarshalCDR implements Message.
func (m *TFMessage) MarshalCDR(e *cdr.Encoder) {
	e.SeqLen(len(m.Transforms))
	for i := range m.Transforms {
		m.Transforms[i].marshal(e)
	}
}

// UnmarshalCDR implements Message; it reuses m's slice.
func (m *TFMessage) UnmarshalCDR(d *cdr.Decoder) {
	// A transform is at least a header (8 + 5), a child frame (5) and 7
	// doubles.
	m.Transforms = growTo(m.Transforms, d.SeqLen(8+5+5+56))
	for i := range m.Transforms {
		m.Transforms[i].unmarshal(d)
	}
}

// Imu is sensor_msgs/msg/Imu.
type Imu struct {
	Header                       Header
	Orientation                  Quaternion
	OrientationCovariance        [9]float64
	AngularVelocity              Vector3
	AngularVelocityCovariance    [9]float64
	LinearAcceleration           Vector3
	LinearAccelerationCovariance [9]float64
}

// TypeName implements Message.
func (*Imu) TypeName() string { return "sensor_msgs::msg::dds_::Imu_" }

// MarshalCDR implements Message.
func (m *Imu) MarshalCDR(e *cdr.Encoder) {
	m.Header.MarshalCDR(e)
	m.Orientation.marshal(e)
	float64Array(e, m.OrientationCovariance[:])
	m.AngularVelocity.marshal(e)
	float64Array(e, m.AngularVelocityCovariance[:])
	m.LinearAcceleration.marshal(e)
	float64Array(e, m.LinearAccelerationCovariance[:])
}

// UnmarshalCDR implements Message.
func (m *Imu) UnmarshalCDR(d *cdr.Decoder) {
	m.Header.UnmarshalCDR(d)
	m.Orientation.unmarshal(d)
	readFloat64Array(d, m.OrientationCovariance[:])
	m.AngularVelocity.unmarshal(d)
	readFloat64Array(d, m.AngularVelocityCovariance[:])
	m.LinearAcceleration.unmarshal(d)
	readFloat64Array(d, m.LinearAccelerationCovariance[:])
}

// BatteryState is sensor_msgs/msg/BatteryState.
type BatteryState struct {
	Header                                Header
	Voltage, Temperature, Current, Charge float32
	Capacity, DesignCapacity, Percentage  float32
	PowerSupplyStatus, PowerSupplyHealth  uint8
	PowerSupplyTechnology                 uint8
	Present                               bool
	CellVoltage, CellTemperature          []float32
	Location, SerialNumber                string
}

// BatteryState's power_supply_status values (BatteryState.msg).
const (
	PowerSupplyStatusUnknown     = 0
	PowerSupplyStatusDischarging = 2
)

// TypeName implements Message.
func (*BatteryState) TypeName() string { return "sensor_msgs::msg::dds_::BatteryState_" }

// MarshalCDR implements Message.
func (m *BatteryState) MarshalCDR(e *cdr.Encoder) {
	m.Header.MarshalCDR(e)
	for _, v := range [...]float32{m.Voltage, m.Temperature, m.Current, m.Charge, m.Capacity, m.DesignCapacity, m.Percentage} {
		e.Float32(v)
	}
	e.Uint8(m.PowerSupplyStatus)
	e.Uint8(m.PowerSupplyHealth)
	e.Uint8(m.PowerSupplyTechnology)
	e.Bool(m.Present)
	float32Seq(e, m.CellVoltage)
	float32Seq(e, m.CellTemperature)
	e.String(m.Location)
	e.String(m.SerialNumber)
}

// UnmarshalCDR implements Message.
func (m *BatteryState) UnmarshalCDR(d *cdr.Decoder) {
	m.Header.UnmarshalCDR(d)
	for _, p := range [...]*float32{&m.Voltage, &m.Temperature, &m.Current, &m.Charge, &m.Capacity, &m.DesignCapacity, &m.Percentage} {
		*p = d.Float32()
	}
	m.PowerSupplyStatus, m.PowerSupplyHealth, m.PowerSupplyTechnology = d.Uint8(), d.Uint8(), d.Uint8()
	m.Present = d.Bool()
	m.CellVoltage = readFloat32Seq(d, m.CellVoltage)
	m.CellTemperature = readFloat32Seq(d, m.CellTemperature)
	m.Location = d.String()
	m.SerialNumber = d.String()
}

// Joy is sensor_msgs/msg/Joy.
type Joy struct {
	Header  Header
	Axes    []float32
	Buttons []int32
}

// TypeName implements Message.
func (*Joy) TypeName() string { return "sensor_msgs::msg::dds_::Joy_" }

// MarshalCDR implements Message.
func (m *Joy) MarshalCDR(e *cdr.Encoder) {
	m.Header.MarshalCDR(e)
	float32Seq(e, m.Axes)
	e.SeqLen(len(m.Buttons))
	for _, b := range m.Buttons {
		e.Int32(b)
	}
}

// UnmarshalCDR implements Message.
func (m *Joy) UnmarshalCDR(d *cdr.Decoder) {
	m.Header.UnmarshalCDR(d)
	m.Axes = readFloat32Seq(d, m.Axes)
	m.Buttons = growTo(m.Buttons, d.SeqLen(4))
	for i := range m.Buttons {
		m.Buttons[i] = d.Int32()
	}
}

// KeyValue is diagnostic_msgs/msg/KeyValue.
type KeyValue struct{ Key, Value string }

// DiagnosticStatus is diagnostic_msgs/msg/DiagnosticStatus.
type DiagnosticStatus struct {
	Level                     uint8 // a .msg byte: OK 0, WARN 1, ERROR 2, STALE 3
	Name, Message, HardwareID string
	Values                    []KeyValue
}

// DiagnosticArray is diagnostic_msgs/msg/DiagnosticArray.
type DiagnosticArray struct {
	Header Header
	Status []DiagnosticStatus
}

// TypeName implements Message.
func (*DiagnosticArray) TypeName() string { return "diagnostic_msgs::msg::dds_::DiagnosticArray_" }

// MarshalCDR implements Message.
func (m *DiagnosticArray) MarshalCDR(e *cdr.Encoder) {
	m.Header.MarshalCDR(e)
	e.SeqLen(len(m.Status))
	for i := range m.Status {
		s := &m.Status[i]
		e.Uint8(s.Level)
		e.String(s.Name)
		e.String(s.Message)
		e.String(s.HardwareID)
		e.SeqLen(len(s.Values))
		for _, kv := range s.Values {
			e.String(kv.Key)
			e.String(kv.Value)
		}
	}
}

// UnmarshalCDR implements Message.
func (m *DiagnosticArray) UnmarshalCDR(d *cdr.Decoder) {
	m.Header.UnmarshalCDR(d)
	m.Status = growTo(m.Status, d.SeqLen(1+5+5+5+4)) // level, three strings, a count
	for i := range m.Status {
		s := &m.Status[i]
		s.Level = d.Uint8()
		s.Name, s.Message, s.HardwareID = d.String(), d.String(), d.String()
		s.Values = growTo(s.Values, d.SeqLen(10))
		for j := range s.Values {
			s.Values[j] = KeyValue{Key: d.String(), Value: d.String()}
		}
	}
}

// Odometry is nav_msgs/msg/Odometry: the pose (position and orientation,
// PoseWithCovariance) in the header's frame, the twist
// (TwistWithCovariance) in the child frame.
type Odometry struct {
	Header          Header
	ChildFrameID    string
	Position        Vector3 // geometry_msgs/Point
	Orientation     Quaternion
	PoseCovariance  [36]float64
	Twist           Twist
	TwistCovariance [36]float64
}

// TypeName implements Message.
func (*Odometry) TypeName() string { return "nav_msgs::msg::dds_::Odometry_" }

// MarshalCDR implements Message.
func (m *Odometry) MarshalCDR(e *cdr.Encoder) {
	m.Header.MarshalCDR(e)
	e.String(m.ChildFrameID)
	m.Position.marshal(e)
	m.Orientation.marshal(e)
	float64Array(e, m.PoseCovariance[:])
	m.Twist.Linear.marshal(e)
	m.Twist.Angular.marshal(e)
	float64Array(e, m.TwistCovariance[:])
}

// UnmarshalCDR implements Message.
func (m *Odometry) UnmarshalCDR(d *cdr.Decoder) {
	m.Header.UnmarshalCDR(d)
	m.ChildFrameID = d.String()
	m.Position.unmarshal(d)
	m.Orientation.unmarshal(d)
	readFloat64Array(d, m.PoseCovariance[:])
	m.Twist.Linear.unmarshal(d)
	m.Twist.Angular.unmarshal(d)
	readFloat64Array(d, m.TwistCovariance[:])
}

// JointControllerState is control_msgs/msg/JointControllerState (the
// same fields as ROS 1's; deprecated upstream since Humble in favour of
// SingleDOFStateStamped, still shipped).
type JointControllerState struct {
	Header                                  Header
	SetPoint, ProcessValue, ProcessValueDot float64
	Error, TimeStep, Command                float64
	P, I, D, IClamp                         float64
	Antiwindup                              bool
}

// TypeName implements Message.
func (*JointControllerState) TypeName() string {
	return "control_msgs::msg::dds_::JointControllerState_"
}

// MarshalCDR implements Message.
func (m *JointControllerState) MarshalCDR(e *cdr.Encoder) {
	m.Header.MarshalCDR(e)
	for _, v := range [...]float64{m.SetPoint, m.ProcessValue, m.ProcessValueDot, m.Error, m.TimeStep, m.Command, m.P, m.I, m.D, m.IClamp} {
		e.Float64(v)
	}
	e.Bool(m.Antiwindup)
}

// UnmarshalCDR implements Message.
func (m *JointControllerState) UnmarshalCDR(d *cdr.Decoder) {
	m.Header.UnmarshalCDR(d)
	for _, p := range [...]*float64{&m.SetPoint, &m.ProcessValue, &m.ProcessValueDot, &m.Error, &m.TimeStep, &m.Command, &m.P, &m.I, &m.D, &m.IClamp} {
		*p = d.Float64()
	}
	m.Antiwindup = d.Bool()
}

// Log is rcl_interfaces/msg/Log, a /rosout message.
type Log struct {
	Stamp                     Time
	Level                     uint8
	Name, Msg, File, Function string
	Line                      uint32
}

// Log's levels (rcl_interfaces/msg/Log.msg).
const (
	LogDebug uint8 = 10
	LogInfo  uint8 = 20
	LogWarn  uint8 = 30
	LogError uint8 = 40
	LogFatal uint8 = 50
)

// TypeName implements Message.
func (*Log) TypeName() string { return "rcl_interfaces::msg::dds_::Log_" }

// MarshalCDR implements Message.
func (m *Log) MarshalCDR(e *cdr.Encoder) {
	m.Stamp.MarshalCDR(e)
	e.Uint8(m.Level)
	e.String(m.Name)
	e.String(m.Msg)
	e.String(m.File)
	e.String(m.Function)
	e.Uint32(m.Line)
}

// UnmarshalCDR implements Message.
func (m *Log) UnmarshalCDR(d *cdr.Decoder) {
	m.Stamp.UnmarshalCDR(d)
	m.Level = d.Uint8()
	m.Name, m.Msg, m.File, m.Function = d.String(), d.String(), d.String(), d.String()
	m.Line = d.Uint32()
}

// float64Array writes a fixed array of doubles: no count.
func float64Array(e *cdr.Encoder, v []float64) {
	for _, x := range v {
		e.Float64(x)
	}
}

func readFloat64Array(d *cdr.Decoder, v []float64) {
	for i := range v {
		v[i] = d.Float64()
	}
}

// float32Seq writes a sequence<float>.
func float32Seq(e *cdr.Encoder, v []float32) {
	e.SeqLen(len(v))
	for _, x := range v {
		e.Float32(x)
	}
}

func readFloat32Seq(d *cdr.Decoder, dst []float32) []float32 {
	dst = growTo(dst, d.SeqLen(4))
	for i := range dst {
		dst[i] = d.Float32()
	}
	return dst
}

// growTo is s resized to n, reusing its array when large enough.
func growTo[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}
