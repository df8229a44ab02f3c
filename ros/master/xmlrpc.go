package master

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// MaxBodySize is the largest XML-RPC request or response body, in bytes,
// that the codec accepts.
const MaxBodySize = 4 << 20

// MaxDepth is the deepest nesting of arrays and structs the decoder accepts.
const MaxDepth = 64

// ErrTooLarge is returned when a body exceeds MaxBodySize.
var ErrTooLarge = errors.New("xmlrpc: body larger than 4 MiB")

// Fault is an XML-RPC fault, returned as an error by DecodeResponse and Call
// and written by EncodeFault.
type Fault struct {
	Code    int
	Message string
}

// Error implements error.
func (f *Fault) Error() string {
	return fmt.Sprintf("xmlrpc fault %d: %s", f.Code, f.Message)
}

// DecodeCall reads an XML-RPC methodCall and returns the method name and
// its parameters as Go values: int (<int>, <i4>, <i8>), bool, string
// (<string>, untyped text, <dateTime.iso8601> kept verbatim), float64,
// []byte (<base64>), []any (<array>), map[string]any (<struct>) and nil
// (<nil/>). At most MaxBodySize bytes are read; malformed input is an error.
func DecodeCall(r io.Reader) (method string, params []any, err error) {
	p, err := newParser(r)
	if err != nil {
		return "", nil, err
	}
	if err := p.expectStart("methodCall"); err != nil {
		return "", nil, err
	}
	if err := p.expectStart("methodName"); err != nil {
		return "", nil, err
	}
	method, err = p.text()
	if err != nil {
		return "", nil, fmt.Errorf("xmlrpc: methodName: %w", err)
	}
	method = strings.TrimSpace(method)
	if method == "" {
		return "", nil, errors.New("xmlrpc: empty methodName")
	}
	params = []any{}
	el, err := p.nextElement()
	if err != nil {
		return "", nil, err
	}
	if el.start != nil {
		if el.start.Name.Local != "params" {
			return "", nil, fmt.Errorf("xmlrpc: unexpected <%s> in methodCall", el.start.Name.Local)
		}
		params, err = p.params()
		if err != nil {
			return "", nil, err
		}
		if err := p.expectEnd(); err != nil {
			return "", nil, err
		}
	}
	if err := p.eof(); err != nil {
		return "", nil, err
	}
	return method, params, nil
}

// DecodeResponse reads an XML-RPC methodResponse and returns its single
// value, or a *Fault error for a fault response.
func DecodeResponse(r io.Reader) (any, error) {
	p, err := newParser(r)
	if err != nil {
		return nil, err
	}
	if err := p.expectStart("methodResponse"); err != nil {
		return nil, err
	}
	el, err := p.nextElement()
	if err != nil {
		return nil, err
	}
	if el.start == nil {
		return nil, errors.New("xmlrpc: empty methodResponse")
	}
	var result any
	switch el.start.Name.Local {
	case "params":
		params, err := p.params()
		if err != nil {
			return nil, err
		}
		if len(params) != 1 {
			return nil, fmt.Errorf("xmlrpc: response has %d params, want 1", len(params))
		}
		result = params[0]
	case "fault":
		if err := p.expectStart("value"); err != nil {
			return nil, err
		}
		v, err := p.value(0)
		if err != nil {
			return nil, err
		}
		if err := p.expectEnd(); err != nil {
			return nil, err
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, errors.New("xmlrpc: fault value is not a struct")
		}
		f := &Fault{}
		f.Code, _ = m["faultCode"].(int)
		f.Message, _ = m["faultString"].(string)
		result = f
	default:
		return nil, fmt.Errorf("xmlrpc: unexpected <%s> in methodResponse", el.start.Name.Local)
	}
	if err := p.expectEnd(); err != nil {
		return nil, err
	}
	if err := p.eof(); err != nil {
		return nil, err
	}
	if f, ok := result.(*Fault); ok {
		return nil, f
	}
	return result, nil
}

// EncodeCall writes an XML-RPC methodCall.
func EncodeCall(w io.Writer, method string, params ...any) error {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0"?>` + "\n<methodCall><methodName>")
	escape(&b, method)
	b.WriteString("</methodName><params>")
	for i, p := range params {
		b.WriteString("<param>")
		if err := encodeValue(&b, p, 0); err != nil {
			return fmt.Errorf("xmlrpc: param %d: %w", i, err)
		}
		b.WriteString("</param>")
	}
	b.WriteString("</params></methodCall>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// EncodeResponse writes an XML-RPC methodResponse holding v, which may be
// nil, bool, any integer type, float32, float64, string, []byte, a slice or
// array of encodable values, or a map with string keys and encodable values.
// Nothing is written if v cannot be encoded.
func EncodeResponse(w io.Writer, v any) error {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0"?>` + "\n<methodResponse><params><param>")
	if err := encodeValue(&b, v, 0); err != nil {
		return err
	}
	b.WriteString("</param></params></methodResponse>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// EncodeFault writes an XML-RPC fault response.
func EncodeFault(w io.Writer, code int, message string) error {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0"?>` + "\n<methodResponse><fault>")
	if err := encodeValue(&b, map[string]any{"faultCode": code, "faultString": message}, 0); err != nil {
		return err
	}
	b.WriteString("</fault></methodResponse>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// Client makes XML-RPC calls over HTTP.
type Client struct {
	// HTTP is the client used; nil means http.DefaultClient.
	HTTP *http.Client
}

// Call invokes method at url with params and returns the response value,
// a *Fault error for a fault, or another error. ctx bounds the whole call.
func (c *Client) Call(ctx context.Context, url, method string, params ...any) (any, error) {
	var body bytes.Buffer
	if err := EncodeCall(&body, method, params...); err != nil {
		return nil, fmt.Errorf("xmlrpc call %s: %w", method, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body.Bytes()))
	if err != nil {
		return nil, fmt.Errorf("xmlrpc call %s: %w", method, err)
	}
	req.Header.Set("Content-Type", "text/xml")
	hc := http.DefaultClient
	if c != nil && c.HTTP != nil {
		hc = c.HTTP
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("xmlrpc call %s to %s: %w", method, url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, MaxBodySize))
		return nil, fmt.Errorf("xmlrpc call %s to %s: HTTP status %s", method, url, resp.Status)
	}
	v, err := DecodeResponse(resp.Body)
	if err != nil {
		var f *Fault
		if errors.As(err, &f) {
			return nil, err
		}
		return nil, fmt.Errorf("xmlrpc call %s to %s: %w", method, url, err)
	}
	return v, nil
}

// Call invokes method at url with http.DefaultClient; see Client.Call.
func Call(ctx context.Context, url, method string, params ...any) (any, error) {
	return (*Client)(nil).Call(ctx, url, method, params...)
}

// ---- decoding ----

// limitedReader fails with ErrTooLarge past MaxBodySize bytes.
type limitedReader struct {
	r io.Reader
	n int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		// Probe one byte to tell a body of exactly the limit from a longer one.
		var one [1]byte
		n, err := l.r.Read(one[:])
		if n > 0 {
			return 0, ErrTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	return n, err
}

type parser struct {
	d *xml.Decoder
}

// element is the next start or end tag after skipping whitespace.
type element struct {
	start *xml.StartElement // nil for an end tag
}

func newParser(r io.Reader) (*parser, error) {
	d := xml.NewDecoder(bufio.NewReader(&limitedReader{r: r, n: MaxBodySize}))
	d.Strict = true
	d.CharsetReader = func(charset string, input io.Reader) (io.Reader, error) {
		switch strings.ToLower(charset) {
		case "utf-8", "us-ascii", "ascii":
			return input, nil
		}
		return nil, fmt.Errorf("xmlrpc: unsupported charset %q", charset)
	}
	return &parser{d: d}, nil
}

// token returns the next token other than comments, processing
// instructions and directives.
func (p *parser) token() (xml.Token, error) {
	for {
		t, err := p.d.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, io.ErrUnexpectedEOF
			}
			if errors.Is(err, ErrTooLarge) {
				return nil, ErrTooLarge
			}
			return nil, fmt.Errorf("xmlrpc: %w", err)
		}
		switch t.(type) {
		case xml.Comment, xml.ProcInst, xml.Directive:
			continue
		}
		return t, nil
	}
}

// nextElement skips whitespace and returns the next start or end tag.
func (p *parser) nextElement() (element, error) {
	for {
		t, err := p.token()
		if err != nil {
			return element{}, err
		}
		switch t := t.(type) {
		case xml.CharData:
			if len(bytes.TrimSpace(t)) != 0 {
				return element{}, errors.New("xmlrpc: unexpected text")
			}
		case xml.StartElement:
			return element{start: &t}, nil
		case xml.EndElement:
			return element{}, nil
		}
	}
}

func (p *parser) expectStart(name string) error {
	el, err := p.nextElement()
	if err != nil {
		return err
	}
	if el.start == nil {
		return fmt.Errorf("xmlrpc: expected <%s>, got an end tag", name)
	}
	if el.start.Name.Local != name {
		return fmt.Errorf("xmlrpc: expected <%s>, got <%s>", name, el.start.Name.Local)
	}
	return nil
}

func (p *parser) expectEnd() error {
	el, err := p.nextElement()
	if err != nil {
		return err
	}
	if el.start != nil {
		return fmt.Errorf("xmlrpc: unexpected <%s>", el.start.Name.Local)
	}
	return nil
}

// eof accepts only whitespace, comments and processing instructions up to
// the end of input.
func (p *parser) eof() error {
	for {
		t, err := p.d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			if errors.Is(err, ErrTooLarge) {
				return ErrTooLarge
			}
			return fmt.Errorf("xmlrpc: %w", err)
		}
		switch t := t.(type) {
		case xml.Comment, xml.ProcInst, xml.Directive:
		case xml.CharData:
			if len(bytes.TrimSpace(t)) != 0 {
				return errors.New("xmlrpc: text after document")
			}
		default:
			return errors.New("xmlrpc: content after document")
		}
	}
}

// text reads character data up to the end tag of the current element,
// rejecting child elements.
func (p *parser) text() (string, error) {
	var sb strings.Builder
	for {
		t, err := p.token()
		if err != nil {
			return "", err
		}
		switch t := t.(type) {
		case xml.CharData:
			if sb.Len()+len(t) > MaxBodySize {
				return "", ErrTooLarge
			}
			sb.Write(t)
		case xml.StartElement:
			return "", fmt.Errorf("xmlrpc: unexpected <%s> in text", t.Name.Local)
		case xml.EndElement:
			return sb.String(), nil
		}
	}
}

// params reads <param><value>…</value></param>… up to </params>.
func (p *parser) params() ([]any, error) {
	params := []any{}
	for {
		el, err := p.nextElement()
		if err != nil {
			return nil, err
		}
		if el.start == nil {
			return params, nil
		}
		if el.start.Name.Local != "param" {
			return nil, fmt.Errorf("xmlrpc: expected <param>, got <%s>", el.start.Name.Local)
		}
		if err := p.expectStart("value"); err != nil {
			return nil, err
		}
		v, err := p.value(0)
		if err != nil {
			return nil, fmt.Errorf("xmlrpc: param %d: %w", len(params), err)
		}
		params = append(params, v)
		if err := p.expectEnd(); err != nil {
			return nil, err
		}
	}
}

// value reads the content of a <value> element whose start tag has been
// consumed, up to and including its end tag.
func (p *parser) value(depth int) (any, error) {
	var text strings.Builder
	for {
		t, err := p.token()
		if err != nil {
			return nil, err
		}
		switch t := t.(type) {
		case xml.CharData:
			if text.Len()+len(t) > MaxBodySize {
				return nil, ErrTooLarge
			}
			text.Write(t)
		case xml.EndElement:
			return text.String(), nil // untyped: a string
		case xml.StartElement:
			if strings.TrimSpace(text.String()) != "" {
				return nil, errors.New("xmlrpc: text mixed with a typed value")
			}
			v, err := p.typed(t.Name.Local, depth)
			if err != nil {
				return nil, err
			}
			if err := p.expectEnd(); err != nil {
				return nil, err
			}
			return v, nil
		}
	}
}

// typed reads a typed value whose start tag <name> has been consumed, up to
// and including its end tag.
func (p *parser) typed(name string, depth int) (any, error) {
	switch name {
	case "array":
		if depth >= MaxDepth {
			return nil, errors.New("xmlrpc: values nested too deeply")
		}
		return p.array(depth + 1)
	case "struct":
		if depth >= MaxDepth {
			return nil, errors.New("xmlrpc: values nested too deeply")
		}
		return p.structure(depth + 1)
	case "nil":
		if err := p.expectEnd(); err != nil {
			return nil, err
		}
		return nil, nil
	}
	s, err := p.text()
	if err != nil {
		return nil, err
	}
	switch name {
	case "string", "dateTime.iso8601":
		return s, nil
	case "int", "i4":
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("xmlrpc: bad <%s>: %w", name, err)
		}
		return int(n), nil
	case "i8":
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, strconv.IntSize)
		if err != nil {
			return nil, fmt.Errorf("xmlrpc: bad <i8>: %w", err)
		}
		return int(n), nil
	case "boolean":
		switch strings.TrimSpace(s) {
		case "1", "true":
			return true, nil
		case "0", "false":
			return false, nil
		}
		return nil, fmt.Errorf("xmlrpc: bad <boolean> %q", s)
	case "double":
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return nil, fmt.Errorf("xmlrpc: bad <double>: %w", err)
		}
		return f, nil
	case "base64":
		clean := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, s)
		b, err := base64.StdEncoding.DecodeString(clean)
		if err != nil {
			return nil, fmt.Errorf("xmlrpc: bad <base64>: %w", err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("xmlrpc: unknown type <%s>", name)
}

func (p *parser) array(depth int) (any, error) {
	if err := p.expectStart("data"); err != nil {
		return nil, err
	}
	arr := []any{}
	for {
		el, err := p.nextElement()
		if err != nil {
			return nil, err
		}
		if el.start == nil {
			break
		}
		if el.start.Name.Local != "value" {
			return nil, fmt.Errorf("xmlrpc: expected <value> in array, got <%s>", el.start.Name.Local)
		}
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
	if err := p.expectEnd(); err != nil { // </array>
		return nil, err
	}
	return arr, nil
}

func (p *parser) structure(depth int) (any, error) {
	m := map[string]any{}
	for {
		el, err := p.nextElement()
		if err != nil {
			return nil, err
		}
		if el.start == nil {
			return m, nil
		}
		if el.start.Name.Local != "member" {
			return nil, fmt.Errorf("xmlrpc: expected <member> in struct, got <%s>", el.start.Name.Local)
		}
		if err := p.expectStart("name"); err != nil {
			return nil, err
		}
		name, err := p.text()
		if err != nil {
			return nil, err
		}
		if err := p.expectStart("value"); err != nil {
			return nil, err
		}
		v, err := p.value(depth)
		if err != nil {
			return nil, fmt.Errorf("member %q: %w", name, err)
		}
		m[name] = v
		if err := p.expectEnd(); err != nil { // </member>
			return nil, err
		}
	}
}

// ---- encoding ----

// escape writes s with the three characters XML-RPC peers expect escaped,
// and anything XML cannot carry replaced (xmlText). Other characters
// (newlines included) are written as they are: roscpp's XmlRpc++ does not
// understand numeric character references.
func escape(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var rep string
		switch s[i] {
		case '&':
			rep = "&amp;"
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		default:
			continue
		}
		xmlText(b, s[last:i])
		b.WriteString(rep)
		last = i + 1
	}
	xmlText(b, s[last:])
}

func encodeInt(b *bytes.Buffer, n int64) {
	if n >= math.MinInt32 && n <= math.MaxInt32 {
		b.WriteString("<value><int>")
		b.WriteString(strconv.FormatInt(n, 10))
		b.WriteString("</int></value>")
		return
	}
	b.WriteString("<value><i8>")
	b.WriteString(strconv.FormatInt(n, 10))
	b.WriteString("</i8></value>")
}

func encodeValue(b *bytes.Buffer, v any, depth int) error {
	if depth > MaxDepth {
		return errors.New("xmlrpc: value nested too deeply")
	}
	switch v := v.(type) {
	case nil:
		b.WriteString("<value><nil/></value>")
	case bool:
		if v {
			b.WriteString("<value><boolean>1</boolean></value>")
		} else {
			b.WriteString("<value><boolean>0</boolean></value>")
		}
	case int:
		encodeInt(b, int64(v))
	case int64:
		encodeInt(b, v)
	case int32:
		encodeInt(b, int64(v))
	case float64:
		b.WriteString("<value><double>")
		b.WriteString(formatDouble(v))
		b.WriteString("</double></value>")
	case string:
		b.WriteString("<value><string>")
		escape(b, v)
		b.WriteString("</string></value>")
	case []byte:
		b.WriteString("<value><base64>")
		b.WriteString(base64.StdEncoding.EncodeToString(v))
		b.WriteString("</base64></value>")
	case []any:
		b.WriteString("<value><array><data>")
		for _, e := range v {
			if err := encodeValue(b, e, depth+1); err != nil {
				return err
			}
		}
		b.WriteString("</data></array></value>")
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("<value><struct>")
		for _, k := range keys {
			b.WriteString("<member><name>")
			escape(b, k)
			b.WriteString("</name>")
			if err := encodeValue(b, v[k], depth+1); err != nil {
				return err
			}
			b.WriteString("</member>")
		}
		b.WriteString("</struct></value>")
	default:
		return encodeReflect(b, reflect.ValueOf(v), depth)
	}
	return nil
}

func formatDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// encodeReflect encodes the remaining kinds: other integer and float types,
// named types, slices, arrays, string-keyed maps and pointers.
func encodeReflect(b *bytes.Buffer, rv reflect.Value, depth int) error {
	switch rv.Kind() {
	case reflect.Bool:
		return encodeValue(b, rv.Bool(), depth)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		encodeInt(b, rv.Int())
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > math.MaxInt64 {
			return fmt.Errorf("xmlrpc: integer %d out of range", u)
		}
		encodeInt(b, int64(u))
		return nil
	case reflect.Float32, reflect.Float64:
		return encodeValue(b, rv.Float(), depth)
	case reflect.String:
		return encodeValue(b, rv.String(), depth)
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 {
			return encodeValue(b, rv.Bytes(), depth)
		}
		b.WriteString("<value><array><data>")
		for i := 0; i < rv.Len(); i++ {
			if err := encodeValue(b, rv.Index(i).Interface(), depth+1); err != nil {
				return err
			}
		}
		b.WriteString("</data></array></value>")
		return nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return fmt.Errorf("xmlrpc: cannot encode %s: keys are not strings", rv.Type())
		}
		m := make(map[string]any, rv.Len())
		iter := rv.MapRange()
		for iter.Next() {
			m[iter.Key().String()] = iter.Value().Interface()
		}
		return encodeValue(b, m, depth)
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return encodeValue(b, nil, depth)
		}
		return encodeValue(b, rv.Elem().Interface(), depth+1)
	}
	return fmt.Errorf("xmlrpc: cannot encode a %s", rv.Type())
}
