package ros2node

import (
	"fmt"
	"strconv"
	"strings"
)

// xmlElem is an element the small XML reader of Cyclone DDS's
// configuration met: its name, attributes and text, and where it opened.
type xmlElem struct {
	name  string
	attrs map[string]string
	text  strings.Builder
	line  int
	col   int
}

// xmlReader reads XML as Cyclone DDS 0.10's ddsrt_xmlp does for its
// configuration: elements, attributes in single or double quotes, text,
// comments, <?...?> declarations, CDATA, the five predefined entities and
// character references, and, for inline XML in CYCLONEDDS_URI, an
// anonymous close tag </> and end of input closing what is still open.
// It stops when its first element closes (the next part of
// CYCLONEDDS_URI follows it).
type xmlReader struct {
	src     string
	pos     int
	inline  bool
	where   string                // error prefix: the file's name, or CYCLONEDDS_URI
	onOpen  func(path []*xmlElem) // an element opened, with its attributes
	onClose func(path []*xmlElem) // an element closed, with its text

	lcPos, lcLine, lcCol int // lineCol's last answer
}

// maxConfigDepth bounds the nesting of Cyclone's configuration (its
// deepest element is 5 levels down).
const maxConfigDepth = 32

// lineColSteps, when a test sets it, counts the bytes lineCol steps
// over (its time: linear in the input read).
var lineColSteps *int

// lineCol returns pos's line and column (1-based) in r.src, counting on
// from the last position asked (the reader moves forward: linear time).
func (r *xmlReader) lineCol(pos int) (int, int) {
	if pos < r.lcPos || r.lcLine == 0 {
		r.lcPos, r.lcLine, r.lcCol = 0, 1, 1
	}
	if lineColSteps != nil {
		*lineColSteps += max(0, min(pos, len(r.src))-r.lcPos)
	}
	for ; r.lcPos < pos && r.lcPos < len(r.src); r.lcPos++ {
		if r.src[r.lcPos] == '\n' {
			r.lcLine, r.lcCol = r.lcLine+1, 1
		} else {
			r.lcCol++
		}
	}
	return r.lcLine, r.lcCol
}

func (r *xmlReader) fail(pos int, format string, a ...any) error {
	line, col := r.lineCol(pos)
	return fmt.Errorf("%s:%d:%d: %s", r.where, line, col, fmt.Sprintf(format, a...))
}

// read parses one root element and returns the position after it.
func (r *xmlReader) read() (int, error) {
	var stack []*xmlElem
	seenRoot := false
	for r.pos < len(r.src) {
		if seenRoot && len(stack) == 0 {
			if r.inline {
				return r.pos, nil
			}
		}
		c := r.src[r.pos]
		if c != '<' {
			start := r.pos
			end := strings.IndexByte(r.src[r.pos:], '<')
			if end < 0 {
				end = len(r.src) - r.pos
			}
			text, err := r.unescape(r.src[start:start+end], start)
			if err != nil {
				return 0, err
			}
			r.pos += end
			if len(stack) > 0 {
				stack[len(stack)-1].text.WriteString(text)
			} else if strings.TrimSpace(text) != "" {
				if seenRoot && r.inline {
					return start, nil
				}
				return 0, r.fail(start, "text outside any element")
			}
			continue
		}
		rest := r.src[r.pos:]
		switch {
		case strings.HasPrefix(rest, "<?"):
			end := strings.Index(rest, "?>")
			if end < 0 {
				return 0, r.fail(r.pos, "unterminated <?")
			}
			r.pos += end + 2
		case strings.HasPrefix(rest, "<!--"):
			end := strings.Index(rest[4:], "-->")
			if end < 0 {
				return 0, r.fail(r.pos, "unterminated comment")
			}
			r.pos += 4 + end + 3
		case strings.HasPrefix(rest, "<![CDATA["):
			end := strings.Index(rest, "]]>")
			if end < 0 {
				return 0, r.fail(r.pos, "unterminated CDATA")
			}
			if len(stack) == 0 {
				return 0, r.fail(r.pos, "CDATA outside any element")
			}
			stack[len(stack)-1].text.WriteString(rest[9:end])
			r.pos += end + 3
		case strings.HasPrefix(rest, "</"):
			at := r.pos
			end := strings.IndexByte(rest, '>')
			if end < 0 {
				return 0, r.fail(at, "unterminated close tag")
			}
			name := strings.TrimSpace(rest[2:end])
			if len(stack) == 0 {
				return 0, r.fail(at, "close tag </%s> with no element open", name)
			}
			top := stack[len(stack)-1]
			if name == "" && !r.inline {
				return 0, r.fail(at, "anonymous close tag </> (only in CYCLONEDDS_URI's inline XML)")
			}
			if name != "" && name != top.name {
				return 0, r.fail(at, "close tag </%s> does not match <%s> at %d:%d", name, top.name, top.line, top.col)
			}
			r.onClose(stack)
			stack = stack[:len(stack)-1]
			r.pos += end + 1
		case strings.HasPrefix(rest, "<!"):
			return 0, r.fail(r.pos, "unexpected <! (a DOCTYPE is not read)")
		default:
			if seenRoot && len(stack) == 0 {
				return 0, r.fail(r.pos, "a second root element")
			}
			e, self, err := r.openTag()
			if err != nil {
				return 0, err
			}
			if len(stack) >= maxConfigDepth {
				return 0, r.fail(r.pos, "elements nested more than %d deep", maxConfigDepth)
			}
			seenRoot = true
			stack = append(stack, e)
			r.onOpen(stack)
			if self {
				r.onClose(stack)
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) > 0 {
		if !r.inline {
			top := stack[len(stack)-1]
			return 0, r.fail(len(r.src), "<%s> at %d:%d is not closed", top.name, top.line, top.col)
		}
		for len(stack) > 0 { // inline: the end closes what is open
			r.onClose(stack)
			stack = stack[:len(stack)-1]
		}
	}
	if !seenRoot {
		return 0, r.fail(r.pos, "no element")
	}
	return r.pos, nil
}

// openTag reads <name attr="v" ...> or <name .../> at r.pos.
func (r *xmlReader) openTag() (*xmlElem, bool, error) {
	at := r.pos
	line, col := r.lineCol(at)
	i := r.pos + 1
	name, i := r.name(i)
	if name == "" {
		return nil, false, r.fail(at, "want an element name after <")
	}
	e := &xmlElem{name: name, attrs: map[string]string{}, line: line, col: col}
	for {
		for i < len(r.src) && isXMLSpace(r.src[i]) {
			i++
		}
		if i >= len(r.src) {
			return nil, false, r.fail(at, "unterminated <%s", name)
		}
		switch {
		case r.src[i] == '>':
			r.pos = i + 1
			return e, false, nil
		case strings.HasPrefix(r.src[i:], "/>"):
			r.pos = i + 2
			return e, true, nil
		}
		an, j := r.name(i)
		if an == "" {
			return nil, false, r.fail(i, "want an attribute name in <%s>", name)
		}
		for j < len(r.src) && isXMLSpace(r.src[j]) {
			j++
		}
		if j >= len(r.src) || r.src[j] != '=' {
			return nil, false, r.fail(j, "want = after attribute %s", an)
		}
		j++
		for j < len(r.src) && isXMLSpace(r.src[j]) {
			j++
		}
		if j >= len(r.src) || (r.src[j] != '"' && r.src[j] != '\'') {
			return nil, false, r.fail(j, "want a quoted value for attribute %s", an)
		}
		q := r.src[j]
		end := strings.IndexByte(r.src[j+1:], q)
		if end < 0 {
			return nil, false, r.fail(j, "unterminated value of attribute %s", an)
		}
		v, err := r.unescape(r.src[j+1:j+1+end], j+1)
		if err != nil {
			return nil, false, err
		}
		if _, dup := e.attrs[an]; dup {
			return nil, false, r.fail(i, "attribute %s twice in <%s>", an, name)
		}
		e.attrs[an] = v
		i = j + 1 + end + 1
	}
}

// name reads an XML name at i (letters, digits, _ - . :).
func (r *xmlReader) name(i int) (string, int) {
	start := i
	for i < len(r.src) {
		c := r.src[i]
		if c == '_' || c == ':' || c == '-' || c == '.' || c >= 0x80 ||
			(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9' && i > start) {
			i++
			continue
		}
		break
	}
	return r.src[start:i], i
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// unescape decodes the predefined entities and character references in s,
// which starts at at.
func (r *xmlReader) unescape(s string, at int) (string, error) {
	if !strings.Contains(s, "&") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '&' {
			b.WriteByte(s[i])
			continue
		}
		end := strings.IndexByte(s[i:], ';')
		if end < 0 {
			return "", r.fail(at+i, "& without ;")
		}
		ent := s[i+1 : i+end]
		switch ent {
		case "lt":
			b.WriteByte('<')
		case "gt":
			b.WriteByte('>')
		case "amp":
			b.WriteByte('&')
		case "quot":
			b.WriteByte('"')
		case "apos":
			b.WriteByte('\'')
		default:
			n, err := charRef(ent)
			if err != nil {
				return "", r.fail(at+i, "unknown entity &%s;", ent)
			}
			b.WriteRune(n)
		}
		i += end
	}
	return b.String(), nil
}

// charRef reads #NN or #xHH.
func charRef(ent string) (rune, error) {
	base, digits := 10, strings.TrimPrefix(ent, "#")
	if digits == ent {
		return 0, fmt.Errorf("not a character reference")
	}
	if strings.HasPrefix(digits, "x") {
		base, digits = 16, digits[1:]
	}
	n, err := strconv.ParseUint(digits, base, 21)
	if err != nil || n == 0 || n > 0x10FFFF {
		return 0, fmt.Errorf("bad character reference")
	}
	return rune(n), nil
}
