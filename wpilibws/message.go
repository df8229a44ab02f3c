package wpilibws

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"unicode/utf8"
)

// Message is one decoded text frame: {"type": ..., "device": ...,
// "data": {...}}, the data's values left undecoded.
type Message struct {
	Type, Device string
	Data         map[string]json.RawMessage
}

// Errors of Decode; the spec says such messages are ignored.
var (
	ErrNotObject = errors.New("wpilibws: message is not a JSON object")
	ErrFields    = errors.New(`wpilibws: message needs a string "type", a string "device" and an object "data"`)
)

// Decode reads one message, refusing what the spec says to ignore: not an
// object, or no string type, no string device, no object data.
func Decode(b []byte) (Message, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil || top == nil {
		return Message{}, ErrNotObject
	}
	var m Message
	if json.Unmarshal(top["type"], &m.Type) != nil || json.Unmarshal(top["device"], &m.Device) != nil ||
		!isString(top["type"]) || !isString(top["device"]) {
		return Message{}, ErrFields
	}
	if json.Unmarshal(top["data"], &m.Data) != nil || m.Data == nil {
		return Message{}, ErrFields
	}
	return m, nil
}

func isString(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '"'
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// kind is a data value's JSON type.
type kind uint8

const (
	kBool kind = iota + 1
	kFloat
	kInt
	kString
	kRaw // a JSON text made elsewhere (the joystick arrays)
)

// value is one data value.
type value struct {
	k kind
	b bool
	f float64
	i int64
	s string // kString, kRaw
}

func boolV(b bool) value     { return value{k: kBool, b: b} }
func floatV(f float64) value { return value{k: kFloat, f: f} }
func intV(i int64) value     { return value{k: kInt, i: i} }
func strV(s string) value    { return value{k: kString, s: s} }

// same compares two values; NaNs (sent as null) are alike.
func (v value) same(w value) bool {
	if v.k == kFloat && w.k == kFloat && math.IsNaN(v.f) && math.IsNaN(w.f) {
		return true
	}
	return v == w
}

func (v value) append(b []byte) []byte {
	switch v.k {
	case kBool:
		return strconv.AppendBool(b, v.b)
	case kFloat:
		if math.IsNaN(v.f) || math.IsInf(v.f, 0) {
			return append(b, "null"...) // JSON has no NaN or infinity
		}
		return strconv.AppendFloat(b, v.f, 'g', -1, 64)
	case kInt:
		return strconv.AppendInt(b, v.i, 10)
	case kString:
		return appendString(b, v.s)
	case kRaw:
		return append(b, v.s...)
	}
	return append(b, "null"...)
}

// appendString appends s as a JSON string, escaping only what JSON
// requires (so "<" and ">" stay readable); invalid UTF-8 becomes U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, r := range s { // invalid UTF-8 ranges as utf8.RuneError, U+FFFD
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xF])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// field is one data key and its value.
type field struct {
	key string
	v   value
}

// appendMessage encodes a message with its data keys in order.
func appendMessage(b []byte, typ, dev string, fields []field) []byte {
	b = append(b, `{"type":`...)
	b = appendString(b, typ)
	b = append(b, `,"device":`...)
	b = appendString(b, dev)
	b = append(b, `,"data":{`...)
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, f.key)
		b = append(b, ':')
		b = f.v.append(b)
	}
	return append(b, "}}"...)
}

// inputKeys are, per message type, the robot inputs frcd takes and each
// one's JSON type. Keys not listed are ignored, as the spec says; types
// not listed carry no input frcd takes.
var inputKeys = map[string]map[string]kind{
	"DriverStation": {">new_data": kBool, ">enabled": kBool, ">autonomous": kBool, ">test": kBool, ">estop": kBool,
		">fms": kBool, ">ds": kBool, ">station": kString, ">match_time": kFloat, ">game_data": kString,
		">opmode": kString},
	"Joystick": {">axes": kRaw, ">buttons": kRaw, ">povs": kRaw},
	"DIO":      {"<>value": kBool},
	"AI":       {">voltage": kFloat},
	"Encoder":  {">count": kInt, ">period": kFloat},
	"Gyro": {">connected": kBool, ">angle_x": kFloat, ">angle_y": kFloat, ">angle_z": kFloat,
		">rate_x": kFloat, ">rate_y": kFloat, ">rate_z": kFloat},
	"Accel": {">x": kFloat, ">y": kFloat, ">z": kFloat},
}

// outputTypes are the spec's other types: frcd sends some, and takes
// nothing from them.
var outputTypes = map[string]bool{"PWM": true, "Relay": true, "Solenoid": true, "dPWM": true, "DutyCycle": true,
	"CANMotor": true, "CANEncoder": true, "CANGyro": true, "CANAccel": true, "CANAIn": true, "CANDIO": true,
	"CANDutyCycle": true, "RoboRIO": true, "SimDevice": true}

var stations = map[string]bool{"red1": true, "red2": true, "red3": true, "blue1": true, "blue2": true, "blue3": true}

// input is a message's robot inputs, checked: the values frcd takes, the
// keys sent as null (an override to end), and how many values it refused.
type input struct {
	typ     string
	channel int    // DIO, AI, Encoder, Joystick: the device number
	name    string // Gyro, Accel: the device name
	vals    map[string]value
	nulls   []string
	joy     joyInput
	bad     int
}

// joyInput is a Joystick message's arrays; nil when not sent.
type joyInput struct {
	axes    []float64
	buttons []bool
	povs    []int
}

// numbered are the types whose device is a number.
var numbered = map[string]int{"DIO": numDIO, "AI": numAI, "Encoder": 1 << 20, "Joystick": numJoysticks}

// parseInput checks a message's inputs. known is false for a type the
// spec does not have (or frcd does not know); its values are then not
// looked at. Values of the wrong type, out of range or not finite are
// counted in bad and dropped.
func parseInput(m Message) (in input, known bool) {
	keys, ok := inputKeys[m.Type]
	if !ok {
		return input{typ: m.Type}, outputTypes[m.Type]
	}
	in = input{typ: m.Type, name: m.Device, vals: map[string]value{}}
	if n, ok := numbered[m.Type]; ok {
		ch, err := strconv.Atoi(m.Device)
		if err != nil || ch < 0 || ch >= n {
			in.bad = len(m.Data)
			in.vals = nil
			return in, true
		}
		in.channel = ch
	}
	for key, raw := range m.Data {
		k, ok := keys[key]
		switch {
		case !ok:
			continue
		case isNull(raw):
			in.nulls = append(in.nulls, key)
			continue
		}
		if m.Type == "Joystick" {
			if !in.joy.parse(key, raw) {
				in.bad++
			}
			continue
		}
		v, ok := decodeValue(k, raw)
		if ok && key == ">station" {
			ok = stations[v.s]
		}
		if !ok {
			in.bad++
			continue
		}
		in.vals[key] = v
	}
	return in, true
}

// decodeValue reads a value of kind k: a bool, a finite number, an
// integer (a number with no fraction) or a string.
func decodeValue(k kind, raw json.RawMessage) (value, bool) {
	switch k {
	case kBool:
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return value{}, false
		}
		return boolV(b), true
	case kFloat:
		var f float64
		if json.Unmarshal(raw, &f) != nil {
			return value{}, false
		}
		return floatV(f), true // JSON numbers are finite
	case kInt:
		var f float64
		if json.Unmarshal(raw, &f) != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return value{}, false
		}
		return intV(int64(f)), true
	case kString:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return value{}, false
		}
		return strV(s), true
	}
	return value{}, false
}

// parse reads one of a Joystick message's arrays; false when it is not an
// array of the right element type or is longer than the Driver Station
// allows.
func (j *joyInput) parse(key string, raw json.RawMessage) bool {
	switch key {
	case ">axes":
		var a []float64
		if json.Unmarshal(raw, &a) != nil || a == nil || len(a) > maxAxes {
			return false
		}
		j.axes = a
	case ">buttons":
		var a []bool
		if json.Unmarshal(raw, &a) != nil || a == nil || len(a) > maxButtons {
			return false
		}
		j.buttons = a
	case ">povs":
		var a []float64
		if json.Unmarshal(raw, &a) != nil || a == nil || len(a) > maxPOVs {
			return false
		}
		p := make([]int, len(a))
		for i, x := range a {
			if x != math.Trunc(x) || x < -1 || x >= 360 {
				return false
			}
			p[i] = int(x)
		}
		j.povs = p
	}
	return true
}
