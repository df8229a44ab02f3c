package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/wpilog"
)

// A file of WPILib's layout (frcd's now) and one of frcd's first (bare
// names), each told apart with where it says the robot was enabled.
func TestLogSummaryLayouts(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		base, enabled, typ, layout string
	}{
		{"new", "DS:enabled", "boolean", wpilog.LayoutWPILib},
		{"old", "/frcd/ds/enabled", "boolean", wpilog.LayoutBare},
	} {
		w, err := wpilog.Create(wpilog.WriterOptions{Dir: dir, Base: c.base, Extra: "frcd"})
		if err != nil {
			t.Fatal(err)
		}
		id := w.Start(c.enabled, c.typ, "", 1000)
		for i := range 3 {
			w.Append(id, int64(1000+i*10000), wpilog.AppendBool(nil, i == 1))
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		var out, errs strings.Builder
		if code := run([]string{"log", "summary", w.Path()}, &out, &errs); code != exitOK {
			t.Fatalf("%s: exit %d: %s", c.base, code, errs.String())
		}
		for _, want := range []string{"layout: " + c.layout, "enabled: " + c.enabled + ", 3 records"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: summary lacks %q:\n%s", c.base, want, out.String())
			}
		}
	}
}

func TestLogSummary(t *testing.T) {
	dir := t.TempDir()
	w, err := wpilog.Create(wpilog.WriterOptions{Dir: dir, Base: "run", Extra: "frcd"})
	if err != nil {
		t.Fatal(err)
	}
	id := w.Start("/frcd/joints/arm/position", "double", `{"unit":"rad"}`, 1000)
	for i := range 5 {
		w.Append(id, int64(1000+i*10000), wpilog.AppendDouble(nil, float64(i)))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var out, errs strings.Builder
	if code := run([]string{"log", "summary", w.Path()}, &out, &errs); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, want := range []string{"6 records", "1 entries", "/frcd/joints/arm/position", "double", "5 records", `{"unit":"rad"}`, "layout: " + wpilog.LayoutBare} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}

	bad := filepath.Join(dir, "bad.wpilog")
	os.WriteFile(bad, []byte("not a log"), 0o644)
	out.Reset()
	errs.Reset()
	if code := run([]string{"log", "summary", bad}, &out, &errs); code != exitInvalid || !strings.Contains(errs.String(), "not a WPILOG file") {
		t.Errorf("a file that is no log: exit %d, %q", code, errs.String())
	}
	b, _ := os.ReadFile(w.Path())
	trunc := filepath.Join(dir, "cut.wpilog")
	os.WriteFile(trunc, b[:len(b)-3], 0o644)
	out.Reset()
	if code := run([]string{"log", "summary", trunc}, &out, &errs); code != exitInvalid || !strings.Contains(out.String(), "truncated") {
		t.Errorf("a cut file: exit %d, %q", code, out.String())
	}
	if code := run([]string{"log", "sumary", w.Path()}, &out, &errs); code != exitUsage {
		t.Errorf("a misspelt subcommand: exit %d", code)
	}
}
