package urdf

import (
	"bytes"
	"encoding/xml"
	"strings"
)

// fastRead builds the element tree of a plain, well-formed ASCII file
// without encoding/xml, which spends most of its time allocating tokens
// frcd does not keep. It reads the subset of XML real URDFs are written in:
// elements and attributes with ASCII names, the five predefined entities,
// comments, an <?xml ...?> declaration of version 1.0, whitespace and text.
// Anything else (a DOCTYPE, CDATA, another processing instruction,
// character references, xacro, a carriage return inside a value, an error
// of any kind) makes it give up: ok is false and the reader does the work,
// reporting what it finds as before. When ok is true the tree is the one
// the reader would build, positions included (FuzzFastRead checks it).
func fastRead(p *positions, data []byte) (root *node, ok bool) {
	s := fastScanner{p: p, data: data, text: string(data)}
	return s.document()
}

type fastScanner struct {
	p     *positions
	data  []byte
	text  string // data as a string, so that names and values are slices of one allocation
	i     int
	stack []*node

	// xacroPrefixes are the prefixes bound to xacro's namespace.
	xacroPrefixes map[string]bool
	nodes         []node // allocated a block at a time
	attrs         []attr // the attributes of the element being read
	spare         []attr // a block that element attributes are copied into
}

// newNode returns a zero node from the current block.
func (s *fastScanner) newNode() *node {
	if len(s.nodes) == 0 {
		s.nodes = make([]node, 64)
	}
	n := &s.nodes[0]
	s.nodes = s.nodes[1:]
	return n
}

// keep copies the attributes read into a block and returns them.
func (s *fastScanner) keep() []attr {
	if len(s.attrs) == 0 {
		return nil
	}
	if len(s.spare) < len(s.attrs) {
		s.spare = make([]attr, max(256, len(s.attrs)))
	}
	out := s.spare[:len(s.attrs):len(s.attrs)]
	copy(out, s.attrs)
	s.spare = s.spare[len(s.attrs):]
	return out
}

func (s *fastScanner) document() (*node, bool) {
	d := s.data
	if len(d) >= 3 && d[0] == 0xEF && d[1] == 0xBB && d[2] == 0xBF {
		return nil, false
	}
	var root *node
	for {
		// Text between tags.
		start := s.i
		for s.i < len(d) && d[s.i] != '<' {
			c := d[s.i]
			if c >= 0x80 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
				return nil, false
			}
			if c == '&' && !s.entity() {
				return nil, false
			}
			if c == ']' && bytes.HasPrefix(d[s.i:], []byte("]]>")) {
				return nil, false
			}
			if c != '&' {
				s.i++
			}
		}
		if len(s.stack) == 0 {
			// Outside the root only whitespace is allowed.
			for _, c := range d[start:s.i] {
				if !isSpace(c) {
					return nil, false
				}
			}
		}
		if s.i >= len(d) {
			if len(s.stack) > 0 || root == nil {
				return nil, false
			}
			return root, true
		}
		// s.i is at '<'.
		if s.i+1 >= len(d) {
			return nil, false
		}
		switch d[s.i+1] {
		case '!':
			if !s.comment() {
				return nil, false
			}
		case '?':
			if s.i != 0 || !s.declaration() {
				return nil, false
			}
		case '/':
			if !s.endTag() {
				return nil, false
			}
		default:
			if root != nil && len(s.stack) == 0 {
				return nil, false // a second root element
			}
			n, empty, ok := s.startTag()
			if !ok {
				return nil, false
			}
			if len(s.stack) > 0 {
				top := s.stack[len(s.stack)-1]
				top.kids = append(top.kids, n)
			} else {
				root = n
			}
			if !empty {
				s.stack = append(s.stack, n)
			}
		}
	}
}

// entity reads a predefined entity at s.i ('&') and moves past it.
func (s *fastScanner) entity() bool {
	for _, e := range [...]string{"&amp;", "&lt;", "&gt;", "&apos;", "&quot;"} {
		if bytes.HasPrefix(s.data[s.i:], []byte(e)) {
			s.i += len(e)
			return true
		}
	}
	return false
}

// comment reads <!-- ... --> at s.i.
func (s *fastScanner) comment() bool {
	d := s.data
	if !bytes.HasPrefix(d[s.i:], []byte("<!--")) {
		return false
	}
	end := bytes.Index(d[s.i+4:], []byte("--"))
	if end < 0 {
		return false
	}
	j := s.i + 4 + end
	if j+2 >= len(d) || d[j+2] != '>' {
		return false // "--" inside a comment
	}
	for _, c := range d[s.i+4 : j] {
		if c >= 0x80 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
			return false
		}
	}
	s.i = j + 3
	return true
}

// declaration reads <?xml version="1.0" ...?> at s.i; any other
// processing instruction is left to encoding/xml.
func (s *fastScanner) declaration() bool {
	d := s.data
	if !bytes.HasPrefix(d[s.i:], []byte("<?xml")) || s.i+5 >= len(d) || !isSpace(d[s.i+5]) {
		return false
	}
	end := bytes.Index(d[s.i:], []byte("?>"))
	if end < 0 {
		return false
	}
	body := d[s.i+5 : s.i+end]
	for _, c := range body {
		if c >= 0x80 || c == '<' || c == '&' || (c < 0x20 && !isSpace(c)) {
			return false
		}
	}
	if !bytes.Contains(body, []byte(`version="1.0"`)) && !bytes.Contains(body, []byte(`version='1.0'`)) {
		return false
	}
	if bytes.Count(body, []byte("version")) != 1 {
		return false
	}
	s.i += end + 2
	return true
}

// name reads an ASCII XML name at s.i; false when there is none or it is
// not plain (non-ASCII, or a colon other than one prefix separator).
func (s *fastScanner) name() (string, bool) {
	d := s.data
	start := s.i
	colons := 0
	for s.i < len(d) {
		c := d[s.i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case c >= '0' && c <= '9', c == '-', c == '.':
			if s.i == start {
				return "", false
			}
		case c == ':':
			colons++
		default:
			goto done
		}
		s.i++
	}
done:
	n := d[start:s.i]
	if len(n) == 0 || colons > 1 || (colons == 1 && (n[0] == ':' || n[len(n)-1] == ':')) {
		return "", false
	}
	return s.text[start:s.i], true
}

func (s *fastScanner) skipSpace() {
	for s.i < len(s.data) && isSpace(s.data[s.i]) {
		s.i++
	}
}

// startTag reads <name attr="value" ...> or <name .../> at s.i.
func (s *fastScanner) startTag() (n *node, empty, ok bool) {
	d := s.data
	lt := s.i
	s.i++
	name, ok := s.name()
	if !ok {
		return nil, false, false
	}
	n = s.newNode()
	n.name, n.off = name, lt
	s.attrs = s.attrs[:0]
	for {
		before := s.i
		s.skipSpace()
		if s.i >= len(d) {
			return nil, false, false
		}
		switch d[s.i] {
		case '>':
			s.i++
			n.attrs = s.keep()
			return n, false, !s.xacro(n)
		case '/':
			if s.i+1 < len(d) && d[s.i+1] == '>' {
				s.i += 2
				n.attrs = s.keep()
				return n, true, !s.xacro(n)
			}
			return nil, false, false
		}
		if s.i == before {
			return nil, false, false // attributes are separated by space
		}
		at := s.i
		an, ok := s.name()
		if !ok {
			return nil, false, false
		}
		s.skipSpace()
		if s.i >= len(d) || d[s.i] != '=' {
			return nil, false, false
		}
		s.i++
		s.skipSpace()
		if s.i >= len(d) || (d[s.i] != '"' && d[s.i] != '\'') {
			return nil, false, false
		}
		q := d[s.i]
		s.i++
		vs := s.i
		plain := true
		for s.i < len(d) && d[s.i] != q {
			c := d[s.i]
			if c == '<' || c == '\r' || c >= 0x80 || (c < 0x20 && c != '\t' && c != '\n') {
				return nil, false, false
			}
			if c == '&' {
				if !s.entity() {
					return nil, false, false
				}
				plain = false
				continue
			}
			s.i++
		}
		if s.i >= len(d) {
			return nil, false, false
		}
		value := s.text[vs:s.i]
		if !plain {
			value = unescape(d[vs:s.i])
		}
		s.i++ // the closing quote
		for _, a := range s.attrs {
			if a.name == an {
				return nil, false, false // a duplicate: the reader reports it
			}
		}
		s.attrs = append(s.attrs, attr{name: an, value: value, off: at})
	}
}

// endTag reads </name> at s.i and closes the element it matches.
func (s *fastScanner) endTag() bool {
	s.i += 2
	name, ok := s.name()
	if !ok || len(s.stack) == 0 || s.stack[len(s.stack)-1].name != name {
		return false
	}
	s.skipSpace()
	if s.i >= len(s.data) || s.data[s.i] != '>' {
		return false
	}
	s.i++
	s.stack = s.stack[:len(s.stack)-1]
	return true
}

// xacro reports whether n holds xacro, which the reader reports: an
// element or attribute whose prefix is "xacro" or one an xmlns attribute
// bound to xacro's namespace (as the reader, from that element on), or a
// value with ${...} or $(...). It records such bindings.
func (s *fastScanner) xacro(n *node) bool {
	for _, a := range n.attrs {
		if p, ok := strings.CutPrefix(a.name, "xmlns:"); ok && isXacroURI(a.value) {
			if s.xacroPrefixes == nil {
				s.xacroPrefixes = map[string]bool{}
			}
			s.xacroPrefixes[p] = true
		}
	}
	isX := func(space string) bool { return space == "xacro" || s.xacroPrefixes[space] }
	if isX(rawName(n.name).Space) {
		return true
	}
	for _, a := range n.attrs {
		if xacroValue(a.value) {
			return true
		}
		if sp := rawName(a.name).Space; sp != "xmlns" && isX(sp) {
			return true
		}
	}
	return false
}

// rawName splits a name at its prefix, as encoding/xml's RawToken does.
func rawName(name string) (n xml.Name) {
	for i := 0; i < len(name); i++ {
		if name[i] == ':' {
			n.Space, n.Local = name[:i], name[i+1:]
			return n
		}
	}
	n.Local = name
	return n
}

// unescape replaces the five predefined entities in v.
func unescape(v []byte) string {
	var b bytes.Buffer
	b.Grow(len(v))
	for i := 0; i < len(v); {
		if v[i] != '&' {
			b.WriteByte(v[i])
			i++
			continue
		}
		switch {
		case bytes.HasPrefix(v[i:], []byte("&amp;")):
			b.WriteByte('&')
			i += 5
		case bytes.HasPrefix(v[i:], []byte("&lt;")):
			b.WriteByte('<')
			i += 4
		case bytes.HasPrefix(v[i:], []byte("&gt;")):
			b.WriteByte('>')
			i += 4
		case bytes.HasPrefix(v[i:], []byte("&apos;")):
			b.WriteByte('\'')
			i += 6
		default: // &quot;, the only one left
			b.WriteByte('"')
			i += 6
		}
	}
	return b.String()
}
