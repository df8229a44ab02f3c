package master

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/frcd/frcd/internal/bounds"
)

func TestDecodeCallTypes(t *testing.T) {
	in := `<?xml version="1.0"?>
<!-- a comment -->
<methodCall>
  <methodName> setParam </methodName>
  <params>
    <param><value>/caller</value></param>
    <param><value><string>a &lt;b&gt; &amp; c
second line</string></value></param>
    <param><value><int>-7</int></value></param>
    <param><value><i4> 42 </i4></value></param>
    <param><value><i8>2000000000</i8></value></param>
    <param><value><boolean>1</boolean></value></param>
    <param><value><boolean>0</boolean></value></param>
    <param><value><double>2.5</double></value></param>
    <param><value><base64>aGVsbG8=</base64></value></param>
    <param><value><dateTime.iso8601>19980717T14:08:55</dateTime.iso8601></value></param>
    <param><value></value></param>
    <param><value><string/></value></param>
    <param><value><nil/></value></param>
    <param><value><array><data>
      <value><int>1</int></value>
      <value><array><data><value>x</value></data></array></value>
    </data></array></value></param>
    <param><value><struct>
      <member><name>a</name><value><int>1</int></value></member>
      <member><name>c</name><value><struct><member><name>d</name><value>hello</value></member></struct></value></member>
      <member><name>e</name><value><array><data></data></array></value></member>
    </struct></value></param>
    <param><value><![CDATA[<raw>]]></value></param>
  </params>
</methodCall>
`
	method, params, err := DecodeCall(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if method != "setParam" {
		t.Errorf("method %q", method)
	}
	want := []any{
		"/caller",
		"a <b> & c\nsecond line",
		-7, 42, 2000000000,
		true, false, 2.5,
		[]byte("hello"),
		"19980717T14:08:55",
		"", "", nil,
		[]any{1, []any{"x"}},
		map[string]any{"a": 1, "c": map[string]any{"d": "hello"}, "e": []any{}},
		"<raw>",
	}
	if !reflect.DeepEqual(params, want) {
		t.Errorf("params\n got %#v\nwant %#v", params, want)
	}
}

func TestDecodeCallNoParams(t *testing.T) {
	for _, in := range []string{
		`<methodCall><methodName>getPid</methodName></methodCall>`,
		`<methodCall><methodName>getPid</methodName><params/></methodCall>`,
		`<methodCall><methodName>getPid</methodName><params></params></methodCall>`,
	} {
		method, params, err := DecodeCall(strings.NewReader(in))
		if err != nil || method != "getPid" || params == nil || len(params) != 0 {
			t.Errorf("%s: %q %#v %v", in, method, params, err)
		}
	}
}

func TestDecodeCallErrors(t *testing.T) {
	deep := strings.Repeat("<value><array><data>", MaxDepth+2) + strings.Repeat("</data></array></value>", MaxDepth+2)
	for name, in := range map[string]string{
		"empty":            ``,
		"not xml":          `hello`,
		"wrong root":       `<methodResponse/>`,
		"no name":          `<methodCall><params/></methodCall>`,
		"empty name":       `<methodCall><methodName></methodName></methodCall>`,
		"unclosed":         `<methodCall><methodName>a</methodName><params><param><value>`,
		"mismatched":       `<methodCall><methodName>a</methodName></params></methodCall>`,
		"bad int":          `<methodCall><methodName>a</methodName><params><param><value><int>x</int></value></param></params></methodCall>`,
		"int overflow":     `<methodCall><methodName>a</methodName><params><param><value><int>4294967296</int></value></param></params></methodCall>`,
		"bad bool":         `<methodCall><methodName>a</methodName><params><param><value><boolean>2</boolean></value></param></params></methodCall>`,
		"bad double":       `<methodCall><methodName>a</methodName><params><param><value><double>x</double></value></param></params></methodCall>`,
		"bad base64":       `<methodCall><methodName>a</methodName><params><param><value><base64>!!</base64></value></param></params></methodCall>`,
		"unknown type":     `<methodCall><methodName>a</methodName><params><param><value><float>1</float></value></param></params></methodCall>`,
		"mixed":            `<methodCall><methodName>a</methodName><params><param><value>x<int>1</int></value></param></params></methodCall>`,
		"two values":       `<methodCall><methodName>a</methodName><params><param><value><int>1</int><int>2</int></value></param></params></methodCall>`,
		"array no data":    `<methodCall><methodName>a</methodName><params><param><value><array><value/></array></value></param></params></methodCall>`,
		"member no name":   `<methodCall><methodName>a</methodName><params><param><value><struct><member><value/></member></struct></value></param></params></methodCall>`,
		"child in string":  `<methodCall><methodName>a</methodName><params><param><value><string><b/></string></value></param></params></methodCall>`,
		"wrong end tag":    `<methodCall><methodName>a</methodName><params><param><value><string>x</int></value></param></params></methodCall>`,
		"wrong end name":   `<methodCall><methodName>a</methodCall></methodName>`,
		"end by prefix":    `<methodCall><methodName>a</x:methodName></methodCall>`,
		"trailing end tag": `<methodCall><methodName>a</methodName></methodCall></methodCall>`,
		"trailing element": `<methodCall><methodName>a</methodName></methodCall><x/>`,
		"trailing text":    `<methodCall><methodName>a</methodName></methodCall>junk`,
		"bad charset":      `<?xml version="1.0" encoding="EBCDIC"?><methodCall><methodName>a</methodName></methodCall>`,
		"too deep":         `<methodCall><methodName>a</methodName><params><param>` + deep + `</param></params></methodCall>`,
	} {
		if _, _, err := DecodeCall(strings.NewReader(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestDecodeDepthLimitExact(t *testing.T) {
	nest := func(n int) string {
		return `<methodCall><methodName>a</methodName><params><param><value>` +
			strings.Repeat("<array><data><value>", n) + "x" + strings.Repeat("</value></data></array>", n) +
			`</value></param></params></methodCall>`
	}
	if _, _, err := DecodeCall(strings.NewReader(nest(MaxDepth))); err != nil {
		t.Errorf("depth %d: %v", MaxDepth, err)
	}
	if _, _, err := DecodeCall(strings.NewReader(nest(MaxDepth + 1))); err == nil {
		t.Errorf("depth %d accepted", MaxDepth+1)
	}
}

func TestDecodeCallTooLarge(t *testing.T) {
	big := `<methodCall><methodName>a</methodName><params><param><value>` +
		strings.Repeat("x", MaxBodySize) + `</value></param></params></methodCall>`
	_, _, err := DecodeCall(strings.NewReader(big))
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
}

func TestResponseRoundTrip(t *testing.T) {
	type named string
	values := []struct {
		in, want any
	}{
		{1, 1},
		{-1, -1},
		{int8(-3), -3},
		{uint16(7), 7},
		{true, true},
		{false, false},
		{0.1, 0.1},
		{-1e300, -1e300},
		{float32(0.5), 0.5},
		{"", ""},
		{"a<b>&c\nd \"e\" 'f'", "a<b>&c\nd \"e\" 'f'"},
		{named("n"), "n"},
		{[]byte{0, 1, 255}, []byte{0, 1, 255}},
		{[]any{}, []any{}},
		{[]string{"a", "b"}, []any{"a", "b"}},
		{[2]int{1, 2}, []any{1, 2}},
		{[]any{1, []any{2, []any{"x", 2.5}}, map[string]any{}}, []any{1, []any{2, []any{"x", 2.5}}, map[string]any{}}},
		{map[string]any{"a": 1, "b": []any{1, 2}, "c": map[string]any{"d": "hello"}}, map[string]any{"a": 1, "b": []any{1, 2}, "c": map[string]any{"d": "hello"}}},
		{map[string]int{"x<": 1}, map[string]any{"x<": 1}},
		{nil, nil},
	}
	if strconv.IntSize == 64 {
		big := int64(math.MaxInt32) + 1 // an <i8> on the wire
		values = append(values, struct{ in, want any }{big, int(big)})
	}
	for _, v := range values {
		var b bytes.Buffer
		if err := EncodeResponse(&b, v.in); err != nil {
			t.Errorf("encode %#v: %v", v.in, err)
			continue
		}
		got, err := DecodeResponse(&b)
		if err != nil {
			t.Errorf("decode %#v: %v\n%s", v.in, err, b.String())
			continue
		}
		if !reflect.DeepEqual(got, v.want) {
			t.Errorf("round trip of %#v: got %#v", v.in, got)
		}
	}
}

func TestEncodeNaNInf(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		var b bytes.Buffer
		if err := EncodeResponse(&b, f); err != nil {
			t.Fatal(err)
		}
		got, err := DecodeResponse(&b)
		if err != nil {
			t.Fatal(err)
		}
		g := got.(float64)
		if !(math.IsNaN(f) && math.IsNaN(g)) && g != f {
			t.Errorf("%v became %v", f, g)
		}
	}
}

func TestEncodeForPeers(t *testing.T) {
	// roscpp's XmlRpc++ understands neither self-closing tags nor numeric
	// character references; a response must start with the XML declaration
	// (goroslib's client requires it).
	var b bytes.Buffer
	if err := EncodeResponse(&b, []any{1, "", "line1\nline2", []any{}, map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if !strings.HasPrefix(s, `<?xml version="1.0"?>`) {
		t.Errorf("no XML declaration: %s", s)
	}
	if strings.Contains(s, "/>") || strings.Contains(s, "&#") {
		t.Errorf("self-closing tag or character reference in %s", s)
	}
	if !strings.Contains(s, "line1\nline2") {
		t.Errorf("newline not kept verbatim: %s", s)
	}
}

func TestEncodeErrors(t *testing.T) {
	cyclic := []any{nil}
	cyclic[0] = cyclic
	for name, v := range map[string]any{
		"chan":      make(chan int),
		"func":      func() {},
		"int keys":  map[int]int{1: 1},
		"big uint":  uint64(math.MaxUint64),
		"cyclic":    cyclic,
		"bad inner": []any{1, make(chan int)},
	} {
		var b bytes.Buffer
		if err := EncodeResponse(&b, v); err == nil {
			t.Errorf("%s: no error", name)
		}
		if b.Len() != 0 {
			t.Errorf("%s: wrote %d bytes despite the error", name, b.Len())
		}
	}
}

func TestFaultRoundTrip(t *testing.T) {
	var b bytes.Buffer
	if err := EncodeFault(&b, 3, "it <broke>"); err != nil {
		t.Fatal(err)
	}
	_, err := DecodeResponse(&b)
	var f *Fault
	if !errors.As(err, &f) {
		t.Fatalf("got %v, want a *Fault", err)
	}
	if f.Code != 3 || f.Message != "it <broke>" {
		t.Errorf("got %+v", f)
	}
}

func TestCallRoundTrip(t *testing.T) {
	var b bytes.Buffer
	params := []any{"/node", map[string]any{"k": []any{1, true, "s", 1.5}}, []byte("raw")}
	if err := EncodeCall(&b, "setParam", params...); err != nil {
		t.Fatal(err)
	}
	method, got, err := DecodeCall(&b)
	if err != nil {
		t.Fatal(err)
	}
	if method != "setParam" || !reflect.DeepEqual(got, params) {
		t.Errorf("got %q %#v", method, got)
	}
}

func TestDecodeResponseErrors(t *testing.T) {
	for name, in := range map[string]string{
		"empty":       `<methodResponse></methodResponse>`,
		"two params":  `<methodResponse><params><param><value>a</value></param><param><value>b</value></param></params></methodResponse>`,
		"fault plain": `<methodResponse><fault><value>x</value></fault></methodResponse>`,
		"call":        `<methodCall><methodName>a</methodName></methodCall>`,
	} {
		if _, err := DecodeResponse(strings.NewReader(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// goroslib's style of response: untyped strings, <i4>.
	v, err := DecodeResponse(strings.NewReader(`<?xml version="1.0"?><methodResponse><params><param><value><array><data><value><i4>1</i4></value><value></value><value><i4>0</i4></value></data></array></value></param></params></methodResponse>`))
	if err != nil || !reflect.DeepEqual(v, []any{1, "", 0}) {
		t.Errorf("goroslib response: %#v %v", v, err)
	}
}

// FuzzDecode checks that the request decoder never panics and that what it
// accepts survives an encode/decode round trip.
func FuzzDecode(f *testing.F) {
	f.Add(`<?xml version="1.0"?><methodCall><methodName>getPid</methodName><params><param><value>/x</value></param></params></methodCall>`)
	f.Add(`<methodCall><methodName>setParam</methodName><params><param><value><struct><member><name>a</name><value><array><data><value><i4>1</i4></value><value><double>2.5</double></value></data></array></value></member></struct></value></param></params></methodCall>`)
	f.Add(`<methodCall><methodName>m</methodName><params><param><value><base64>aGk=</base64></value></param><param><value><boolean>1</boolean></value></param><param><value><nil/></value></param></params></methodCall>`)
	f.Add(`<methodCall><methodName>m</methodName><params><param><value><dateTime.iso8601>19980717T14:08:55</dateTime.iso8601></value></param></params></methodCall>`)
	f.Add(`<methodCall><methodName>a</methodName><params><param><value><array><data><value><array><data></data></array></value></data></array></value></param></params></methodCall>`)
	f.Fuzz(func(t *testing.T, in string) {
		defer bounds.Slow(t)()
		method, params, err := DecodeCall(strings.NewReader(in))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := EncodeCall(&b, method, params...); err != nil {
			t.Fatalf("re-encode of %#v: %v", params, err)
		}
		method2, params2, err := DecodeCall(&b)
		if err != nil {
			t.Fatalf("decode of re-encoded %q: %v", b.String(), err)
		}
		if !equalValues(method, method2) || !equalValues(params, params2) {
			t.Fatalf("round trip changed %q %#v into %q %#v", method, params, method2, params2)
		}
	})
}

// equalValues is reflect.DeepEqual except that NaN equals NaN.
func equalValues(a, b any) bool {
	switch a := a.(type) {
	case string:
		// Carriage returns go out raw, as Python's xmlrpc sends them, so an
		// XML parser reads them back as newlines.
		bs, ok := b.(string)
		return ok && strings.ReplaceAll(strings.ReplaceAll(a, "\r\n", "\n"), "\r", "\n") == bs
	case float64:
		bf, ok := b.(float64)
		return ok && (a == bf || (math.IsNaN(a) && math.IsNaN(bf)))
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !equalValues(a[i], bs[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, v := range a {
			if w, ok := bm[k]; !ok || !equalValues(v, w) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}
