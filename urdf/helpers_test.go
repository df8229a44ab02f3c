package urdf

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/frcd/frcd/diag"
)

const testFile = "r.urdf"

// at locates needle in src and returns its position, computed independently
// of Parse: lines split at '\n', columns count runes. A '|' in needle marks
// the exact spot (so a needle can carry context to be unique); without one
// the spot is the needle's start. The needle must occur exactly once.
func at(t *testing.T, src, needle string) diag.Pos {
	t.Helper()
	mark := strings.IndexByte(needle, '|')
	plain := strings.Replace(needle, "|", "", 1)
	if mark < 0 {
		mark = 0
	}
	i := strings.Index(src, plain)
	if i < 0 {
		t.Fatalf("needle %q not in source", plain)
	}
	if strings.Count(src, plain) != 1 {
		t.Fatalf("needle %q occurs %d times; make it unique", plain, strings.Count(src, plain))
	}
	off := i + mark
	lineStart := strings.LastIndexByte(src[:off], '\n') + 1
	return diag.Pos{
		File: testFile,
		Line: 1 + strings.Count(src[:off], "\n"),
		Col:  1 + utf8.RuneCountInString(src[lineStart:off]),
	}
}

// finding is an expected finding: where (a needle for at), how bad, what.
type finding struct {
	at  string
	sev diag.Severity
	msg string
}

// E and W build expected findings.
func E(at, msg string) finding { return finding{at, diag.Error, msg} }
func W(at, msg string) finding { return finding{at, diag.Warning, msg} }

// expect checks that Parse reports exactly want on src, positions included.
func expect(t *testing.T, src string, want ...finding) *Robot {
	t.Helper()
	r, got := Parse(testFile, []byte(src))
	if r == nil {
		t.Fatal("Parse returned a nil Robot")
	}
	var exp diag.List
	for _, w := range want {
		exp = append(exp, diag.Finding{Pos: at(t, src, w.at), Severity: w.sev, Message: w.msg})
	}
	exp.Sort()
	gs, ws := lines(got), lines(exp)
	if strings.Join(gs, "\n") != strings.Join(ws, "\n") {
		t.Errorf("source:\n%s\ngot:\n\t%s\nwant:\n\t%s", src, strings.Join(gs, "\n\t"), strings.Join(ws, "\n\t"))
	}
	return r
}

func lines(l diag.List) []string {
	out := make([]string, len(l))
	for i, f := range l {
		out[i] = f.String()
	}
	return out
}
