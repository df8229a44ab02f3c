package urdf

import (
	"sort"
	"unicode/utf8"

	"github.com/frcd/frcd/diag"
)

// positions turns byte offsets in a file into diag positions.
//
// Lines end at '\n'. Columns count runes from the start of the line, a UTF-8
// byte order mark not included. Offsets are usually asked for in increasing
// order, so a cursor remembers the last answer and counts runes only from
// there, keeping long single-line files linear.
type positions struct {
	file   string
	data   []byte
	starts []int // byte offset of each line's first byte
	bom    bool

	curOff, curLine, curCol int // the last answer; curLine < 0 when unset
}

func newPositions(file string, data []byte) *positions {
	p := &positions{file: file, data: data, curLine: -1}
	p.bom = len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF
	return p
}

// index finds where each line starts, the first time a position is asked
// for: a file the fast reader takes whole never needs it.
func (p *positions) index() {
	data := p.data
	n := 1
	for _, c := range data {
		if c == '\n' {
			n++
		}
	}
	p.starts = make([]int, 1, n)
	for i, c := range data {
		if c == '\n' {
			p.starts = append(p.starts, i+1)
		}
	}
}

// at returns the position of the byte at off (clamped to the file).
func (p *positions) at(off int) diag.Pos {
	if off < 0 {
		off = 0
	}
	if off > len(p.data) {
		off = len(p.data)
	}
	if p.starts == nil {
		p.index()
	}
	line := -1
	if p.curLine >= 0 && off >= p.curOff {
		// Offsets mostly come in order: look a few lines past the last
		// answer before searching.
		for l := p.curLine; l < p.curLine+16; l++ {
			if l+1 == len(p.starts) || p.starts[l+1] > off {
				line = l
				break
			}
		}
	}
	if line < 0 {
		line = sort.Search(len(p.starts), func(i int) bool { return p.starts[i] > off }) - 1
	}
	var col int
	if line == p.curLine && off >= p.curOff {
		col = p.curCol + utf8.RuneCount(p.data[p.curOff:off])
	} else {
		start := p.starts[line]
		col = 1 + utf8.RuneCount(p.data[start:off])
		if line == 0 && p.bom && off >= 3 {
			col--
		}
	}
	p.curOff, p.curLine, p.curCol = off, line, col
	return diag.Pos{File: p.file, Line: line + 1, Col: col}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// scanTag reads the start tag in tag, which begins at or after its '<', and
// returns the offset (in tag) of the element name and of each attribute
// name, in order. Quoted values are skipped whole, so a '>' or '=' inside
// one cannot mislead it.
func scanTag(tag []byte) (nameOff int, attrOffs []int) {
	i := 0
	for i < len(tag) && tag[i] != '<' {
		i++
	}
	i++ // the '<'
	nameOff = i
	for i < len(tag) && !isSpace(tag[i]) && tag[i] != '/' && tag[i] != '>' {
		i++
	}
	for i < len(tag) {
		for i < len(tag) && isSpace(tag[i]) {
			i++
		}
		if i >= len(tag) || tag[i] == '/' || tag[i] == '>' {
			break
		}
		start := i
		for i < len(tag) && !isSpace(tag[i]) && tag[i] != '=' && tag[i] != '/' && tag[i] != '>' {
			i++
		}
		if i > start {
			attrOffs = append(attrOffs, start)
		}
		for i < len(tag) && isSpace(tag[i]) {
			i++
		}
		if i < len(tag) && tag[i] == '=' {
			i++
			for i < len(tag) && isSpace(tag[i]) {
				i++
			}
			if i < len(tag) && (tag[i] == '"' || tag[i] == '\'') {
				q := tag[i]
				i++
				for i < len(tag) && tag[i] != q {
					i++
				}
				i++ // the closing quote
			} else {
				for i < len(tag) && !isSpace(tag[i]) && tag[i] != '>' {
					i++
				}
			}
		}
		if i == start {
			i++ // always make progress
		}
	}
	return nameOff, attrOffs
}
