package cdr

import (
	"bytes"
	"errors"
	"testing"
)

// TestAlignmentFromPayload: alignment counts from after the header, not
// from the start of the buffer the payload is appended to.
func TestAlignmentFromPayload(t *testing.T) {
	var e Encoder
	e.Reset([]byte{0xaa, 0xbb, 0xcc}, CDRLE) // 3 bytes of something before the payload
	e.Uint8(1)
	e.Uint16(2)
	e.Uint8(3)
	e.Uint32(4)
	e.Uint8(5)
	e.Uint64(6)
	want := []byte{0xaa, 0xbb, 0xcc, 0, 1, 0, 0,
		1, 0, 2, 0, // octet, pad, uint16 at 2
		3, 0, 0, 0, 4, 0, 0, 0, // octet at 4, pad, uint32 at 8
		5, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, // octet at 12, pad, uint64 at 16
	}
	if !bytes.Equal(e.Bytes(), want) {
		t.Fatalf("encoded\n% x\nwant\n% x", e.Bytes(), want)
	}
	d, err := NewDecoder(e.Bytes()[3:])
	if err != nil {
		t.Fatal(err)
	}
	if a, b, c, x, y, z := d.Uint8(), d.Uint16(), d.Uint8(), d.Uint32(), d.Uint8(), d.Uint64(); a != 1 || b != 2 || c != 3 || x != 4 || y != 5 || z != 6 || d.Err() != nil {
		t.Fatalf("decoded %d %d %d %d %d %d, %v", a, b, c, x, y, z, d.Err())
	}
	if d.Remaining() != 0 {
		t.Fatalf("%d bytes left", d.Remaining())
	}
}

// TestStickyError: after the first error every read is zero and the
// error stays the first one.
func TestStickyError(t *testing.T) {
	d, err := NewDecoder([]byte{0, 1, 0, 0, 9, 0, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	if v := d.Uint64(); v != 0 || !errors.Is(d.Err(), ErrShort) {
		t.Fatalf("%d, %v", v, d.Err())
	}
	if v, s := d.Uint8(), d.String(); v != 0 || s != "" || !errors.Is(d.Err(), ErrShort) {
		t.Fatalf("after the error: %d %q %v", v, s, d.Err())
	}
}

func TestOctetsAlias(t *testing.T) {
	var e Encoder
	e.Reset(nil, CDRBE)
	e.Octets([]byte("xyz"))
	e.Bool(true)
	d, _ := NewDecoder(e.Bytes())
	if p, b := d.Octets(), d.Bool(); string(p) != "xyz" || !b || d.Err() != nil {
		t.Fatalf("%q %v %v", p, b, d.Err())
	}
}
