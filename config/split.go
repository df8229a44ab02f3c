package config

import (
	"bytes"
	"errors"
	"io"

	"gopkg.in/yaml.v3"

	"github.com/frcd/frcd/diag"
)

// A file's `joints:` list is most of a large file, and yaml.v3 builds the
// node tree of a whole document before anything can be decoded from it: a
// file at the 8 MiB size limit took 213 MB of nodes, held at once. So the
// list is decoded in pieces when the file writes it in the plain block
// form (`joints:` at the start of a line, then one `- ` entry after
// another at one indentation): the rest of the file is decoded with the
// list replaced by `[]` on the same lines, then the list a piece of about
// splitPiece bytes at a time, each piece's nodes let go once its devices
// are decoded. Positions are the file's own (a piece's lines are
// renumbered from where it starts; its columns are unchanged), and every
// finding, default and merge is what the whole-tree decoding gives.
//
// Whatever the pieces cannot stand for alone is decoded whole, as before:
// an alias to an anchor outside its piece, a list in flow style or under
// a namespace, a piece that is not valid YAML by itself (a quoted string
// or a flow collection running across entries), a syntax error anywhere.
// The split is attempted on a parser of its own and dropped at the first
// such piece, so its findings are never mixed with the whole decoding's.

// splitPiece is the size of text a piece of the `joints:` list holds, in
// whole entries: small next to the file, large enough that starting a
// YAML decoder per piece costs nothing.
const splitPiece = 32 << 10

// splitMin is the smallest file decoded in pieces: below it the node tree
// is small, and the whole-tree decoding is the one path.
var splitMin = 256 << 10

// jointsSplit is a file's `joints:` list cut into pieces.
type jointsSplit struct {
	rest       []byte // the file with the list written `joints: []`
	jointsLine int    // the line of `joints:` (1-based)
	indent     int    // the column of the entries' dashes, from 0
	pieces     []piece
}

// piece is a run of whole entries of the list.
type piece struct {
	start, end int // byte offsets in the file
	line       int // the line start is on (1-based)
	first      int // the line of its first entry's dash
	entries    int
}

// splitJoints cuts data's `joints:` list into pieces, or says it cannot.
func splitJoints(data []byte) (s jointsSplit, ok bool) {
	const (
		before = iota
		list
		after
	)
	if !lineFeeds(data) {
		return s, false
	}
	state, jointsStart, listEnd := before, 0, len(data)
	indent := -1
	var cur *piece
	line := 0
	for off := 0; off < len(data) && state != after; {
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end < 0 {
			end = len(data)
		} else {
			end += off
			next = end + 1
		}
		line++
		text := bytes.TrimSuffix(data[off:end], []byte("\r"))
		body := bytes.TrimLeft(text, " ")
		col := len(text) - len(body)
		blank := len(bytes.TrimLeft(body, " \t")) == 0 || body[0] == '#'
		switch {
		case state == before:
			if col == 0 && jointsKey(text) {
				state, jointsStart, s.jointsLine = list, off, line
			}
		case blank:
			// A blank or comment line belongs to the piece it is in.
		case body[0] == '\t':
			return s, false // a tab where YAML wants spaces: decoding reports it
		case indent < 0:
			if !dash(body) {
				return s, false // not a block list of entries
			}
			indent = col
			s.pieces = append(s.pieces, piece{start: jointsEnd(data, jointsStart), line: s.jointsLine + 1, first: line, entries: 1})
			cur = &s.pieces[0]
		case col < indent || (col == indent && !dash(body) && indent == 0):
			state, listEnd = after, off
		case col == indent && !dash(body):
			return s, false // not an entry: decoding reports it
		case col == indent:
			if off-cur.start >= splitPiece {
				cur.end = off
				s.pieces = append(s.pieces, piece{start: off, line: line, first: line})
				cur = &s.pieces[len(s.pieces)-1]
			}
			cur.entries++
		}
		off = next
	}
	if cur == nil {
		return s, false
	}
	cur.end = listEnd
	s.indent = indent
	// The rest: `joints: []` on the list's first line, with that line's
	// comment (YAML refuses a control character in a comment too), the
	// list's other lines empty, so that every other line keeps its number.
	lines := bytes.Count(data[jointsStart:listEnd], []byte("\n"))
	if lines == 0 {
		return s, false
	}
	comment := data[jointsStart+len("joints:") : jointsEnd(data, jointsStart)-1]
	rest := make([]byte, 0, len(data)-(listEnd-jointsStart)+len(comment)+lines+16)
	rest = append(rest, data[:jointsStart]...)
	rest = append(rest, "joints: []"...)
	rest = append(rest, comment...)
	for range lines {
		rest = append(rest, '\n')
	}
	s.rest = append(rest, data[listEnd:]...)
	return s, true
}

// lineFeeds reports whether data's lines end only in "\n" or "\r\n":
// yaml.v3 (as libyaml) also breaks lines at a lone "\r" and at U+0085,
// U+2028 and U+2029, which would number lines otherwise than the split.
func lineFeeds(data []byte) bool {
	for _, br := range []string{"\u0085", "\u2028", "\u2029"} {
		if bytes.Contains(data, []byte(br)) {
			return false
		}
	}
	for i := bytes.IndexByte(data, '\r'); i >= 0; i = bytes.IndexByte(data, '\r') {
		if i+1 == len(data) || data[i+1] != '\n' {
			return false
		}
		data = data[i+1:]
	}
	return true
}

// jointsKey reports whether a line is `joints:` with nothing after it but
// a comment.
func jointsKey(text []byte) bool {
	rest, ok := bytes.CutPrefix(text, []byte("joints:"))
	if !ok {
		return false
	}
	rest = bytes.TrimLeft(rest, " \t")
	return len(rest) == 0 || (rest[0] == '#' && len(rest) < len(text)-len("joints:"))
}

// jointsEnd is the offset of the line after the `joints:` line at start.
func jointsEnd(data []byte, start int) int {
	if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
		return start + i + 1
	}
	return len(data)
}

// dash reports whether a line's text (after its indentation) starts a
// block list entry: a `-` then a space or the line's end.
func dash(body []byte) bool {
	return len(body) > 0 && body[0] == '-' && (len(body) == 1 || body[1] == ' ' || body[1] == '\t')
}

// parseSplit decodes a file whose `joints:` list splits into pieces; ok
// is false when it does not (nothing of the attempt is kept then).
func parseSplit(path string, data []byte, mergeLimit int) (f *File, list diag.List, ok bool) {
	s, ok := splitJoints(data)
	if !ok {
		return nil, nil, false
	}
	f = &File{Path: path, byName: map[string]*Device{}}
	p := &parser{file: f, path: path, list: &list, mergeLimit: mergeLimit}
	root, ok := s.root()
	if !ok {
		return nil, nil, false
	}
	root = p.canonicalize(root) // the list is empty here: canonEntry below
	sec := p.sections(root)
	var c canonEntries
	index := 0
	for _, pc := range s.pieces {
		seq, ok := s.decode(data, pc)
		if !ok {
			return nil, nil, false
		}
		for i, e := range seq.Content {
			e = resolve(e)
			p.canonEntry(e, &c)
			if d := p.entry(index, e, deviceKind, nil); d != nil {
				f.Devices = append(f.Devices, d)
			}
			seq.Content[i] = nil
			index++
		}
	}
	if len(c.added) > 0 {
		root = p.addControllers(root, c.added)
		if i := keyIndex(root, "controllers"); i >= 0 {
			sec.controllers = resolve(root.Content[i+1])
		}
	}
	p.finish(sec)
	return f, list, true
}

// root decodes the rest of the file (the list written `[]`): its root
// mapping, or false when it is not one document holding a mapping whose
// `joints:` is that `[]` (the split misread the file).
func (s *jointsSplit) root() (*yaml.Node, bool) {
	dec := yaml.NewDecoder(bytes.NewReader(s.rest))
	var doc, extra yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, false
	}
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, false
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, false
	}
	root := doc.Content[0]
	i := keyIndex(root, "joints")
	if root.Kind != yaml.MappingNode || i < 0 {
		return nil, false
	}
	k, v := root.Content[i], root.Content[i+1]
	if k.Line != s.jointsLine || k.Column != 1 || k.Style != 0 || v.Kind != yaml.SequenceNode ||
		len(v.Content) != 0 || v.Line != s.jointsLine || v.Anchor != "" {
		return nil, false
	}
	return root, true
}

// decode decodes one piece: its list of entries, with the file's line
// numbers, or false when the piece does not stand alone as that list.
func (s *jointsSplit) decode(data []byte, pc piece) (*yaml.Node, bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data[pc.start:pc.end], &doc); err != nil {
		return nil, false
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, false
	}
	seq := doc.Content[0]
	renumber(seq, pc.line-1)
	if seq.Kind != yaml.SequenceNode || seq.Style != 0 || len(seq.Content) != pc.entries ||
		seq.Line != pc.first || seq.Column != s.indent+1 || seq.Anchor != "" {
		return nil, false
	}
	return seq, true
}

// renumber adds by to the line of n and of every node under it.
func renumber(n *yaml.Node, by int) {
	n.Line += by
	for _, c := range n.Content {
		renumber(c, by)
	}
}
