// Package protocommon contains functions and definitions for both TCPROS and UDPROS.
package protocommon

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"sync"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/msg"
)

const (
	maxMessageLength = 16 * 1024 * 1024
)

func readLimited(r io.Reader, buf []byte, mlen *int64) error {
	lb := int64(len(buf))

	if *mlen < lb {
		return fmt.Errorf("message length is too short")
	}

	_, err := io.ReadFull(r, buf)
	if err != nil {
		return err
	}

	*mlen -= lb

	return nil
}

func readLimitedDoNotCheck(r io.Reader, buf []byte, mlen *int64) error {
	lb := int64(len(buf))

	_, err := io.ReadFull(r, buf)
	if err != nil {
		return err
	}

	*mlen -= lb

	return nil
}

func binaryDecodeValue(r io.Reader, dest reflect.Value, mlen *int64, buf []byte) error {
	switch cv := dest.Interface().(type) {
	case *bool:
		err := readLimited(r, buf[:1], mlen)
		if err != nil {
			return err
		}

		b := false
		if buf[0] == 0x01 {
			b = true
		}
		*cv = b

	case *int8:
		err := readLimited(r, buf[:1], mlen)
		if err != nil {
			return err
		}

		*cv = int8(buf[0])

	case *uint8:
		err := readLimited(r, buf[:1], mlen)
		if err != nil {
			return err
		}

		*cv = buf[0]

	case *int16:
		err := readLimited(r, buf[:2], mlen)
		if err != nil {
			return err
		}

		*cv = int16(binary.LittleEndian.Uint16(buf))

	case *uint16:
		err := readLimited(r, buf[:2], mlen)
		if err != nil {
			return err
		}

		*cv = binary.LittleEndian.Uint16(buf)

	case *int32:
		err := readLimited(r, buf[:4], mlen)
		if err != nil {
			return err
		}

		*cv = int32(binary.LittleEndian.Uint32(buf))

	case *uint32:
		err := readLimited(r, buf[:4], mlen)
		if err != nil {
			return err
		}

		*cv = binary.LittleEndian.Uint32(buf)

	case *int64:
		err := readLimited(r, buf[:8], mlen)
		if err != nil {
			return err
		}

		*cv = int64(binary.LittleEndian.Uint64(buf))

	case *uint64:
		err := readLimited(r, buf[:8], mlen)
		if err != nil {
			return err
		}

		*cv = binary.LittleEndian.Uint64(buf)

	case *float32:
		err := readLimited(r, buf[:4], mlen)
		if err != nil {
			return err
		}

		*cv = math.Float32frombits(binary.LittleEndian.Uint32(buf))

	case *float64:
		err := readLimited(r, buf[:8], mlen)
		if err != nil {
			return err
		}

		*cv = math.Float64frombits(binary.LittleEndian.Uint64(buf))

	case *string:
		// string length
		err := readLimited(r, buf[:4], mlen)
		if err != nil {
			return err
		}

		le := int64(binary.LittleEndian.Uint32(buf))
		if le > *mlen {
			return fmt.Errorf("invalid string length")
		}

		// string
		if le > 0 {
			bstr := make([]byte, le)
			err := readLimitedDoNotCheck(r, bstr, mlen)
			if err != nil {
				return err
			}

			*cv = string(bstr)
		} else {
			*cv = ""
		}

	case *time.Time:
		err := readLimited(r, buf[:4], mlen)
		if err != nil {
			return err
		}
		secs := int32(binary.LittleEndian.Uint32(buf))

		err = readLimited(r, buf[:4], mlen)
		if err != nil {
			return err
		}
		nano := int32(binary.LittleEndian.Uint32(buf))

		// special case: zero means year zero, not 1970
		// so time.Time{} can be encoded / decoded
		if secs == 0 && nano == 0 {
			*cv = time.Time{}
		} else {
			*cv = time.Unix(int64(secs), int64(nano)).UTC()
		}

	case *time.Duration:
		err := readLimited(r, buf[:4], mlen)
		if err != nil {
			return err
		}
		secs := int32(binary.LittleEndian.Uint32(buf))

		err = readLimited(r, buf[:4], mlen)
		if err != nil {
			return err
		}
		nano := int32(binary.LittleEndian.Uint32(buf))

		*cv = (time.Second * time.Duration(secs)) + (time.Nanosecond * time.Duration(nano))

	case *[]uint8: // special case for performance
		// slice length
		err := readLimited(r, buf[:4], mlen)
		if err != nil {
			return err
		}

		le := int64(binary.LittleEndian.Uint32(buf))
		if le > *mlen {
			return fmt.Errorf("invalid array length")
		}

		// use preallocated slice if possible, allocate if too small
		if cap(*cv) < int(le) {
			*cv = make([]uint8, le)
		}

		err = readLimitedDoNotCheck(r, (*cv)[:le], mlen)
		if err != nil {
			return err
		}

	default:
		switch dest.Elem().Kind() {
		case reflect.Slice:
			// slice length
			err := readLimited(r, buf[:4], mlen)
			if err != nil {
				return err
			}

			le := int64(binary.LittleEndian.Uint32(buf))

			// slice elements
			for i := 0; i < int(le); i++ {
				el := reflect.New(dest.Elem().Type().Elem())
				el2 := el

				err := binaryDecodeValue(r, el2, mlen, buf)
				if err != nil {
					return err
				}

				dest.Elem().Set(reflect.Append(dest.Elem(), el.Elem()))
			}

		case reflect.Array:
			// array elements
			le := dest.Elem().Len()
			for i := 0; i < le; i++ {
				el := reflect.New(dest.Elem().Type().Elem())
				el2 := el

				err := binaryDecodeValue(r, el2, mlen, buf)
				if err != nil {
					return err
				}

				dest.Elem().Index(i).Set(el.Elem())
			}

		case reflect.Struct:
			// struct fields
			nf := dest.Elem().NumField()
			for i := 0; i < nf; i++ {
				f := dest.Elem().Field(i)
				ft := dest.Elem().Type().Field(i)

				if ft.Anonymous && ft.Type == reflect.TypeOf(msg.Package(0)) {
					continue
				}

				if ft.Anonymous && ft.Type == reflect.TypeOf(msg.Name(0)) {
					continue
				}

				if ft.Anonymous && ft.Type == reflect.TypeOf(msg.Definitions(0)) {
					continue
				}

				f = f.Addr()

				err := binaryDecodeValue(r, f, mlen, buf)
				if err != nil {
					return err
				}
			}
		}
	}

	return nil
}

// MessageDecode decodes a message in binary format.
func MessageDecode(r io.Reader, dest interface{}) error {
	return MessageDecodeLimit(r, dest, maxMessageLength)
}

// ErrMessageTooLong is MessageDecodeLimit's error for a message over its
// limit. (frcd's fork.)
var ErrMessageTooLong = errors.New("maximum message length exceeded")

// MessageDecodeLimit is MessageDecode refusing, before reading it, a
// message longer than limit bytes (ErrMessageTooLong). (frcd's fork: a
// subscriber of a small type need not take 16 MiB.)
func MessageDecodeLimit(r io.Reader, dest interface{}, limit int64) error {
	rv := reflect.ValueOf(dest)
	if rv.Kind() != reflect.Ptr || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("destination must be a pointer to a struct")
	}

	// use a shared buffer for performance reasons
	buf := make([]byte, 8)

	// message length
	_, err := io.ReadFull(r, buf[:4])
	if err != nil {
		return err
	}
	mlen := int64(binary.LittleEndian.Uint32(buf))

	if limit > maxMessageLength {
		limit = maxMessageLength
	}
	if mlen > limit {
		return fmt.Errorf("%w: %d bytes, the limit is %d", ErrMessageTooLong, mlen, limit)
	}

	// message
	err = binaryDecodeValue(r, rv, &mlen, buf)
	if err != nil {
		return err
	}

	if mlen != 0 {
		return fmt.Errorf("message was partially parsed, %d bytes are unread", mlen)
	}

	return nil
}

// MaxMessageLength is the largest message MessageDecode takes.
const MaxMessageLength = maxMessageLength

var timeType = reflect.TypeOf(time.Time{})

// FixedSize is the encoded length of every message of type t when t has
// no variable-length field (no slice, no string), without the length
// prefix; false otherwise. (frcd's fork: the natural limit of a
// subscriber of such a type.)
func FixedSize(t reflect.Type) (int64, bool) {
	if t == timeType {
		return 8, true
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int8, reflect.Uint8:
		return 1, true
	case reflect.Int16, reflect.Uint16:
		return 2, true
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		return 4, true
	case reflect.Int64, reflect.Uint64, reflect.Float64:
		return 8, true
	case reflect.Array:
		n, ok := FixedSize(t.Elem())
		return n * int64(t.Len()), ok
	case reflect.Struct:
		var n int64
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Anonymous && (f.Type == reflect.TypeOf(msg.Package(0)) || f.Type == reflect.TypeOf(msg.Name(0)) ||
				f.Type == reflect.TypeOf(msg.Definitions(0))) {
				continue // markers, not encoded (as binaryDecodeValue skips them)
			}
			m, ok := FixedSize(f.Type)
			if !ok {
				return 0, false
			}
			n += m
		}
		return n, true
	}
	return 0, false
}

// maxPooledEncodeBuf is the largest buffer MessageEncode keeps for reuse.
const maxPooledEncodeBuf = 64 * 1024

var encodeBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// MessageEncode encodes a message in binary format, its length first.
// It encodes with MessageAppend into a pooled buffer.
func MessageEncode(w io.Writer, src interface{}) error {
	bp := encodeBufs.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= maxPooledEncodeBuf {
			encodeBufs.Put(bp)
		}
	}()

	b, err := MessageAppend((*bp)[:0], src)
	if err != nil {
		return err
	}
	*bp = b

	_, err = w.Write(b)
	return err
}
