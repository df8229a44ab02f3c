// Package diag holds findings about a user's files: a message with its
// severity and the file:line:col it is about. The urdf, config and robot
// packages report every problem they find as a Finding, so that a user sees
// all of them at once, sorted, in one format.
//
// diag imports only the standard library.
package diag

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
)

// Severity says whether a finding stops the robot from running.
type Severity int

const (
	// Error findings make a description invalid: frcd refuses to run it.
	Error Severity = iota
	// Warning findings are suspicious but legal; --strict makes them errors.
	Warning
	// Note findings inform: a form accepted for compatibility, something
	// left alone on purpose. --strict leaves them notes.
	Note
)

func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Note:
		return "note"
	}
	return "error"
}

// MarshalText makes a Severity encode as "error" or "warning" in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Pos is a place in a file. Line and Col count from 1; Col counts
// characters (runes), not bytes. A zero Line means "the file as a whole".
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"column"`
}

// String formats the position as file:line:col, the form editors and
// compilers use, so that a terminal or an IDE can jump to it.
func (p Pos) String() string {
	line, col := p.Line, p.Col
	if line < 1 {
		line = 1
	}
	if col < 1 {
		col = 1
	}
	return fmt.Sprintf("%s:%d:%d", p.File, line, col)
}

// Finding is one problem in a user's files.
type Finding struct {
	Pos
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
}

func (f Finding) String() string {
	return fmt.Sprintf("%s: %s: %s", f.Pos, f.Severity, f.Message)
}

// List collects findings. The zero value is ready to use.
type List []Finding

// Errorf adds an error at pos.
func (l *List) Errorf(pos Pos, format string, args ...any) {
	*l = append(*l, Finding{Pos: pos, Severity: Error, Message: fmt.Sprintf(format, args...)})
}

// Warnf adds a warning at pos.
func (l *List) Warnf(pos Pos, format string, args ...any) {
	*l = append(*l, Finding{Pos: pos, Severity: Warning, Message: fmt.Sprintf(format, args...)})
}

// Notef adds a note at pos.
func (l *List) Notef(pos Pos, format string, args ...any) {
	*l = append(*l, Finding{Pos: pos, Severity: Note, Message: fmt.Sprintf(format, args...)})
}

// Add appends other findings.
func (l *List) Add(other ...Finding) { *l = append(*l, other...) }

// Errors counts the error findings.
func (l List) Errors() int { return l.count(Error) }

// Warnings counts the warning findings.
func (l List) Warnings() int { return l.count(Warning) }

// Notes counts the note findings.
func (l List) Notes() int { return l.count(Note) }

func (l List) count(s Severity) int {
	n := 0
	for _, f := range l {
		if f.Severity == s {
			n++
		}
	}
	return n
}

// Strict turns every warning into an error; notes stay notes.
func (l List) Strict() {
	for i := range l {
		if l[i].Severity == Warning {
			l[i].Severity = Error
		}
	}
}

// Sort orders findings by file, line, column, then severity and message, and
// drops exact duplicates, so output is stable whatever order checks ran in.
func (l *List) Sort() {
	s := *l
	sort.SliceStable(s, func(i, j int) bool {
		a, b := s[i], s[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		if a.Severity != b.Severity {
			return a.Severity < b.Severity
		}
		return a.Message < b.Message
	})
	out := s[:0]
	for i, f := range s {
		if i > 0 && f == s[i-1] {
			continue
		}
		out = append(out, f)
	}
	*l = out
}

// WriteText writes one finding a line, as file:line:col: severity: message.
func (l List) WriteText(w io.Writer) error {
	// Buffered, not built whole: the findings of a file at the size limit
	// (hundreds of thousands) would otherwise be held twice in memory.
	b := bufio.NewWriterSize(w, 64<<10)
	for _, f := range l {
		fmt.Fprintf(b, "%s: %s: %s\n", f.Pos, f.Severity, f.Message)
	}
	return b.Flush()
}

// Report is the JSON form of a list of findings, for CI and editors.
type Report struct {
	Findings []Finding `json:"findings"`
	Errors   int       `json:"errors"`
	Warnings int       `json:"warnings"`
	Notes    int       `json:"notes,omitempty"`
}

// WriteJSON writes the findings as an indented Report.
func (l List) WriteJSON(w io.Writer) error {
	r := Report{Findings: l, Errors: l.Errors(), Warnings: l.Warnings(), Notes: l.Notes()}
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
