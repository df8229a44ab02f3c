package ros

import (
	"strings"
	"testing"

	"github.com/bluenviron/goroslib/v2/pkg/apislave"
	"github.com/bluenviron/goroslib/v2/pkg/xmlrpc"
)

// paramUpdateBody is a paramUpdate call as rosmaster makes it.
func paramUpdateBody(key, value string) string {
	return `<?xml version="1.0"?><methodCall><methodName>paramUpdate</methodName><params>` +
		`<param><value><string>/master</string></value></param><param><value><string>` + key +
		`</string></value></param><param><value>` + value + `</value></param></params></methodCall>`
}

// fuzzWatch is a gain watch of three gains, a PID's and a trajectory
// controller joint's, without a controller: paramUpdate and its
// bookkeeping only.
func fuzzWatch() *gainWatch {
	return &gainWatch{b: &Bridge{}, wake: make(chan struct{}, 1), pending: map[int]gainUpdate{}, params: []gainParam{
		{key: "/arm/pid/p"}, {key: "/arm/pid/i"}, {key: "/traj/gains/j1/p"},
	}}
}

// TestParamUpdateKeys: an update reaches the gains its key holds (the
// gain's, a namespace above it, a key below it), an empty namespace is a
// deletion, and any other key is ignored and counted.
func TestParamUpdateKeys(t *testing.T) {
	w := fuzzWatch()
	w.paramUpdate("/arm/pid/p", 3)
	w.paramUpdate("/traj", map[string]any{"gains": map[string]any{"j1": map[string]any{"p": 1.5}}})
	if u := w.pending[0]; !u.present || u.v != 3 {
		t.Errorf("/arm/pid/p: %+v", u)
	}
	if u := w.pending[2]; !u.present || u.v != 1.5 {
		t.Errorf("/traj/gains/j1/p from its namespace: %+v", u)
	}
	w.paramUpdate("/arm/pid", map[string]any{"p": 4}) // i missing: deleted
	if u := w.pending[1]; u.present {
		t.Errorf("/arm/pid/i absent from its namespace's new value: %+v, want deleted", u)
	}
	w.paramUpdate("/arm/pid/p", map[string]any{})
	if u := w.pending[0]; u.present {
		t.Errorf("/arm/pid/p set to an empty namespace: %+v, want deleted", u)
	}
	w.paramUpdate("/arm/pid/p/x", 1)
	if u := w.pending[0]; !u.present {
		t.Errorf("/arm/pid/p made a namespace: %+v, want present (not a number)", u)
	} else if _, isNum := number(u.v); isNum {
		t.Errorf("/arm/pid/p made a namespace: %+v is a number", u)
	}
	for _, k := range []string{"/arm/pidx", "/arm/pid/pp", "/other", "", "/traj/gains/j10/p"} {
		w.paramUpdate(k, 1)
	}
	if n, ign := w.b.paramUpdates.Load(), w.b.paramIgnored.Load(); n != 5 || ign != 5 || len(w.pending) != 3 {
		t.Errorf("%d updates taken, %d ignored, %d pending; want 5, 5, 3", n, ign, len(w.pending))
	}
}

// FuzzParamUpdate: whatever a client sends the slave API (it answers
// anyone), decoding it as the node does and handing a paramUpdate to the
// gain watch neither panics nor keeps more than one update per gain, nor
// a value nested past the decoder's bound.
func FuzzParamUpdate(f *testing.F) {
	f.Add(paramUpdateBody("/arm/pid/p/", `<double>3</double>`))
	f.Add(paramUpdateBody("/arm/pid/", `<struct><member><name>p</name><value><i4>4</i4></value></member></struct>`))
	f.Add(paramUpdateBody("/", `<struct><member><name>traj</name><value><struct><member><name>gains</name><value><struct></struct></value></member></struct></value></member></struct>`))
	f.Add(paramUpdateBody("/arm/pid/i/", `<array><data><value>x</value></data></array>`))
	f.Fuzz(func(t *testing.T, body string) {
		req, err := apislave.Decode(strings.NewReader(body))
		if err != nil {
			return
		}
		pu, ok := req.(*apislave.RequestParamUpdate)
		if !ok {
			return
		}
		key := pu.Key
		if len(key) > 1 && key[len(key)-1] == '/' { // as the node does
			key = key[:len(key)-1]
		}
		w := fuzzWatch()
		w.paramUpdate(key, pu.Value)
		if len(w.pending) > len(w.params) {
			t.Fatalf("%d updates pending for %d gains", len(w.pending), len(w.params))
		}
		for i, u := range w.pending {
			if i < 0 || i >= len(w.params) {
				t.Fatalf("an update for gain %d", i)
			}
			if tooDeep(u.v, xmlrpc.MaxValueDepth) {
				t.Fatalf("a value nested past %d", xmlrpc.MaxValueDepth)
			}
			number(u.v)
		}
	})
}

// tooDeep says whether v nests arrays and structs more than n deep.
func tooDeep(v any, n int) bool {
	if n < 0 {
		return true
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if tooDeep(e, n-1) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if tooDeep(e, n-1) {
				return true
			}
		}
	}
	return false
}
