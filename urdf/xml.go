package urdf

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/frcd/frcd/diag"
)

// node is an element with the positions encoding/xml does not keep.
type node struct {
	name  string // the qualified name as written, e.g. "joint" or "xacro:macro"
	off   int    // the byte offset of its '<'
	attrs []attr
	kids  []*node
	// xacro is set when the element holds unexpanded xacro: an attribute
	// with ${...} or $(...), or a xacro child element. What it lacks may be
	// what the macro would have written, so it is not reported missing.
	xacro bool
	// inXacro is set on an element in the xacro namespace (xacro:macro, ...).
	inXacro bool
	// xacroAttr is set when an attribute is xacro's or holds ${...} or
	// $(...).
	xacroAttr bool
}

type attr struct {
	name  string // as written
	value string // with entities decoded
	off   int    // the byte offset of its name (or of its element's '<')
}

// attr returns the first attribute called name, or nil.
func (n *node) attr(name string) *attr {
	for i := range n.attrs {
		if n.attrs[i].name == name {
			return &n.attrs[i]
		}
	}
	return nil
}

const xacroMsg = "xacro is not expanded: run `xacro` first"

// checkText reports an empty or binary file. It returns false when the file
// cannot be XML, and whether it is plain ASCII.
func checkText(p *positions, data []byte, l *diag.List) (ok, ascii bool) {
	if len(bytes.TrimSpace(data)) == 0 {
		l.Errorf(diag.Pos{File: p.file, Line: 1, Col: 1}, "empty file")
		return false, true
	}
	ascii = true
	for i := 0; i < len(data); {
		c := data[i]
		if c == 0 {
			l.Errorf(p.at(i), "not a text file (NUL byte)")
			return false, false
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		ascii = false
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			l.Errorf(p.at(i), "not a text file (invalid UTF-8)")
			return false, false
		}
		i += size
	}
	return true, ascii
}

// reader builds the element tree of a file and reports what is wrong with
// it as XML: syntax, a second root, stray text, duplicate attributes, and
// xacro left in it.
type reader struct {
	p     *positions
	data  []byte
	l     *diag.List
	xacro bool // a xacro construct was found (and reported once)
	// xacroAt is where the first was found.
	xacroAt diag.Pos
	// xacroPrefixes are the prefixes bound to the xacro namespace.
	xacroPrefixes map[string]bool
}

func (rd *reader) foundXacro(pos diag.Pos) {
	if !rd.xacro {
		rd.xacro = true
		rd.xacroAt = pos
		rd.l.Errorf(pos, xacroMsg)
	}
}

// onlyXacroElements reports whether every xacro construct under n is an
// element in xacro's namespace, or within one: an element urdfdom skips,
// with all it holds, as it skips any element it does not know. No
// attribute outside them is xacro's or holds ${...} or $(...).
func onlyXacroElements(n *node) bool {
	if n.inXacro {
		return true
	}
	if n.xacroAttr {
		return false
	}
	for _, k := range n.kids {
		if !onlyXacroElements(k) {
			return false
		}
	}
	return true
}

// forgetXacro clears the xacro marks of n and the elements under it, so
// that a builder judges them as urdfdom does, without the skipped xacro.
func forgetXacro(n *node) {
	n.xacro = false
	for _, k := range n.kids {
		forgetXacro(k)
	}
}

// qname writes a raw (untranslated) name as it stands in the file.
func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// isXacro reports whether a raw name is in the xacro namespace: the usual
// "xacro:" prefix, or a prefix an xmlns attribute bound to xacro's URI.
func (rd *reader) isXacro(n xml.Name) bool {
	return n.Space == "xacro" || rd.xacroPrefixes[n.Space]
}

// isXacroURI reports whether an xmlns value is xacro's namespace URI.
func isXacroURI(uri string) bool { return strings.Contains(uri, "ros.org/wiki/xacro") }

// read returns the root element, or nil, and whether the XML was well
// formed. When it is not, the root keeps only the elements that were closed
// before the error.
func (rd *reader) read(ascii bool) (root *node, wellFormed bool) {
	d := xml.NewDecoder(bytes.NewReader(rd.data))
	d.Strict = true
	charset := ""
	d.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		if ascii {
			return in, nil // ASCII reads the same in any charset we could meet
		}
		charset = label
		return nil, errors.New("not UTF-8")
	}
	var stack []*node
	afterRoot, strayText := false, false
	for {
		before := d.InputOffset()
		// RawToken skips namespace translation, a tenth of the time spent
		// here; nesting, which Token would check, is checked below.
		tok, err := d.RawToken()
		after := d.InputOffset()
		if err == io.EOF && len(stack) > 0 {
			err = &xml.SyntaxError{Msg: "unexpected EOF", Line: rd.p.at(int(after)).Line}
		}
		if err == nil {
			if end, ok := tok.(xml.EndElement); ok {
				switch {
				case len(stack) == 0:
					err = &xml.SyntaxError{Msg: "unexpected end element </" + qname(end.Name) + ">"}
				case stack[len(stack)-1].name != qname(end.Name):
					err = &xml.SyntaxError{Msg: "element <" + stack[len(stack)-1].name + "> closed by </" + qname(end.Name) + ">"}
				}
				if err != nil {
					err.(*xml.SyntaxError).Line = rd.p.at(int(after)).Line
				}
			}
		}
		if err == io.EOF {
			return root, true
		}
		if err != nil {
			rd.syntax(err, int(before), int(after), charset)
			// Keep the root but drop every element still open.
			for i := len(stack) - 1; i >= 1; i-- {
				parent := stack[i-1]
				if k := len(parent.kids); k > 0 && parent.kids[k-1] == stack[i] {
					parent.kids = parent.kids[:k-1]
				}
			}
			return root, false
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := rd.element(t, int(before), int(after))
			switch {
			case len(stack) > 0:
				top := stack[len(stack)-1]
				top.kids = append(top.kids, n)
				if n.inXacro {
					top.xacro = true
				}
			case root == nil:
				root = n
			case !afterRoot:
				afterRoot = true
				rd.l.Errorf(rd.p.at(n.off), "malformed XML: element <%s> after the root element", n.name)
			}
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			if len(stack) == 0 && !strayText && 0 <= before && before <= after && int(after) <= len(rd.data) {
				raw := rd.data[before:after]
				i := 0
				if before == 0 && rd.p.bom {
					i = 3
				}
				for i < len(raw) && isSpace(raw[i]) {
					i++
				}
				if i < len(raw) {
					strayText = true
					rd.l.Errorf(rd.p.at(int(before)+i), "malformed XML: text outside the root element")
				}
			}
		}
	}
}

// element makes the node of a start tag found in data[before:after].
func (rd *reader) element(t xml.StartElement, before, after int) *node {
	if before < 0 || after > len(rd.data) || before > after {
		before, after = 0, 0
	}
	tag := rd.data[before:after]
	nameOff, attrOffs := scanTag(tag)
	lt := nameOff - 1
	if lt < 0 {
		lt = 0
	}
	// RawToken leaves prefixes untranslated, so qname is the name as written.
	n := &node{name: qname(t.Name), off: before + lt}
	for _, a := range t.Attr {
		if a.Name.Space == "xmlns" && isXacroURI(a.Value) {
			if rd.xacroPrefixes == nil {
				rd.xacroPrefixes = map[string]bool{}
			}
			rd.xacroPrefixes[a.Name.Local] = true
		}
	}
	if rd.isXacro(t.Name) {
		rd.foundXacro(rd.p.at(n.off))
		n.inXacro = true
	}
	matched := len(attrOffs) == len(t.Attr)
	n.attrs = make([]attr, len(t.Attr))
	for i, a := range t.Attr {
		at := &n.attrs[i]
		at.name, at.value, at.off = qname(a.Name), a.Value, n.off
		if matched {
			at.off = before + attrOffs[i]
		}
		if a.Name.Space != "xmlns" && rd.isXacro(a.Name) {
			rd.foundXacro(rd.p.at(at.off))
			n.xacro, n.xacroAttr = true, true
		}
		if xacroValue(a.Value) {
			rd.foundXacro(rd.p.at(at.off))
			n.xacro, n.xacroAttr = true, true
		}
		for k := 0; k < i; k++ {
			if n.attrs[k].name == at.name {
				rd.l.Errorf(rd.p.at(at.off), "malformed XML: <%s> has attribute %q twice", n.name, at.name)
				break
			}
		}
	}
	return n
}

// syntax reports the error that ended reading at the decoder's position
// (after), or at the start of the end tag or entity that is the problem.
func (rd *reader) syntax(err error, before, after int, charset string) {
	if charset != "" {
		rd.l.Errorf(rd.p.at(0), "malformed XML: the file declares encoding %q but is not ASCII; save it as UTF-8", charset)
		return
	}
	var se *xml.SyntaxError
	if !errors.As(err, &se) {
		rd.l.Errorf(rd.p.at(after), "malformed XML: %s", strings.TrimPrefix(err.Error(), "xml: "))
		return
	}
	off := after
	if strings.Contains(se.Msg, " closed by </") || strings.HasPrefix(se.Msg, "unexpected end element") {
		if before >= 0 && before <= len(rd.data) {
			if i := bytes.Index(rd.data[before:], []byte("</")); i >= 0 && before+i < after {
				off = before + i
			}
		}
	}
	if ent, ok := strings.CutPrefix(strings.TrimSuffix(se.Msg, " (no semicolon)"), "invalid character entity "); ok && before >= 0 && before <= after && after <= len(rd.data) {
		if i := bytes.LastIndex(rd.data[before:after], []byte(ent)); i >= 0 {
			off = before + i
		}
	}
	pos := rd.p.at(off)
	if off == after && se.Line >= 1 && pos.Line != se.Line {
		pos.Line, pos.Col = se.Line, 1 // not expected: trust the decoder's line
	}
	rd.l.Errorf(pos, "malformed XML: %s", se.Msg)
}
