package ros2bridge

import (
	"testing"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/internal/bounds"
)

// FuzzReadParameters: no set_parameters request makes readSets panic or
// take more than a second (bounds.Slow), and what it reads re-encodes to
// a request it reads the same.
func FuzzReadParameters(f *testing.F) {
	var e cdr.Encoder
	e.Reset(nil, cdr.CDRLE)
	e.SeqLen(1)
	e.String("turret_position.pid.p")
	(&paramValue{typ: paramDouble, f: 2}).marshal(&e)
	f.Add(e.Bytes())
	f.Add([]byte{0, 1, 0, 0, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, b []byte) {
		defer bounds.Slow(t)()
		d, err := cdr.NewDecoder(b)
		if err != nil {
			return
		}
		ns, vs := readSets(d)
		if d.Err() != nil {
			return
		}
		var e cdr.Encoder
		e.Reset(nil, cdr.CDRLE)
		e.SeqLen(len(ns))
		for i := range ns {
			e.String(ns[i])
			vs[i].marshal(&e)
		}
		d2, err := cdr.NewDecoder(e.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		ns2, vs2 := readSets(d2)
		if d2.Err() != nil || len(ns2) != len(ns) {
			t.Fatalf("re-encoded parameters: %v, %d of %d", d2.Err(), len(ns2), len(ns))
		}
		for i := range ns {
			same := vs2[i] == vs[i] || vs[i].f != vs[i].f // NaN
			if ns2[i] != ns[i] || !same {
				t.Fatalf("parameter %d: %q %+v re-read as %q %+v", i, ns[i], vs[i], ns2[i], vs2[i])
			}
		}
	})
}

// TestListed checks list_parameters' prefix and depth rules.
func TestListed(t *testing.T) {
	for _, c := range []struct {
		name     string
		prefixes []string
		depth    uint64
		want     bool
	}{
		{"a.pid.p", nil, 0, true}, {"a.pid.p", nil, 2, false}, {"a.pid.p", nil, 3, true}, {"use_sim_time", nil, 1, true},
		{"a.pid.p", []string{"a"}, 1, false}, {"a.pid.p", []string{"a"}, 2, true}, {"a.pid.p", []string{"a.pid"}, 1, true},
		{"ab.pid.p", []string{"a"}, 0, false}, {"a.pid.p", []string{"a.pid.p"}, 1, true},
	} {
		if got := listed(c.name, c.prefixes, c.depth); got != c.want {
			t.Errorf("listed(%q, %v, %d) = %v", c.name, c.prefixes, c.depth, got)
		}
	}
}
