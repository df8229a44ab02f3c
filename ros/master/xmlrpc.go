package master

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// MaxBodySize is the largest XML-RPC request or response body, in bytes,
// that the codec accepts.
const MaxBodySize = 4 << 20

// MaxDepth is the deepest nesting of arrays and structs the decoder accepts.
const MaxDepth = 64

// ErrTooLarge is returned when a body exceeds MaxBodySize.
var ErrTooLarge = errors.New("xmlrpc: body over its size limit")

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
	return DecodeResponseLimit(r, MaxBodySize)
}

// DecodeResponseLimit is DecodeResponse reading at most limit bytes
// (ErrTooLarge past them): a reply its caller wants small (frcd's
// checks), or the master's state file (MaxStateBytes).
func DecodeResponseLimit(r io.Reader, limit int64) (any, error) {
	p, err := newParserLimit(r, limit)
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
	d     *xml.Decoder
	limit int // of the body, and so of one text
	// open are the elements open, innermost last: the parser reads raw
	// tokens (xml.Decoder.RawToken, which neither copies each token nor
	// keeps a namespace stack: a quarter of a registration flood's
	// allocations) and matches each end tag to its start itself.
	open []xml.Name
}

// element is the next start or end tag after skipping whitespace.
type element struct {
	start *xml.StartElement // nil for an end tag
}

func newParser(r io.Reader) (*parser, error) { return newParserLimit(r, MaxBodySize) }

func newParserLimit(r io.Reader, limit int64) (*parser, error) {
	d := xml.NewDecoder(bufio.NewReader(&limitedReader{r: r, n: limit}))
	d.Strict = true
	d.CharsetReader = func(charset string, input io.Reader) (io.Reader, error) {
		switch strings.ToLower(charset) {
		case "utf-8", "us-ascii", "ascii":
			return input, nil
		}
		return nil, fmt.Errorf("xmlrpc: unsupported charset %q", charset)
	}
	return &parser{d: d, limit: int(limit)}, nil
}

// token returns the next token other than comments, processing
// instructions and directives.
func (p *parser) token() (xml.Token, error) {
	for {
		t, err := p.rawToken()
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

// rawToken is the decoder's next raw token, its end tags matched to their
// start tags as xml.Decoder.Token would.
func (p *parser) rawToken() (xml.Token, error) {
	t, err := p.d.RawToken()
	if err != nil {
		if errors.Is(err, io.EOF) && len(p.open) > 0 {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := t.(type) {
	case xml.StartElement:
		if len(p.open) >= maxOpen {
			return nil, errors.New("xmlrpc: elements nested too deep")
		}
		p.open = append(p.open, t.Name)
	case xml.EndElement:
		if len(p.open) == 0 {
			return nil, fmt.Errorf("unexpected end element </%s>", t.Name.Local)
		}
		if top := p.open[len(p.open)-1]; top != t.Name {
			return nil, fmt.Errorf("element <%s> closed by </%s>", top.Local, t.Name.Local)
		}
		p.open = p.open[:len(p.open)-1]
	}
	return t, nil
}

// maxOpen bounds the elements open at once: the values' depth limit
// keeps a valid call far below it.
const maxOpen = 4096

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
		t, err := p.rawToken()
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
			if sb.Len()+len(t) > p.limit {
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
			if text.Len()+len(t) > p.limit {
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
