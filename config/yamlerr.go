package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/frcd/frcd/diag"
)

// yaml.v3 names a syntax error's line only, and for most parser errors the
// line of the construct it was reading (a block mapping's first key) rather
// than of the mistake: a key indented one space too few on line 4 of an
// entry that starts on line 2 is reported at line 2. So a syntax error is
// placed by decoding prefixes of the file: the mistake is at the first
// line, then the first character of that line, whose prefix fails with
// the very error the whole file fails with (everything before the mistake
// decodes, or fails otherwise: an unclosed '{' at the cut). Both searches
// gallop from yaml.v3's line, then halve, so the prefixes decoded are
// a few times the prefix up to the mistake; locateMax bounds the file.

// locateMax is the largest file whose syntax error is placed by decoding
// prefixes; a larger one keeps yaml.v3's line.
const locateMax = 1 << 20

// decodeError decodes data as parse does (one document, and whether there
// is a second) and returns its syntax error, nil when there is none.
func decodeError(data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// syntaxError reports err, the syntax error of data, at the line and
// column of the mistake.
func (p *parser) syntaxError(data []byte, err error) {
	line, col, msg := locate(data, err)
	p.list.Errorf(diag.Pos{File: p.path, Line: line, Col: col}, "invalid YAML: %s", msg)
}

// LocateYAML is where data's YAML syntax error err (yaml.v3's) is, as
// frcd's configuration errors place one (by decoding prefixes: see
// above), and what it is; for other YAML files frcd reads (a ROS 2
// --params-file).
func LocateYAML(data []byte, err error) (line, col int, msg string) { return locate(data, err) }

// locate finds the line and column (from 1) of data's syntax error err,
// and says what it is.
func locate(data []byte, err error) (line, col int, msg string) {
	full := err.Error()
	msg = strings.TrimPrefix(full, "yaml: ")
	line, col = 1, 1
	if m := yamlErrLine.FindStringSubmatch(full); m != nil {
		msg = m[2]
		if n, e := strconv.Atoi(m[1]); e == nil && n > 0 {
			line = n
		}
	} else if l, c, r, ok := badChar(data); ok {
		// A reader error (a character YAML does not allow) has no line.
		return l, c, fmt.Sprintf("a control character (%U) at %d:%d; YAML allows tabs, line breaks and printable characters only", r, l, c)
	}
	starts := lineStarts(data)
	if line > len(starts) {
		return line, col, msg
	}
	same := func(end int) bool {
		e := decodeError(data[:end])
		return e != nil && e.Error() == full
	}
	if len(data) <= locateMax {
		// The first line from yaml.v3's (a parser error's is 0-based: the
		// mistake is at or after it) whose prefix fails the same way.
		line = 1 + firstTrue(line-1, len(starts)-1, func(i int) bool { return same(lineEnd(data, starts, i+1)) })
	}
	text := lineText(data, starts, line)
	col = len(text) - len(bytes.TrimLeft(text, " \t")) + 1
	switch {
	case parserError(msg):
		// A structure the parser did not expect at this line, most often
		// its indentation: the line's first character.
		switch {
		case strings.HasSuffix(msg, "key") || strings.HasSuffix(msg, "indicator"):
			msg += " (check this line's indentation against the lines above)"
		case strings.HasSuffix(msg, "'}'") || strings.HasSuffix(msg, "']'"):
			msg += " (a '{' or '[' from here on is not closed)"
		}
	case len(data) <= locateMax:
		if msg == "mapping values are not allowed in this context" {
			msg += " (a `key:` where a value goes on: check the indentation, or quote a value holding \": \")"
		}
		// The first character of the line whose prefix fails the same way.
		var ends []int
		for i := 0; i < len(text); {
			_, n := utf8.DecodeRune(text[i:])
			i += n
			ends = append(ends, i)
		}
		at := func(c int) bool { return same(starts[line-1] + ends[c]) }
		if c := firstTrue(0, len(ends)-1, at); c < len(ends) && at(c) {
			col = c + 1
		}
	}
	if tc := tabColumn(text, col); tc > 0 {
		return line, tc, fmt.Sprintf("a tab character at %d:%d; YAML indents with spaces", line, tc)
	}
	return line, col, msg
}

// firstTrue is the first i in [lo, hi] for which f holds, f false before
// it and true from it on; hi when there is none. It gallops from lo (1, 2,
// 4... on), then halves: a mistake is most often near where yaml.v3 says,
// and a prefix costs its length to decode.
func firstTrue(lo, hi int, f func(int) bool) int {
	for step := 1; lo < hi; step *= 2 {
		next := min(lo+step-1, hi)
		if f(next) {
			hi = next
			break
		}
		lo = next + 1
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if f(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// tabColumn is the column of the tab a syntax error at col on a line is
// about: one in the line's indentation, or the character at col; 0 when
// there is none.
func tabColumn(text []byte, col int) int {
	for i, b := range text {
		if b == '\t' {
			return utf8.RuneCount(text[:i]) + 1
		}
		if b != ' ' {
			break
		}
	}
	if i := runeOffset(text, col-1); i < len(text) && text[i] == '\t' {
		return col
	}
	return 0
}

// runeOffset is the byte offset of the n-th rune (from 0) of text.
func runeOffset(text []byte, n int) int {
	i := 0
	for ; n > 0 && i < len(text); n-- {
		_, size := utf8.DecodeRune(text[i:])
		i += size
	}
	return i
}

// badChar finds the first character YAML does not allow in a stream:
// anything but tab, line feed, carriage return and the printable ranges
// (YAML 1.2 §5.1, c-printable).
func badChar(data []byte) (line, col int, r rune, ok bool) {
	line, col = 1, 1
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		if !printable(r) {
			return line, col, r, true
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		data = data[n:]
	}
	return 0, 0, 0, false
}

func printable(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r' || r == 0x85:
		return true
	case r >= 0x20 && r <= 0x7e, r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd, r >= 0x10000 && r <= 0x10ffff:
		return true
	}
	return false
}

// lineStarts is the offset of each line of data.
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineEnd is the offset after line n (from 1) and its line feed.
func lineEnd(data []byte, starts []int, n int) int {
	if n < len(starts) {
		return starts[n]
	}
	return len(data)
}

// lineText is line n (from 1) without its line end.
func lineText(data []byte, starts []int, n int) []byte {
	return bytes.TrimRight(data[starts[n-1]:lineEnd(data, starts, n)], "\r\n")
}

// parserError tells yaml.v3's parser errors from its scanner errors by
// their text: a parser error is about the structure (an entry or key where
// the parser expected something else), a scanner error about a character.
func parserError(msg string) bool {
	rest, ok := strings.CutPrefix(msg, "did not find expected ")
	if !ok {
		return false
	}
	switch rest {
	case "alphabetic or numeric character", "whitespace or line break", "comment or line break":
		return false // scanner errors
	}
	return true
}
