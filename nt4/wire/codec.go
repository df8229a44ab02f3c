package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/tinylib/msgp/msgp"
)

// Binary type ids (networktables4.adoc, "Supported Data Types").
const (
	TypeBoolean    = 0
	TypeDouble     = 1
	TypeInt        = 2
	TypeFloat      = 3
	TypeString     = 4
	TypeRaw        = 5
	TypeBooleanArr = 16
	TypeDoubleArr  = 17
	TypeIntArr     = 18
	TypeFloatArr   = 19
	TypeStringArr  = 20
	// MaxMessageBytes bounds a WebSocket message, text or binary.
	MaxMessageBytes = 1 << 20
)

// The subprotocols, in the order a server prefers them.
const (
	ProtoV41 = "v4.1.networktables.first.wpi.edu"
	ProtoV40 = "networktables.first.wpi.edu"
	ProtoRTT = "rtt.networktables.first.wpi.edu"
)

// TypeID is the binary type id of a type string: any type not in the
// table (struct:..., structschema, msgpack, protobuf) is raw.
func TypeID(typ string) uint8 {
	switch typ {
	case "boolean":
		return TypeBoolean
	case "double":
		return TypeDouble
	case "int":
		return TypeInt
	case "float":
		return TypeFloat
	case "string", "json":
		return TypeString
	case "boolean[]":
		return TypeBooleanArr
	case "double[]":
		return TypeDoubleArr
	case "int[]":
		return TypeIntArr
	case "float[]":
		return TypeFloatArr
	case "string[]":
		return TypeStringArr
	}
	return TypeRaw
}

// Control is one JSON control message of a text frame.
type Control struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// DecodeText reads a text frame: a JSON array of control messages.
// Messages that are not objects, or lack a string method or an object
// params, are skipped as the spec says; a frame that is not a JSON array
// is an error.
func DecodeText(b []byte) ([]Control, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("nt4: text frame: %w", err)
	}
	out := make([]Control, 0, len(raw))
	for _, r := range raw {
		var c Control
		if json.Unmarshal(r, &c) != nil || c.Method == "" || len(c.Params) == 0 || c.Params[0] != '{' {
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

// Value is one MessagePack message of a binary frame: [id, timestamp µs,
// type, value]. Raw is the value's MessagePack encoding, within the frame.
type Value struct {
	ID   int64
	Time int64
	Type uint8
	Raw  []byte
}

var errNotMessage = errors.New("nt4: binary frame: not an array of 4")

// DecodeBinary calls f with each message of a binary frame, in order,
// and stops at the first one it cannot read (the spec lets a server drop
// the connection then). It does not allocate.
func DecodeBinary(b []byte, f func(v Value)) error {
	for len(b) > 0 {
		n, rest, err := msgp.ReadArrayHeaderBytes(b)
		if err != nil || n != 4 {
			return errNotMessage
		}
		var v Value
		if v.ID, rest, err = msgp.ReadInt64Bytes(rest); err != nil {
			return fmt.Errorf("nt4: binary frame: id: %w", err)
		}
		if v.Time, rest, err = msgp.ReadInt64Bytes(rest); err != nil {
			return fmt.Errorf("nt4: binary frame: timestamp: %w", err)
		}
		if v.Type, rest, err = msgp.ReadUint8Bytes(rest); err != nil {
			return fmt.Errorf("nt4: binary frame: type: %w", err)
		}
		after, err := msgp.Skip(rest)
		if err != nil {
			return fmt.Errorf("nt4: binary frame: value: %w", err)
		}
		v.Raw = rest[:len(rest)-len(after)]
		f(v)
		b = after
	}
	return nil
}

// Double reads a numeric value (double, float or int) as a float64.
func (v Value) Double() (float64, bool) {
	switch v.Type {
	case TypeDouble, TypeFloat, TypeInt:
	default:
		return 0, false
	}
	switch msgp.NextType(v.Raw) {
	case msgp.Float64Type:
		f, _, err := msgp.ReadFloat64Bytes(v.Raw)
		return f, err == nil
	case msgp.Float32Type:
		f, _, err := msgp.ReadFloat32Bytes(v.Raw)
		return float64(f), err == nil
	case msgp.IntType:
		i, _, err := msgp.ReadInt64Bytes(v.Raw)
		return float64(i), err == nil
	case msgp.UintType:
		u, _, err := msgp.ReadUint64Bytes(v.Raw)
		return float64(u), err == nil
	}
	return math.NaN(), false
}

// Bytes reads a raw value's bytes (MessagePack bin: protobuf, struct and
// other raw types), within v.Raw.
func (v Value) Bytes() ([]byte, bool) {
	b, _, err := msgp.ReadBytesZC(v.Raw)
	return b, err == nil
}

// Text reads a string value (MessagePack str), within v.Raw.
func (v Value) Text() (string, bool) {
	if v.Type != TypeString {
		return "", false
	}
	s, _, err := msgp.ReadStringBytes(v.Raw)
	return s, err == nil
}

// Bool reads a boolean value.
func (v Value) Bool() (bool, bool) {
	if v.Type != TypeBoolean {
		return false, false
	}
	b, _, err := msgp.ReadBoolBytes(v.Raw)
	return b, err == nil
}

// Doubles appends a double[] (or float[], int[]) value's numbers to dst;
// false when it is another type or holds more than max.
func (v Value) Doubles(dst []float64, most int) ([]float64, bool) {
	if v.Type != TypeDoubleArr && v.Type != TypeFloatArr && v.Type != TypeIntArr {
		return dst, false
	}
	n, rest, err := msgp.ReadArrayHeaderBytes(v.Raw)
	if err != nil || int(n) > most {
		return dst, false
	}
	for range n {
		var f float64
		switch msgp.NextType(rest) {
		case msgp.Float64Type:
			f, rest, err = msgp.ReadFloat64Bytes(rest)
		case msgp.Float32Type:
			var g float32
			g, rest, err = msgp.ReadFloat32Bytes(rest)
			f = float64(g)
		default:
			var i int64
			i, rest, err = msgp.ReadInt64Bytes(rest)
			f = float64(i)
		}
		if err != nil {
			return dst, false
		}
		dst = append(dst, f)
	}
	return dst, true
}

// AppendHeader starts a message [id, t, type, ...].
func AppendHeader(b []byte, id int64, t int64, typ uint8) []byte {
	b = msgp.AppendArrayHeader(b, 4)
	if id < 0 {
		b = msgp.AppendInt64(b, id)
	} else {
		b = msgp.AppendUint64(b, uint64(id))
	}
	b = msgp.AppendUint64(b, uint64(max(t, 0)))
	return msgp.AppendUint8(b, typ)
}
