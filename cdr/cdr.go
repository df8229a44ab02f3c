package cdr

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Encapsulation is the representation identifier at the head of a
// serialized payload, as a big-endian 16-bit number.
type Encapsulation uint16

// The XCDR1 representation identifiers (DDS-XTypes 1.3 §7.6.3.1.2).
const (
	CDRBE   Encapsulation = 0x0000
	CDRLE   Encapsulation = 0x0001
	PLCDRBE Encapsulation = 0x0002
	PLCDRLE Encapsulation = 0x0003
)

// HeaderSize is the size of the encapsulation header.
const HeaderSize = 4

// LittleEndian says whether the encapsulation is little endian.
func (e Encapsulation) LittleEndian() bool { return e&1 == 1 }

// Errors of decoding, to test with errors.Is.
var (
	ErrShort    = errors.New("cdr: payload ends inside a field")
	ErrHeader   = errors.New("cdr: unknown or missing encapsulation header")
	ErrString   = errors.New("cdr: malformed string")
	ErrSequence = errors.New("cdr: sequence longer than the payload")
)

// Encoder appends CDR to a buffer. The zero Encoder is not ready: call
// Reset. It never fails; a value is written as the wire form of its type.
type Encoder struct {
	b     []byte
	base  int // index of the first byte after the header: alignment origin
	order binary.AppendByteOrder
}

// Reset starts a payload in buf (appending to it, so buf[:0] reuses its
// storage) with the encapsulation header of enc (CDRLE or CDRBE).
func (e *Encoder) Reset(buf []byte, enc Encapsulation) {
	e.order = binary.BigEndian
	if enc.LittleEndian() {
		e.order = binary.LittleEndian
	}
	e.b = append(buf, byte(enc>>8), byte(enc), 0, 0)
	e.base = len(e.b)
}

// Bytes returns the payload so far, the header included.
func (e *Encoder) Bytes() []byte { return e.b }

func (e *Encoder) align(n int) {
	for (len(e.b)-e.base)%n != 0 {
		e.b = append(e.b, 0)
	}
}

// Bool writes a boolean as one byte.
func (e *Encoder) Bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

// Uint8 writes an octet.
func (e *Encoder) Uint8(v uint8) { e.b = append(e.b, v) }

// Int8 writes an int8.
func (e *Encoder) Int8(v int8) { e.b = append(e.b, byte(v)) }

// Uint16 writes a uint16, aligned to 2.
func (e *Encoder) Uint16(v uint16) { e.align(2); e.b = e.order.AppendUint16(e.b, v) }

// Int16 writes an int16, aligned to 2.
func (e *Encoder) Int16(v int16) { e.Uint16(uint16(v)) }

// Uint32 writes a uint32, aligned to 4.
func (e *Encoder) Uint32(v uint32) { e.align(4); e.b = e.order.AppendUint32(e.b, v) }

// Int32 writes an int32, aligned to 4.
func (e *Encoder) Int32(v int32) { e.Uint32(uint32(v)) }

// Uint64 writes a uint64, aligned to 8 (XCDR1).
func (e *Encoder) Uint64(v uint64) { e.align(8); e.b = e.order.AppendUint64(e.b, v) }

// Int64 writes an int64, aligned to 8.
func (e *Encoder) Int64(v int64) { e.Uint64(uint64(v)) }

// Float32 writes an IEEE 754 single, aligned to 4.
func (e *Encoder) Float32(v float32) { e.Uint32(math.Float32bits(v)) }

// Float64 writes an IEEE 754 double, aligned to 8.
func (e *Encoder) Float64(v float64) { e.Uint64(math.Float64bits(v)) }

// String writes a string: its length with the NUL, the bytes, a NUL.
func (e *Encoder) String(s string) {
	e.Uint32(uint32(len(s) + 1))
	e.b = append(e.b, s...)
	e.b = append(e.b, 0)
}

// SeqLen writes a sequence's element count; the elements follow.
func (e *Encoder) SeqLen(n int) { e.Uint32(uint32(n)) }

// Octets writes a sequence<octet>: its count then the bytes.
func (e *Encoder) Octets(p []byte) {
	e.SeqLen(len(p))
	e.b = append(e.b, p...)
}

// Float64s writes a sequence<double>.
func (e *Encoder) Float64s(v []float64) {
	e.SeqLen(len(v))
	for _, x := range v {
		e.Float64(x)
	}
}

// Strings writes a sequence<string>.
func (e *Encoder) Strings(v []string) {
	e.SeqLen(len(v))
	for _, s := range v {
		e.String(s)
	}
}

// Decoder reads CDR from a payload. The first error sticks: later reads
// return zero values, and Err reports it, so a message's decoder reads
// every field and checks once.
type Decoder struct {
	b     []byte
	off   int
	base  int
	order binary.ByteOrder
	err   error
}

// NewDecoder starts reading payload, which must begin with a CDR_LE or
// CDR_BE encapsulation header.
func NewDecoder(payload []byte) (*Decoder, error) {
	d := new(Decoder)
	return d, d.Reset(payload)
}

// Reset starts reading payload (as NewDecoder, reusing d).
func (d *Decoder) Reset(payload []byte) error {
	*d = Decoder{b: payload}
	if len(payload) < HeaderSize {
		d.err = ErrHeader
		return d.err
	}
	switch enc := Encapsulation(binary.BigEndian.Uint16(payload)); enc {
	case CDRLE:
		d.order = binary.LittleEndian
	case CDRBE:
		d.order = binary.BigEndian
	default:
		d.err = fmt.Errorf("%w: 0x%04x", ErrHeader, uint16(enc))
		return d.err
	}
	d.off, d.base = HeaderSize, HeaderSize
	return nil
}

// Err is the first error met, or nil.
func (d *Decoder) Err() error { return d.err }

// Fail records err, unless an error came first, and ends the decoding
// (what follows reads zeros): a message's own check of what it read.
func (d *Decoder) Fail(err error) { d.fail(err) }

// Remaining is the number of unread bytes.
func (d *Decoder) Remaining() int { return len(d.b) - d.off }

// take returns the next n bytes after aligning to align, or nil after an
// error.
func (d *Decoder) take(n, align int) []byte {
	if d.err != nil {
		return nil
	}
	if align > 1 {
		if r := (d.off - d.base) % align; r != 0 {
			d.off += align - r
		}
	}
	if n < 0 || d.off > len(d.b) || len(d.b)-d.off < n {
		d.err = ErrShort
		d.off = len(d.b)
		return nil
	}
	p := d.b[d.off : d.off+n]
	d.off += n
	return p
}

// Bool reads a boolean; any non-zero byte is true.
func (d *Decoder) Bool() bool { return d.Uint8() != 0 }

// Uint8 reads an octet.
func (d *Decoder) Uint8() uint8 {
	if p := d.take(1, 1); p != nil {
		return p[0]
	}
	return 0
}

// Int8 reads an int8.
func (d *Decoder) Int8() int8 { return int8(d.Uint8()) }

// Uint16 reads a uint16.
func (d *Decoder) Uint16() uint16 {
	if p := d.take(2, 2); p != nil {
		return d.order.Uint16(p)
	}
	return 0
}

// Int16 reads an int16.
func (d *Decoder) Int16() int16 { return int16(d.Uint16()) }

// Uint32 reads a uint32.
func (d *Decoder) Uint32() uint32 {
	if p := d.take(4, 4); p != nil {
		return d.order.Uint32(p)
	}
	return 0
}

// Int32 reads an int32.
func (d *Decoder) Int32() int32 { return int32(d.Uint32()) }

// Uint64 reads a uint64.
func (d *Decoder) Uint64() uint64 {
	if p := d.take(8, 8); p != nil {
		return d.order.Uint64(p)
	}
	return 0
}

// Int64 reads an int64.
func (d *Decoder) Int64() int64 { return int64(d.Uint64()) }

// Float32 reads a single.
func (d *Decoder) Float32() float32 { return math.Float32frombits(d.Uint32()) }

// Float64 reads a double.
func (d *Decoder) Float64() float64 { return math.Float64frombits(d.Uint64()) }

// String reads a string. Its length must count a terminating NUL that is
// there; no other NUL is checked for (the bytes are kept as sent).
func (d *Decoder) String() string {
	n := d.Uint32()
	if d.err != nil {
		return ""
	}
	if n == 0 || uint64(n) > uint64(d.Remaining()) {
		d.fail(ErrString)
		return ""
	}
	p := d.take(int(n), 1)
	if p[n-1] != 0 {
		d.fail(ErrString)
		return ""
	}
	return string(p[:n-1])
}

// SeqLen reads a sequence's element count, checked against the bytes
// left for elements at least minSize bytes each (minSize >= 1), so that a
// caller may allocate the count at once.
func (d *Decoder) SeqLen(minSize int) int {
	n := d.Uint32()
	if d.err != nil {
		return 0
	}
	if uint64(n)*uint64(max(minSize, 1)) > uint64(d.Remaining()) {
		d.fail(ErrSequence)
		return 0
	}
	return int(n)
}

// Octets reads a sequence<octet>; the result aliases the payload.
func (d *Decoder) Octets() []byte {
	n := d.SeqLen(1)
	return d.take(n, 1)
}

// Float64s reads a sequence<double> into dst[:0] (grown if needed).
func (d *Decoder) Float64s(dst []float64) []float64 {
	n := d.SeqLen(8)
	dst = grow(dst, n)
	for i := range dst {
		dst[i] = d.Float64()
	}
	return dst
}

// Strings reads a sequence<string> into dst[:0] (grown if needed). Each
// string takes at least 5 bytes (length and NUL).
func (d *Decoder) Strings(dst []string) []string {
	n := d.SeqLen(5)
	dst = grow(dst, n)
	for i := range dst {
		dst[i] = d.String()
	}
	return dst
}

func (d *Decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
	d.off = len(d.b)
}

// grow returns s resized to n, reusing its storage when it is large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}
