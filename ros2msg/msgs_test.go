package ros2msg

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"runtime"
	"testing"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/internal/bounds"
)

// jointStateLE is a JointState worked out by hand from the CDR rules
// (doc.go): stamp {1, 2}, frame "base", one joint "a" at 1.5, no velocity
// or effort. Offsets count from after the encapsulation header.
var jointStateLE = []byte{
	0x00, 0x01, 0x00, 0x00, // CDR_LE, options 0
	0x01, 0, 0, 0, // 0: sec
	0x02, 0, 0, 0, // 4: nanosec
	0x05, 0, 0, 0, 'b', 'a', 's', 'e', 0, // 8: frame_id, length with the NUL
	0, 0, 0, // 17: pad to 20
	0x01, 0, 0, 0, // 20: one name
	0x02, 0, 0, 0, 'a', 0, // 24: "a"
	0, 0, // 30: pad to 32
	0x01, 0, 0, 0, // 32: one position
	0, 0, 0, 0, // 36: pad to 40 (a double aligns to 8 in XCDR1)
	0, 0, 0, 0, 0, 0, 0xf8, 0x3f, // 40: 1.5
	0, 0, 0, 0, // 48: no velocity
	0, 0, 0, 0, // 52: no effort
}

func TestJointStateWire(t *testing.T) {
	m := &JointState{Header: Header{Stamp: Time{1, 2}, FrameID: "base"}, Name: []string{"a"}, Position: []float64{1.5}}
	got := Marshal(nil, m)
	if !bytes.Equal(got, jointStateLE) {
		t.Fatalf("encoded\n% x\nwant\n% x", got, jointStateLE)
	}
	var back JointState
	if err := Unmarshal(jointStateLE, &back); err != nil {
		t.Fatal(err)
	}
	back.Velocity, back.Effort = nil, nil // decoded as empty, not nil
	if !reflect.DeepEqual(&back, m) {
		t.Fatalf("decoded %+v, want %+v", back, m)
	}
}

// TestBoolInt8Wire: std_msgs Bool and Int8 are one byte after the
// encapsulation header (CORBA 3.3 part 2 §9.3.1: boolean and octet-sized
// types, no alignment); a payload without the byte is an error.
func TestBoolInt8Wire(t *testing.T) {
	if got := Marshal(nil, &Bool{Data: true}); !bytes.Equal(got, []byte{0, 1, 0, 0, 1}) {
		t.Errorf("Bool: % x", got)
	}
	if got := Marshal(nil, &Int8{Data: -1}); !bytes.Equal(got, []byte{0, 1, 0, 0, 0xff}) {
		t.Errorf("Int8: % x", got)
	}
	var b Bool
	var i Int8
	if err := Unmarshal([]byte{0, 1, 0, 0, 1}, &b); err != nil || !b.Data {
		t.Errorf("Bool: %v %v", b, err)
	}
	if err := Unmarshal([]byte{0, 1, 0, 0, 0xfe}, &i); err != nil || i.Data != -2 {
		t.Errorf("Int8: %v %v", i, err)
	}
	if err := Unmarshal([]byte{0, 1, 0, 0}, &i); err == nil {
		t.Error("Int8 without its byte decoded")
	}
}

// TestBigEndian decodes a big-endian payload: the same fields, each
// swapped, the same padding.
func TestBigEndian(t *testing.T) {
	be := []byte{
		0x00, 0x00, 0x00, 0x00, // CDR_BE
		0, 0, 0, 7, // sec
		0, 0, 0, 0, // pad to 8
		0x3f, 0xf8, 0, 0, 0, 0, 0, 0, // 1.5
	}
	var d cdr.Decoder
	if err := d.Reset(be); err != nil {
		t.Fatal(err)
	}
	if s, f := d.Int32(), d.Float64(); s != 7 || f != 1.5 || d.Err() != nil {
		t.Fatalf("read %d %v %v", s, f, d.Err())
	}
	var e cdr.Encoder
	e.Reset(nil, cdr.CDRBE)
	e.Int32(7)
	e.Float64(1.5)
	if !bytes.Equal(e.Bytes(), be) {
		t.Fatalf("encoded % x, want % x", e.Bytes(), be)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, m := range []Message{
		&Float64{Data: -math.Pi},
		&String{Data: "Hello World: 7"},
		&Header{Stamp: Time{-3, 999999999}, FrameID: ""},
		&JointState{Name: []string{"left", "right_wheel"}, Position: []float64{1, 2}, Velocity: []float64{3, 4}, Effort: []float64{5, 6}},
		&Float64MultiArray{Dim: []MultiArrayDimension{{"x", 3, 3}}, DataOffset: 1, Data: []float64{0.5, 1, 2}},
	} {
		p := Marshal(nil, m)
		back := reflect.New(reflect.TypeOf(m).Elem()).Interface().(Message)
		if err := Unmarshal(p, back); err != nil {
			t.Fatalf("%s: %v", m.TypeName(), err)
		}
		if !reflect.DeepEqual(back, m) {
			t.Errorf("%s: decoded %+v, want %+v", m.TypeName(), back, m)
		}
		// Every shorter payload is an error, never a panic or a partial message taken as whole.
		for n := 0; n < len(p); n++ {
			if err := Unmarshal(p[:n], back); err == nil {
				t.Errorf("%s: %d of %d bytes decoded without error", m.TypeName(), n, len(p))
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		name string
		b    []byte
		want error
	}{
		{"no header", []byte{0, 1}, cdr.ErrHeader},
		{"parameter list", []byte{0, 3, 0, 0, 1, 0, 0, 0}, cdr.ErrHeader},
		{"string without NUL", []byte{0, 1, 0, 0, 2, 0, 0, 0, 'a', 'b'}, cdr.ErrString},
		{"string of length 0", []byte{0, 1, 0, 0, 0, 0, 0, 0}, cdr.ErrString},
		{"string past the end", []byte{0, 1, 0, 0, 0xff, 0xff, 0xff, 0xff, 'a', 0}, cdr.ErrString},
	} {
		if err := Unmarshal(c.b, &String{}); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	// A JointState claiming 2^32-1 names in a few bytes is refused before
	// anything is allocated for them.
	huge := append(append([]byte{}, jointStateLE[:24]...), 0xff, 0xff, 0xff, 0xff)
	var js JointState
	if err := Unmarshal(huge, &js); !errors.Is(err, cdr.ErrSequence) {
		t.Fatalf("huge sequence: %v", err)
	}
	// TotalAlloc counts every goroutine's allocations (the runtime's, the
	// race detector's): the least of a few tries is the decoder's.
	n := uint64(math.MaxUint64)
	for range 5 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_ = Unmarshal(huge, &js)
		runtime.ReadMemStats(&after)
		n = min(n, after.TotalAlloc-before.TotalAlloc)
	}
	if n > 4096 {
		t.Errorf("%d bytes allocated for a refused payload of %d bytes", n, len(huge))
	}
}

// TestDecodeReuses: decoding into the same JointState again allocates only
// the strings, not the slices.
func TestDecodeReuses(t *testing.T) {
	m := &JointState{Name: []string{"a", "b"}, Position: []float64{1, 2}, Velocity: []float64{3, 4}, Effort: []float64{5, 6}}
	p := Marshal(nil, m)
	var back JointState
	if err := Unmarshal(p, &back); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = Unmarshal(p, &back) }); n > 3 {
		t.Errorf("%v allocations per decode, want the two names (and at most one more)", n)
	}
}

func BenchmarkMarshalJointState12(b *testing.B) {
	m := &JointState{Header: Header{FrameID: "base_link"}}
	for i := 0; i < 12; i++ {
		m.Name = append(m.Name, "joint_"+string(rune('a'+i)))
		m.Position = append(m.Position, float64(i))
		m.Velocity = append(m.Velocity, float64(i))
		m.Effort = append(m.Effort, float64(i))
	}
	buf := make([]byte, 0, 1024)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = Marshal(buf[:0], m)
	}
}

// FuzzUnmarshal feeds every message type arbitrary payloads: no panic, no
// more than a second of CPU per input, and whatever decodes re-encodes to
// a payload that decodes to the same message.
func FuzzUnmarshal(f *testing.F) {
	f.Add(jointStateLE)
	f.Add(Marshal(nil, &Float64MultiArray{Dim: []MultiArrayDimension{{"x", 3, 3}}, Data: []float64{1}}))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 2, 'a', 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		defer bounds.Slow(t)()
		for _, m := range []Message{&Float64{}, &Bool{}, &Int8{}, &String{}, &Header{}, &JointState{}, &Float64MultiArray{}, &ParticipantEntitiesInfo{}, &ParticipantEntitiesInfo{GidLen: GidSizeHumble}} {
			if Unmarshal(b, m) != nil {
				continue
			}
			again := reflect.New(reflect.TypeOf(m).Elem()).Interface().(Message)
			if pe, ok := m.(*ParticipantEntitiesInfo); ok {
				again.(*ParticipantEntitiesInfo).GidLen = pe.GidLen
			}
			if err := Unmarshal(Marshal(nil, m), again); err != nil {
				t.Fatalf("%s: re-encoded message does not decode: %v", m.TypeName(), err)
			}
			if !reflect.DeepEqual(normal(again), normal(m)) && !hasNaN(m) {
				t.Fatalf("%s: %+v re-decoded as %+v", m.TypeName(), m, again)
			}
		}
	})
}

// normal makes empty slices nil, for comparison.
func normal(m Message) Message {
	if js, ok := m.(*JointState); ok {
		c := *js
		for _, s := range []*[]float64{&c.Position, &c.Velocity, &c.Effort} {
			if len(*s) == 0 {
				*s = nil
			}
		}
		if len(c.Name) == 0 {
			c.Name = nil
		}
		return &c
	}
	if a, ok := m.(*Float64MultiArray); ok {
		c := *a
		if len(c.Dim) == 0 {
			c.Dim = nil
		}
		if len(c.Data) == 0 {
			c.Data = nil
		}
		return &c
	}
	return m
}

func hasNaN(m Message) bool {
	var vals []float64
	switch m := m.(type) {
	case *Float64:
		vals = []float64{m.Data}
	case *JointState:
		vals = append(append(append(vals, m.Position...), m.Velocity...), m.Effort...)
	case *Float64MultiArray:
		vals = m.Data
	}
	for _, v := range vals {
		if v != v {
			return true
		}
	}
	return false
}

// TestParticipantEntitiesInfoWire checks a graph message worked out by
// hand: gid of 16 bytes (Iron on), one node "/" "frcd" with one reader
// and no writer.
func TestParticipantEntitiesInfoWire(t *testing.T) {
	var g, r Gid
	for i := 0; i < 16; i++ {
		g[i], r[i] = byte(i), byte(0x80+i)
	}
	m := &ParticipantEntitiesInfo{Gid: g, Nodes: []NodeEntitiesInfo{{Namespace: "/", Name: "frcd", Readers: []Gid{r}}}}
	want := []byte{0, 1, 0, 0}
	want = append(want, g[:16]...)                         // 0: gid, char[16], no count
	want = append(want, 1, 0, 0, 0)                        // 16: one node
	want = append(want, 2, 0, 0, 0, '/', 0)                // 20: namespace
	want = append(want, 0, 0)                              // 26: pad to 28
	want = append(want, 5, 0, 0, 0, 'f', 'r', 'c', 'd', 0) // 28: name
	want = append(want, 0, 0, 0)                           // 37: pad to 40
	want = append(want, 1, 0, 0, 0)                        // 40: one reader gid
	want = append(want, r[:16]...)                         // 44
	want = append(want, 0, 0, 0, 0)                        // 60: no writer
	got := Marshal(nil, m)
	if !bytes.Equal(got, want) {
		t.Fatalf("encoded\n% x\nwant\n% x", got, want)
	}
	var back ParticipantEntitiesInfo
	if err := Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	back.Nodes[0].Writers = nil
	if !reflect.DeepEqual(&back, m) {
		t.Fatalf("decoded %+v", back)
	}
	// Humble's 24-byte gids.
	m.GidLen = GidSizeHumble
	humble := Marshal(nil, m)
	if len(humble) != len(got)+16 {
		t.Fatalf("Humble form of %d bytes, want %d", len(humble), len(got)+16)
	}
	back = ParticipantEntitiesInfo{GidLen: GidSizeHumble}
	if err := Unmarshal(humble, &back); err != nil || back.Nodes[0].Name != "frcd" || back.Nodes[0].Readers[0] != r {
		t.Fatalf("Humble form decoded %+v, %v", back, err)
	}
}
