package protocommon

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"sync"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/msg"
)

// An encoder appends the binary form of one value to b. It is built once
// per type (encoderFor) and reads the value through reflect's typed
// accessors, so that encoding boxes nothing and allocates only when b
// must grow. Its output is byte for byte that of binaryEncodeValue
// (encoder_test.go compares them).
type encoder func(b []byte, v reflect.Value) []byte

var (
	encoders sync.Map // reflect.Type -> encoder

	typeBool     = reflect.TypeOf(false)
	typeInt8     = reflect.TypeOf(int8(0))
	typeUint8    = reflect.TypeOf(uint8(0))
	typeInt16    = reflect.TypeOf(int16(0))
	typeUint16   = reflect.TypeOf(uint16(0))
	typeInt32    = reflect.TypeOf(int32(0))
	typeUint32   = reflect.TypeOf(uint32(0))
	typeInt64    = reflect.TypeOf(int64(0))
	typeUint64   = reflect.TypeOf(uint64(0))
	typeFloat32  = reflect.TypeOf(float32(0))
	typeFloat64  = reflect.TypeOf(float64(0))
	typeString   = reflect.TypeOf("")
	typeTime     = reflect.TypeOf(time.Time{})
	typeDuration = reflect.TypeOf(time.Duration(0))
	typeBytes    = reflect.TypeOf([]uint8(nil))
	typePackage  = reflect.TypeOf(msg.Package(0))
	typeName     = reflect.TypeOf(msg.Name(0))
	typeDefs     = reflect.TypeOf(msg.Definitions(0))
)

func appendU32(b []byte, u uint32) []byte { return binary.LittleEndian.AppendUint32(b, u) }

func appendSecNsec(b []byte, nano int64) []byte {
	b = appendU32(b, uint32(nano/1000000000))
	return appendU32(b, uint32(nano%1000000000))
}

// encoderFor returns the encoder of t, building it on first use.
func encoderFor(t reflect.Type) encoder {
	if e, ok := encoders.Load(t); ok {
		return e.(encoder)
	}
	// A recursive type would recurse here forever; ROS messages cannot be
	// recursive, and msgproc refuses them before a publisher exists.
	e := buildEncoder(t)
	encoders.Store(t, e)
	return e
}

// buildEncoder mirrors binaryEncodeValue's type switch: the exact basic
// types, time.Time, time.Duration and []uint8 first, then slices, arrays
// and structs by kind; any other type (a named scalar type, a map, a
// pointer) encodes to nothing, as it did there.
func buildEncoder(t reflect.Type) encoder {
	switch t {
	case typeBool:
		return func(b []byte, v reflect.Value) []byte {
			if v.Bool() {
				return append(b, 1)
			}
			return append(b, 0)
		}
	case typeInt8, typeInt16, typeInt32, typeInt64:
		size := t.Size()
		return func(b []byte, v reflect.Value) []byte {
			return appendUint(b, uint64(v.Int()), size)
		}
	case typeUint8, typeUint16, typeUint32, typeUint64:
		size := t.Size()
		return func(b []byte, v reflect.Value) []byte {
			return appendUint(b, v.Uint(), size)
		}
	case typeFloat32:
		return func(b []byte, v reflect.Value) []byte {
			if v.CanAddr() {
				return appendU32(b, math.Float32bits(*(*float32)(v.Addr().UnsafePointer())))
			}
			return appendU32(b, math.Float32bits(float32(v.Float())))
		}
	case typeFloat64:
		return func(b []byte, v reflect.Value) []byte {
			return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Float()))
		}
	case typeString:
		return func(b []byte, v reflect.Value) []byte {
			s := v.String()
			b = appendU32(b, uint32(len(s)))
			return append(b, s...)
		}
	case typeTime:
		return func(b []byte, v reflect.Value) []byte {
			var t time.Time
			if v.CanAddr() {
				t = *(*time.Time)(v.Addr().UnsafePointer())
			} else {
				t = v.Interface().(time.Time)
			}
			// zero is year zero, not 1970, so that time.Time{} round-trips
			if t == (time.Time{}) {
				return appendSecNsec(b, 0)
			}
			return appendSecNsec(b, t.UnixNano())
		}
	case typeDuration:
		return func(b []byte, v reflect.Value) []byte {
			return appendSecNsec(b, v.Int())
		}
	case typeBytes:
		return func(b []byte, v reflect.Value) []byte {
			p := v.Bytes()
			b = appendU32(b, uint32(len(p)))
			return append(b, p...)
		}
	}

	switch t.Kind() {
	case reflect.Slice:
		elem := encoderFor(t.Elem())
		return func(b []byte, v reflect.Value) []byte {
			n := v.Len()
			b = appendU32(b, uint32(n))
			for i := 0; i < n; i++ {
				b = elem(b, v.Index(i))
			}
			return b
		}

	case reflect.Array:
		elem := encoderFor(t.Elem())
		n := t.Len()
		return func(b []byte, v reflect.Value) []byte {
			for i := 0; i < n; i++ {
				b = elem(b, v.Index(i))
			}
			return b
		}

	case reflect.Struct:
		type field struct {
			index int
			enc   encoder
		}
		var fields []field
		for i := 0; i < t.NumField(); i++ {
			ft := t.Field(i)
			if ft.Anonymous && (ft.Type == typePackage || ft.Type == typeName || ft.Type == typeDefs) {
				continue
			}
			fields = append(fields, field{i, encoderFor(ft.Type)})
		}
		return func(b []byte, v reflect.Value) []byte {
			for _, f := range fields {
				b = f.enc(b, v.Field(f.index))
			}
			return b
		}
	}

	return func(b []byte, _ reflect.Value) []byte { return b }
}

func appendUint(b []byte, u uint64, size uintptr) []byte {
	switch size {
	case 1:
		return append(b, byte(u))
	case 2:
		return binary.LittleEndian.AppendUint16(b, uint16(u))
	case 4:
		return appendU32(b, uint32(u))
	}
	return binary.LittleEndian.AppendUint64(b, u)
}

// MessageAppend appends to b the binary form of the message src (a
// pointer to a struct) as TCPROS frames it: its length as a little-endian
// uint32, then its fields. It allocates only to grow b, so a caller that
// keeps b encodes without allocating in the steady state.
func MessageAppend(b []byte, src interface{}) ([]byte, error) {
	rv := reflect.ValueOf(src)
	if rv.Kind() != reflect.Ptr || rv.Elem().Kind() != reflect.Struct {
		return b, fmt.Errorf("src must be a pointer to a struct")
	}
	if rv.IsNil() {
		return b, fmt.Errorf("src is a nil pointer")
	}
	start := len(b)
	b = append(b, 0, 0, 0, 0)
	b = encoderFor(rv.Elem().Type())(b, rv.Elem())
	binary.LittleEndian.PutUint32(b[start:], uint32(len(b)-start-4))
	return b, nil
}
