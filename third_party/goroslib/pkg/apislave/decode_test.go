package apislave

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/bluenviron/goroslib/v2/pkg/xmlrpc"
)

func paramUpdateCall(value string) string {
	return `<?xml version="1.0"?><methodCall><methodName>paramUpdate</methodName><params>` +
		`<param><value><string>/master</string></value></param>` +
		`<param><value><string>/arm/pid/</string></value></param>` +
		`<param><value>` + value + `</value></param></params></methodCall>`
}

// TestDecodeParamUpdate: paramUpdate's value, whatever its type, as
// rosmaster sends it (Python's xmlrpc.client: a dict is a <struct>, a
// deleted parameter an empty one).
func TestDecodeParamUpdate(t *testing.T) {
	for _, c := range []struct {
		value string
		want  interface{}
	}{
		{`<double>12.5</double>`, 12.5},
		{`<int>12</int>`, 12},
		{`<boolean>1</boolean>`, true},
		{`abc`, "abc"},
		{`<struct></struct>`, map[string]interface{}{}},
		{`<struct>
  <member><name>p</name><value><double>1.5</double></value></member>
  <member><name>gains</name><value><struct><member><name>j</name><value><struct>` +
			`<member><name>i</name><value><i4>2</i4></value></member></struct></value></member></struct></value></member>
  <member><name>joints</name><value><array><data><value>a</value><value><string>b</string></value></data></array></value></member>
  <member><name>p</name><value><double>3</double></value></member>
</struct>`, map[string]interface{}{
			"p":      3.0, // the last of a member named twice, as Python's
			"gains":  map[string]interface{}{"j": map[string]interface{}{"i": 2}},
			"joints": []interface{}{"a", "b"},
		}},
		{`<array><data></data></array>`, []interface{}{}},
	} {
		req, err := Decode(strings.NewReader(paramUpdateCall(c.value)))
		if err != nil {
			t.Errorf("%s: %v", c.value, err)
			continue
		}
		pu, ok := req.(*RequestParamUpdate)
		if !ok {
			t.Fatalf("%s: decoded a %T", c.value, req)
		}
		if pu.CallerID != "/master" || pu.Key != "/arm/pid/" || !reflect.DeepEqual(pu.Value, c.want) {
			t.Errorf("%s: %#v, want the value %#v", c.value, pu, c.want)
		}
	}
}

// TestDecodeDepth: a value nested past MaxValueDepth is refused, before
// the decoder recursed any deeper; one at the limit is taken.
func TestDecodeDepth(t *testing.T) {
	nest := func(n int, open, close string) string {
		return strings.Repeat(open, n) + `<int>1</int>` + strings.Repeat(close, n)
	}
	structs := func(n int) string {
		return nest(n, `<struct><member><name>a</name><value>`, `</value></member></struct>`)
	}
	arrays := func(n int) string { return nest(n, `<array><data><value>`, `</value></data></array>`) }
	for _, v := range []string{structs(xmlrpc.MaxValueDepth), arrays(xmlrpc.MaxValueDepth)} {
		if _, err := Decode(strings.NewReader(paramUpdateCall(v))); err != nil {
			t.Errorf("depth %d: %v", xmlrpc.MaxValueDepth, err)
		}
	}
	for _, v := range []string{structs(xmlrpc.MaxValueDepth + 1), arrays(xmlrpc.MaxValueDepth + 1), structs(100_000)} {
		if _, err := Decode(strings.NewReader(paramUpdateCall(v))); !errors.Is(err, xmlrpc.ErrTooDeep) {
			t.Errorf("%.40s...: %v, want ErrTooDeep", v, err)
		}
	}
}

// TestDecodeRefuses: malformed structs and a struct where a typed field
// is wanted are errors, not panics.
func TestDecodeRefuses(t *testing.T) {
	for _, in := range []string{
		paramUpdateCall(`<struct><member><value><int>1</int></value></member></struct>`),
		paramUpdateCall(`<struct><member><name>a</name></member></struct>`),
		paramUpdateCall(`<struct><value><int>1</int></value></struct>`),
		paramUpdateCall(`<struct><member><name>a</name><value><int>1</int></value>`),
		`<?xml version="1.0"?><methodCall><methodName>publisherUpdate</methodName><params>` +
			`<param><value>/m</value></param><param><value><struct></struct></value></param>` +
			`<param><value><array><data></data></array></value></param></params></methodCall>`,
		`<?xml version="1.0"?><methodCall><methodName>publisherUpdate</methodName><params>` +
			`<param><value>/m</value></param><param><value>/t</value></param>` +
			`<param><value><array><data><value><struct></struct></value></data></array></value></param></params></methodCall>`,
	} {
		if req, err := Decode(strings.NewReader(in)); err == nil {
			t.Errorf("%s: decoded %#v", in, req)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(paramUpdateCall(`<struct><member><name>p</name><value><double>1</double></value></member></struct>`))
	f.Add(paramUpdateCall(`<array><data><value><struct></struct></value></data></array>`))
	f.Fuzz(func(t *testing.T, in string) {
		req, err := Decode(strings.NewReader(in))
		if err != nil {
			return
		}
		if pu, ok := req.(*RequestParamUpdate); ok && depth(pu.Value) > xmlrpc.MaxValueDepth {
			t.Fatalf("a value %d deep decoded", depth(pu.Value))
		}
	})
}

func depth(v interface{}) int {
	var elems []interface{}
	switch x := v.(type) {
	case []interface{}:
		elems = x
	case map[string]interface{}:
		for _, e := range x {
			elems = append(elems, e)
		}
	default:
		return 0
	}
	d := 0
	for _, e := range elems {
		if de := depth(e); de > d {
			d = de
		}
	}
	return d + 1
}
