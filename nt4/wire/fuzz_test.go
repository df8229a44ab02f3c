package wire

import (
	"testing"
	"time"

	"github.com/tinylib/msgp/msgp"

	"github.com/frcd/frcd/internal/tooltest"
)

// FuzzDecode feeds the decoders a client's text and binary frames: they
// never panic, never report a value outside its frame, and every message
// they accept re-encodes to what it was read from.
func FuzzDecode(f *testing.F) {
	sync := msgp.AppendArrayHeader(nil, 4)
	sync = msgp.AppendInt64(sync, -1)
	sync = msgp.AppendInt64(sync, 0)
	sync = msgp.AppendUint8(sync, TypeInt)
	sync = msgp.AppendInt64(sync, 123456)
	for _, s := range [][]byte{
		[]byte(`[{"method":"subscribe","params":{"topics":["/frcd/"],"subuid":1,"options":{"prefix":true}}}]`),
		[]byte(`[{"method":"publish","params":{"name":"/a","pubuid":2,"type":"double","properties":{}}},{"method":"x"}]`),
		[]byte(`[1, "a", {"method":"unsubscribe","params":[]}]`),
		sync,
		append(append([]byte{}, sync...), 0x94, 0x01, 0x02, 0x01, 0xcb, 0x3f, 0xbf, 0x97, 0x24, 0x74, 0x53, 0x8e, 0xf3),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > MaxMessageBytes {
			return
		}
		tooltest.Within(t, time.Second, func() {
			DecodeText(b)
			err := DecodeBinary(b, func(v Value) {
				if len(v.Raw) == 0 || len(v.Raw) > len(b) {
					t.Fatalf("value of %d bytes in a frame of %d", len(v.Raw), len(b))
				}
				v.Double()
				again := append(appendHeaderAny(v), v.Raw...)
				if n, _, err := msgp.ReadArrayHeaderBytes(again); err != nil || n != 4 {
					t.Fatalf("%x: re-encoded %x does not read back", b, again)
				}
			})
			_ = err
		})
	})
}

func appendHeaderAny(v Value) []byte { return AppendHeader(nil, v.ID, v.Time, v.Type) }

// FuzzClientDecode feeds a client connection a server's frames, as text
// and as binary: it never panics, keeps its topic tables consistent and
// within their limits, and keeps no value larger than its limit.
func FuzzClientDecode(f *testing.F) {
	val := AppendHeader(nil, 3, 10, TypeBoolean)
	val = msgp.AppendBool(val, true)
	for _, s := range [][]byte{
		[]byte(`[{"method":"announce","params":{"name":"/rhsp/0/connected","id":3,"type":"boolean","properties":{}}}]`),
		[]byte(`[{"method":"announce","params":{"name":"/a","id":3,"type":"double"}},{"method":"announce","params":{"name":"/b","id":3,"type":"double"}},{"method":"unannounce","params":{"name":"/a","id":3}}]`),
		[]byte(`[{"method":"properties","params":{"name":"/a","update":{}}}, 7, null]`),
		val,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > MaxMessageBytes {
			return
		}
		tooltest.Within(t, time.Second, func() {
			c := newConn()
			c.handle(true, []byte(`[{"method":"announce","params":{"name":"/x","id":3,"type":"boolean"}}]`))
			c.handle(true, b)
			c.handle(false, b)
			if len(c.topics) != len(c.byName) || len(c.byName) > maxTopics {
				t.Fatalf("%d topics by id, %d by name", len(c.topics), len(c.byName))
			}
			for id, tp := range c.topics {
				if tp.ID != id || c.byName[tp.Name] != tp {
					t.Fatalf("topic %d %+v inconsistent", id, tp)
				}
				if len(tp.Value.Raw) > maxClientValue {
					t.Fatalf("kept a value of %d bytes", len(tp.Value.Raw))
				}
			}
		})
	})
}
