package protocommon

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/msg"
)

type fixedMsg struct {
	msg.Package `ros:"test"`
	A           bool
	B           int16
	C           [3]float32
	T           time.Time
	D           time.Duration
}

type varMsg struct {
	msg.Package `ros:"test"`
	A           float64
	S           string
}

// FixedSize is the encoding's length for a type without variable-length
// fields, and MessageDecodeLimit refuses a longer message before reading it.
func TestFixedSizeAndLimit(t *testing.T) {
	if n, ok := FixedSize(reflect.TypeOf(fixedMsg{})); !ok || n != 1+2+12+8+8 {
		t.Errorf("FixedSize(fixedMsg) = %d, %v; want 31", n, ok)
	}
	if _, ok := FixedSize(reflect.TypeOf(varMsg{})); ok {
		t.Error("a message with a string has a fixed size")
	}
	var b bytes.Buffer
	if err := MessageEncode(&b, &fixedMsg{A: true, C: [3]float32{1, 2, 3}}); err != nil {
		t.Fatal(err)
	}
	if b.Len() != 4+31 {
		t.Errorf("encoded %d bytes, want 35", b.Len())
	}
	enc := b.Bytes()
	var m fixedMsg
	if err := MessageDecodeLimit(bytes.NewReader(enc), &m, 31); err != nil || !m.A || m.C[2] != 3 {
		t.Errorf("at the limit: %v %+v", err, m)
	}
	var v varMsg
	b.Reset()
	if err := MessageEncode(&b, &varMsg{S: string(make([]byte, 100))}); err != nil {
		t.Fatal(err)
	}
	if err := MessageDecodeLimit(bytes.NewReader(b.Bytes()), &v, 50); !errors.Is(err, ErrMessageTooLong) {
		t.Errorf("over the limit: %v", err)
	}
}
