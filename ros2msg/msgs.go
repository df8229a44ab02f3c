package ros2msg

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/cdr"
)

// Message is a ROS 2 message with its CDR form.
type Message interface {
	// TypeName is the DDS type name (pkg::msg::dds_::Type_).
	TypeName() string
	// MarshalCDR appends the fields to e.
	MarshalCDR(e *cdr.Encoder)
	// UnmarshalCDR reads the fields from d; d.Err says whether it worked.
	UnmarshalCDR(d *cdr.Decoder)
}

// Marshal appends msg's serialized payload (little-endian CDR with its
// encapsulation header) to buf.
func Marshal(buf []byte, msg Message) []byte {
	var e cdr.Encoder
	e.Reset(buf, cdr.CDRLE)
	msg.MarshalCDR(&e)
	return e.Bytes()
}

// Unmarshal reads a serialized payload into msg.
func Unmarshal(payload []byte, msg Message) error {
	var d cdr.Decoder
	if err := d.Reset(payload); err != nil {
		return fmt.Errorf("%s: %w", msg.TypeName(), err)
	}
	msg.UnmarshalCDR(&d)
	if err := d.Err(); err != nil {
		return fmt.Errorf("%s: %w", msg.TypeName(), err)
	}
	return nil
}

// Time is builtin_interfaces/msg/Time.
type Time struct {
	Sec     int32
	Nanosec uint32
}

// TimeOf is t as a ROS 2 Time (seconds since the Unix epoch).
func TimeOf(t time.Time) Time {
	ns := t.UnixNano()
	return Time{Sec: int32(ns / 1e9), Nanosec: uint32(ns % 1e9)}
}

// TypeName implements Message.
func (*Time) TypeName() string { return "builtin_interfaces::msg::dds_::Time_" }

// MarshalCDR implements Message.
func (m *Time) MarshalCDR(e *cdr.Encoder) { e.Int32(m.Sec); e.Uint32(m.Nanosec) }

// UnmarshalCDR implements Message.
func (m *Time) UnmarshalCDR(d *cdr.Decoder) { m.Sec = d.Int32(); m.Nanosec = d.Uint32() }

// Clock is rosgraph_msgs/msg/Clock (ros2/rcl_interfaces
// rosgraph_msgs/msg/Clock.msg: builtin_interfaces/Time clock), what a
// simulator publishes on /clock.
type Clock struct{ Clock Time }

// TypeName implements Message.
func (*Clock) TypeName() string { return "rosgraph_msgs::msg::dds_::Clock_" }

// MarshalCDR implements Message.
func (m *Clock) MarshalCDR(e *cdr.Encoder) { m.Clock.MarshalCDR(e) }

// UnmarshalCDR implements Message.
func (m *Clock) UnmarshalCDR(d *cdr.Decoder) { m.Clock.UnmarshalCDR(d) }

// Header is std_msgs/msg/Header.
type Header struct {
	Stamp   Time
	FrameID string
}

// TypeName implements Message.
func (*Header) TypeName() string { return "std_msgs::msg::dds_::Header_" }

// MarshalCDR implements Message.
func (m *Header) MarshalCDR(e *cdr.Encoder) { m.Stamp.MarshalCDR(e); e.String(m.FrameID) }

// UnmarshalCDR implements Message.
func (m *Header) UnmarshalCDR(d *cdr.Decoder) { m.Stamp.UnmarshalCDR(d); m.FrameID = d.String() }

// Float64 is std_msgs/msg/Float64.
type Float64 struct{ Data float64 }

// TypeName implements Message.
func (*Float64) TypeName() string { return "std_msgs::msg::dds_::Float64_" }

// MarshalCDR implements Message.
func (m *Float64) MarshalCDR(e *cdr.Encoder) { e.Float64(m.Data) }

// UnmarshalCDR implements Message.
func (m *Float64) UnmarshalCDR(d *cdr.Decoder) { m.Data = d.Float64() }

// Bool is std_msgs/msg/Bool (a CDR boolean: one byte, 0 or 1; any
// other byte reads as true).
type Bool struct{ Data bool }

// TypeName implements Message.
func (*Bool) TypeName() string { return "std_msgs::msg::dds_::Bool_" }

// MarshalCDR implements Message.
func (m *Bool) MarshalCDR(e *cdr.Encoder) { e.Bool(m.Data) }

// UnmarshalCDR implements Message.
func (m *Bool) UnmarshalCDR(d *cdr.Decoder) { m.Data = d.Bool() }

// Int8 is std_msgs/msg/Int8.
type Int8 struct{ Data int8 }

// TypeName implements Message.
func (*Int8) TypeName() string { return "std_msgs::msg::dds_::Int8_" }

// MarshalCDR implements Message.
func (m *Int8) MarshalCDR(e *cdr.Encoder) { e.Int8(m.Data) }

// UnmarshalCDR implements Message.
func (m *Int8) UnmarshalCDR(d *cdr.Decoder) { m.Data = d.Int8() }

// String is std_msgs/msg/String.
type String struct{ Data string }

// TypeName implements Message.
func (*String) TypeName() string { return "std_msgs::msg::dds_::String_" }

// MarshalCDR implements Message.
func (m *String) MarshalCDR(e *cdr.Encoder) { e.String(m.Data) }

// UnmarshalCDR implements Message.
func (m *String) UnmarshalCDR(d *cdr.Decoder) { m.Data = d.String() }

// JointState is sensor_msgs/msg/JointState.
type JointState struct {
	Header   Header
	Name     []string
	Position []float64
	Velocity []float64
	Effort   []float64
}

// TypeName implements Message.
func (*JointState) TypeName() string { return "sensor_msgs::msg::dds_::JointState_" }

// MarshalCDR implements Message.
func (m *JointState) MarshalCDR(e *cdr.Encoder) {
	m.Header.MarshalCDR(e)
	e.Strings(m.Name)
	e.Float64s(m.Position)
	e.Float64s(m.Velocity)
	e.Float64s(m.Effort)
}

// UnmarshalCDR implements Message; it reuses m's slices.
func (m *JointState) UnmarshalCDR(d *cdr.Decoder) {
	m.Header.UnmarshalCDR(d)
	m.Name = d.Strings(m.Name)
	m.Position = d.Float64s(m.Position)
	m.Velocity = d.Float64s(m.Velocity)
	m.Effort = d.Float64s(m.Effort)
}

// MultiArrayDimension is std_msgs/msg/MultiArrayDimension.
type MultiArrayDimension struct {
	Label  string
	Size   uint32
	Stride uint32
}

// Float64MultiArray is std_msgs/msg/Float64MultiArray (its layout
// MultiArrayLayout inline).
type Float64MultiArray struct {
	Dim        []MultiArrayDimension
	DataOffset uint32
	Data       []float64
}

// TypeName implements Message.
func (*Float64MultiArray) TypeName() string { return "std_msgs::msg::dds_::Float64MultiArray_" }

// MarshalCDR implements Message.
func (m *Float64MultiArray) MarshalCDR(e *cdr.Encoder) {
	e.SeqLen(len(m.Dim))
	for _, d := range m.Dim {
		e.String(d.Label)
		e.Uint32(d.Size)
		e.Uint32(d.Stride)
	}
	e.Uint32(m.DataOffset)
	e.Float64s(m.Data)
}

// UnmarshalCDR implements Message.
func (m *Float64MultiArray) UnmarshalCDR(d *cdr.Decoder) {
	n := d.SeqLen(13) // a dimension is at least 5 + 4 + 4 bytes
	if cap(m.Dim) >= n {
		m.Dim = m.Dim[:n]
	} else {
		m.Dim = make([]MultiArrayDimension, n)
	}
	for i := range m.Dim {
		m.Dim[i] = MultiArrayDimension{Label: d.String(), Size: d.Uint32(), Stride: d.Uint32()}
	}
	m.DataOffset = d.Uint32()
	m.Data = d.Float64s(m.Data)
}
