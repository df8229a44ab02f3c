package protocommon

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/msg"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/diagnostic_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/geometry_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/nav_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/rosgraph_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"
)

// referenceEncode is v2.1.5's MessageEncode, kept here as the reference
// the compiled encoder must match byte for byte.
func referenceEncode(src interface{}) []byte {
	var vw bytes.Buffer
	referenceEncodeValue(&vw, reflect.ValueOf(src), make([]byte, 8))
	out := binary.LittleEndian.AppendUint32(nil, uint32(vw.Len()))
	return append(out, vw.Bytes()...)
}

func referenceEncodeValue(w *bytes.Buffer, src reflect.Value, dest []byte) {
	switch cv := src.Elem().Interface().(type) {
	case bool:
		b := uint8(0x00)
		if cv {
			b = 0x01
		}
		w.Write([]byte{b})

	case int8:
		w.Write([]byte{uint8(cv)})

	case uint8:
		w.Write([]byte{cv})

	case int16:
		binary.LittleEndian.PutUint16(dest, uint16(cv))
		w.Write(dest[:2])

	case uint16:
		binary.LittleEndian.PutUint16(dest, cv)
		w.Write(dest[:2])

	case int32:
		binary.LittleEndian.PutUint32(dest, uint32(cv))
		w.Write(dest[:4])

	case uint32:
		binary.LittleEndian.PutUint32(dest, cv)
		w.Write(dest[:4])

	case int64:
		binary.LittleEndian.PutUint64(dest, uint64(cv))
		w.Write(dest[:8])

	case uint64:
		binary.LittleEndian.PutUint64(dest, cv)
		w.Write(dest[:8])

	case float32:
		binary.LittleEndian.PutUint32(dest, math.Float32bits(cv))
		w.Write(dest[:4])

	case float64:
		binary.LittleEndian.PutUint64(dest, math.Float64bits(cv))
		w.Write(dest[:8])

	case string:
		bstr := []byte(cv)

		// string length
		binary.LittleEndian.PutUint32(dest, uint32(len(bstr)))
		w.Write(dest[:4])

		// string
		w.Write(bstr)

	case time.Time:
		// special case: zero means year zero, not 1970
		// so time.Time{} can be encoded / decoded
		var nano int64
		var zero time.Time
		if cv == zero {
			nano = 0
		} else {
			nano = cv.UnixNano()
		}

		binary.LittleEndian.PutUint32(dest, uint32(nano/1000000000))
		w.Write(dest[:4])

		binary.LittleEndian.PutUint32(dest, uint32(nano%1000000000))
		w.Write(dest[:4])

	case time.Duration:
		nano := cv.Nanoseconds()

		binary.LittleEndian.PutUint32(dest, uint32(nano/1000000000))
		w.Write(dest[:4])

		binary.LittleEndian.PutUint32(dest, uint32(nano%1000000000))
		w.Write(dest[:4])

	case []uint8: // special case for performance
		binary.LittleEndian.PutUint32(dest, uint32(len(cv)))
		w.Write(dest[:4])
		w.Write(cv)

	default:
		switch src.Elem().Kind() {
		case reflect.Slice:
			le := src.Elem().Len()

			// slice length
			binary.LittleEndian.PutUint32(dest, uint32(le))
			w.Write(dest[:4])

			// slice elements
			for i := 0; i < le; i++ {
				el := src.Elem().Index(i).Addr()

				referenceEncodeValue(w, el, dest)
			}

		case reflect.Array:
			le := src.Elem().Len()

			// array elements
			for i := 0; i < le; i++ {
				el := src.Elem().Index(i).Addr()

				referenceEncodeValue(w, el, dest)
			}

		case reflect.Struct:
			// struct fields
			nf := src.Elem().NumField()
			for i := 0; i < nf; i++ {
				ft := src.Elem().Type().Field(i)

				if ft.Anonymous && ft.Type == reflect.TypeOf(msg.Package(0)) {
					continue
				}

				if ft.Anonymous && ft.Type == reflect.TypeOf(msg.Name(0)) {
					continue
				}

				if ft.Anonymous && ft.Type == reflect.TypeOf(msg.Definitions(0)) {
					continue
				}

				f := src.Elem().Field(i).Addr()
				referenceEncodeValue(w, f, dest)
			}
		}
	}
}

type encodeNested struct {
	A int8
	B []string
}

type encodeNamed int32

type encodeAll struct {
	msg.Package `ros:"test_pkg"`
	Bo          bool
	I8          int8
	U8          uint8
	I16         int16
	U16         uint16
	I32         int32
	U32         uint32
	I64         int64
	U64         uint64
	F32         float32
	F64         float64
	S           string
	T           time.Time
	TZero       time.Time
	D           time.Duration
	Bytes       []uint8
	Arr         [3]float32
	ArrB        [2]uint8
	Sl          []float64
	Nested      encodeNested
	Nesteds     []encodeNested
	NestArr     [2]encodeNested
	Named       encodeNamed // a named scalar encodes to nothing, as in v2.1.5
	Empty       []int16
}

func encodeSamples() []interface{} {
	return []interface{}{
		&encodeAll{
			Bo: true, I8: -3, U8: 250, I16: -30000, U16: 65000, I32: -2000000000, U32: 4000000000,
			I64: -1 << 62, U64: 1<<64 - 1, F32: -1.5e-7, F64: math.Inf(-1), S: "héllo",
			T: time.Unix(1700000000, 123456789), D: -3*time.Second - 5, Bytes: []byte{1, 2, 3},
			Arr: [3]float32{1, float32(math.NaN()), -0}, ArrB: [2]uint8{9, 8}, Sl: []float64{0.1, -0.2},
			Nested: encodeNested{A: 1, B: []string{"a", ""}}, Nesteds: []encodeNested{{A: 2}, {A: -3, B: []string{"x"}}},
			NestArr: [2]encodeNested{{A: 4}}, Named: 7,
		},
		&encodeAll{},
		&sensor_msgs.JointState{
			Header:   std_msgs.Header{Seq: 42, Stamp: time.Unix(12, 34), FrameId: "base"},
			Name:     []string{"left_drive", "right_drive", "arm"},
			Position: []float64{1, 2, 3}, Velocity: []float64{-1, 0, 0.5}, Effort: []float64{0, 0, 12.25},
		},
		&diagnostic_msgs.DiagnosticArray{
			Header: std_msgs.Header{Stamp: time.Unix(5, 0)},
			Status: []diagnostic_msgs.DiagnosticStatus{{Level: 2, Name: "pdp", Message: "ok", HardwareId: "can0/1",
				Values: []diagnostic_msgs.KeyValue{{Key: "voltage", Value: "12.3"}}}},
		},
	}
}

func TestMessageAppendMatchesReference(t *testing.T) {
	for _, m := range encodeSamples() {
		want := referenceEncode(m)
		got, err := MessageAppend([]byte{0xAA}, m)
		if err != nil {
			t.Fatal(err)
		}
		if got[0] != 0xAA || !bytes.Equal(got[1:], want) {
			t.Errorf("%T: MessageAppend\n%x\nwant\n%x", m, got[1:], want)
		}
		var w bytes.Buffer
		if err := MessageEncode(&w, m); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(w.Bytes(), want) {
			t.Errorf("%T: MessageEncode\n%x\nwant\n%x", m, w.Bytes(), want)
		}
	}
}

func TestMessageAppendRoundTrip(t *testing.T) {
	in := encodeSamples()[2].(*sensor_msgs.JointState)
	b, err := MessageAppend(nil, in)
	if err != nil {
		t.Fatal(err)
	}
	var out sensor_msgs.JointState
	if err := MessageDecode(bytes.NewReader(b), &out); err != nil {
		t.Fatal(err)
	}
	in.Header.Stamp = in.Header.Stamp.UTC()
	if !reflect.DeepEqual(in, &out) {
		t.Errorf("decoded %+v, want %+v", out, *in)
	}
}

func TestMessageAppendRefuses(t *testing.T) {
	for _, src := range []interface{}{nil, 3, encodeAll{}, (*encodeAll)(nil), new(int)} {
		if _, err := MessageAppend(nil, src); err == nil {
			t.Errorf("MessageAppend(%#v): no error", src)
		}
	}
}

// The publisher encodes every message into one buffer it keeps: once
// that buffer is large enough, encoding allocates nothing (v2.1.5's
// boxed each field).
func TestMessageAppendDoesNotAllocate(t *testing.T) {
	for _, m := range encodeSamples() {
		b, _ := MessageAppend(nil, m)
		if n := testing.AllocsPerRun(100, func() { b, _ = MessageAppend(b[:0], m) }); n != 0 {
			t.Errorf("%T: %v allocations per encode, want 0", m, n)
		}
	}
}

func BenchmarkMessageAppend(b *testing.B) {
	m := encodeSamples()[2]
	buf, _ := MessageAppend(nil, m)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf, _ = MessageAppend(buf[:0], m)
	}
}

func BenchmarkReferenceEncode(b *testing.B) {
	m := encodeSamples()[2]
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		referenceEncode(m)
	}
}

// fill sets every field of v to a value drawn from seed, growing slices
// to 1-3 elements, so that each message type is compared with data in
// every field.
func fill(v reflect.Value, seed *uint64) {
	*seed = *seed*6364136223846793005 + 1442695040888963407
	r := *seed >> 33
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(r%2 == 1)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Type() == reflect.TypeOf(time.Duration(0)) {
			v.SetInt(int64(r) * 1000)
			return
		}
		v.SetInt(int64(r) - 1<<30)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(r))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(int64(r)-1<<30) / 7)
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", r))
	case reflect.Slice:
		n := int(r%3) + 1
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := 0; i < n; i++ {
			fill(v.Index(i), seed)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fill(v.Index(i), seed)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			v.Set(reflect.ValueOf(time.Unix(int64(r), int64(r%1000000000))))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), seed)
			}
		}
	}
}

// Every message type frcd publishes or serves, filled, encodes as with
// v2.1.5.
func TestMessageAppendMatchesReferenceAllTypes(t *testing.T) {
	seed := uint64(1)
	for _, m := range []interface{}{
		&std_msgs.Float64{}, &std_msgs.Bool{}, &std_msgs.Int8{}, &std_msgs.String{}, &std_msgs.Float64MultiArray{},
		&std_msgs.Header{}, &std_msgs.Time{}, &std_msgs.Duration{}, &std_msgs.UInt8MultiArray{},
		&sensor_msgs.JointState{}, &sensor_msgs.Imu{}, &nav_msgs.Odometry{}, &geometry_msgs.TransformStamped{},
		&diagnostic_msgs.DiagnosticArray{}, &rosgraph_msgs.Log{}, &rosgraph_msgs.Clock{},
	} {
		for i := 0; i < 20; i++ {
			fill(reflect.ValueOf(m).Elem(), &seed)
			want := referenceEncode(m)
			got, err := MessageAppend(nil, m)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%T: MessageAppend\n%x\nwant\n%x", m, got, want)
			}
		}
	}
}
