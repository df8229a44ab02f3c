package diag

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestSuggest(t *testing.T) {
	cands := []string{"talon", "spark", "victor_sp", "double_solenoid", "dist_per_pulse", "pdp_ch"}
	cases := []struct{ word, want string }{
		{"tallon", "talon"},
		{"Talon", "talon"},
		{"sprak", "spark"}, // transposition
		{"victor-sp", "victor_sp"},
		{"double_solinoid", "double_solenoid"},
		{"dist_per_pluse", "dist_per_pulse"},
		{"pdpch", "pdp_ch"},
		{"talon", ""}, // exact match is not a suggestion
		{"navx", ""},  // nothing close
		{"x", ""},
		{"", ""},
	}
	for _, c := range cases {
		if got := Suggest(c.word, cands); got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.word, got, c.want)
		}
	}
	if got := DidYouMean("tallon", cands); got != ` (did you mean "talon"?)` {
		t.Errorf("DidYouMean = %q", got)
	}
	if got := DidYouMean("zzz", cands); got != "" {
		t.Errorf("DidYouMean(zzz) = %q", got)
	}
}

func TestDistance(t *testing.T) {
	cases := []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"abc", "abc", 0},
		{"abc", "acb", 1}, {"kitten", "sitting", 3}, {"ca", "abc", 3},
	}
	long := strings.Repeat("ab", 40) // past the 32 characters kept off the heap
	cases = append(cases, struct {
		a, b string
		d    int
	}{long, long + "c", 1}, struct {
		a, b string
		d    int
	}{"Ä-x", "ä_x", 1}) // only ASCII letters fold; '-' is '_'
	for _, c := range cases {
		if got := distance(c.a, c.b); got != c.d {
			t.Errorf("distance(%q,%q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

// TestSuggestAllocs: a hint for a key or type name takes no heap memory (a
// file at the size limit asks hundreds of thousands; 183 MB of garbage
// when each distance allocated its rows).
func TestSuggestAllocs(t *testing.T) {
	cands := []string{"talon", "spark", "victor_sp", "double_solenoid", "dist_per_pulse", "pdp_ch"}
	if n := testing.AllocsPerRun(100, func() { Suggest("dist_per_pluse", cands) }); n != 0 {
		t.Errorf("Suggest allocates %v times a call", n)
	}
}

func TestSortDedupAndCounts(t *testing.T) {
	var l List
	p := func(f string, line, col int) Pos { return Pos{File: f, Line: line, Col: col} }
	l.Warnf(p("b.yaml", 1, 1), "w")
	l.Errorf(p("a.urdf", 10, 2), "e2")
	l.Errorf(p("a.urdf", 2, 30), "e1")
	l.Errorf(p("a.urdf", 2, 30), "e1") // duplicate
	l.Warnf(p("a.urdf", 2, 30), "e1")
	l.Sort()
	want := []string{
		"a.urdf:2:30: error: e1",
		"a.urdf:2:30: warning: e1",
		"a.urdf:10:2: error: e2",
		"b.yaml:1:1: warning: w",
	}
	if len(l) != len(want) {
		t.Fatalf("got %d findings %v, want %d", len(l), l, len(want))
	}
	for i, f := range l {
		if f.String() != want[i] {
			t.Errorf("[%d] = %q, want %q", i, f.String(), want[i])
		}
	}
	if l.Errors() != 2 || l.Warnings() != 2 {
		t.Errorf("errors %d warnings %d, want 2 2", l.Errors(), l.Warnings())
	}
	l.Strict()
	if l.Errors() != 4 {
		t.Errorf("after Strict errors = %d, want 4", l.Errors())
	}
}

func TestPosString(t *testing.T) {
	if got := (Pos{File: "f"}).String(); got != "f:1:1" {
		t.Errorf("zero pos = %q", got)
	}
}

func TestWriteJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := (List{}).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var r struct {
		Findings []any `json:"findings"`
		Errors   int   `json:"errors"`
	}
	if err := json.Unmarshal(buf.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Findings == nil || len(r.Findings) != 0 || r.Errors != 0 {
		t.Errorf("empty report = %s", buf.String())
	}
	buf.Reset()
	var l List
	l.Warnf(Pos{File: "x.yaml", Line: 3, Col: 4}, "hi")
	if err := l.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(buf.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	f := raw["findings"].([]any)[0].(map[string]any)
	if f["file"] != "x.yaml" || f["line"] != 3.0 || f["column"] != 4.0 || f["severity"] != "warning" || f["message"] != "hi" || raw["warnings"] != 1.0 {
		t.Errorf("json = %s", buf.String())
	}
}

func TestNotes(t *testing.T) {
	var l List
	l.Notef(Pos{File: "a.yaml", Line: 3, Col: 1}, "n")
	l.Warnf(Pos{File: "a.yaml", Line: 2, Col: 1}, "w")
	l.Errorf(Pos{File: "a.yaml", Line: 3, Col: 1}, "e")
	l.Sort()
	if got := l[2].String(); got != "a.yaml:3:1: note: n" {
		t.Errorf("last finding %q, want the note after the error on its line", got)
	}
	if l.Errors() != 1 || l.Warnings() != 1 || l.Notes() != 1 {
		t.Errorf("errors %d warnings %d notes %d, want 1 1 1", l.Errors(), l.Warnings(), l.Notes())
	}
	l.Strict()
	if l.Errors() != 2 || l.Notes() != 1 {
		t.Errorf("after Strict errors %d notes %d, want 2 1: a note stays a note", l.Errors(), l.Notes())
	}
}
