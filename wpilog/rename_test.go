package wpilog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFileBase(t *testing.T) {
	start := time.Date(2026, 3, 14, 15, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		parts []string
		want  string
	}{
		{nil, "frcd_20260314_153000"},
		{[]string{""}, "frcd_20260314_153000"},
		{[]string{"2026 CTR/..", "Q12"}, "frcd_20260314_153000_2026CTR_Q12"},
		{[]string{"", "E2"}, "frcd_20260314_153000_E2"},
	} {
		if got := FileBase(start, c.parts...); got != c.want {
			t.Errorf("FileBase(%q) = %q, want %q", c.parts, got, c.want)
		}
	}
}

// Rename moves the file being written, which goes on being written, and
// names the parts after it; a name taken is refused with nothing moved.
func TestRename(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(WriterOptions{Dir: dir, Base: "frcd_run", Extra: "frcd", MaxBytes: 4 << 10})
	if err != nil {
		t.Fatal(err)
	}
	id := w.Start("/x", "double", "", 0)
	w.Append(id, 1, make([]byte, 8))
	if err := os.WriteFile(filepath.Join(dir, "taken.wpilog"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := w.Rename("taken"); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("Rename onto a file: %v", err)
	}
	if filepath.Base(w.Path()) != "frcd_run.wpilog" {
		t.Errorf("path after a refused rename: %s", w.Path())
	}
	if err := w.Rename("frcd_run_ev_Q3"); err != nil {
		t.Fatal(err)
	}
	if filepath.Base(w.Path()) != "frcd_run_ev_Q3.wpilog" {
		t.Errorf("path %s", w.Path())
	}
	for i := int64(2); w.part < 2; i++ {
		w.Append(id, i, make([]byte, 8))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.wpilog"))
	for i := range files {
		files[i] = filepath.Base(files[i])
	}
	if want := "frcd_run_ev_Q3.wpilog frcd_run_ev_Q3_0002.wpilog taken.wpilog"; strings.Join(files, " ") != want {
		t.Errorf("files %v, want %s", files, want)
	}
	b, err := os.ReadFile(filepath.Join(dir, "frcd_run_ev_Q3.wpilog"))
	if err != nil || len(b) < 2<<10 { // some 100 bytes at the rename, then up to the 4 KiB cap
		t.Errorf("the renamed file holds %d bytes (%v), want what was written before and after", len(b), err)
	}
}
