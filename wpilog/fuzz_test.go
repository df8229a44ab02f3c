package wpilog

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/tooltest"
)

// FuzzSummarize feeds frcd log summary's reader any file: it never
// panics, stays within its limits and the input, and what it reports
// adds up.
func FuzzSummarize(f *testing.F) {
	dir := f.TempDir()
	w, err := Create(WriterOptions{Dir: dir, Base: "seed", Extra: "frcd"})
	if err != nil {
		f.Fatal(err)
	}
	id := w.Start("/a", "double", `{"unit":"m"}`, 1)
	w.Append(id, 2, AppendDouble(nil, 1.5))
	s := w.Start("/.schema/struct:Rotation2d", "structschema", "", 3)
	w.Append(s, 3, []byte("double value"))
	w.SetMetadata(id, `{"unit":"rad"}`, 4)
	w.Finish(id, 5)
	if err := w.Close(); err != nil {
		f.Fatal(err)
	}
	seed, err := os.ReadFile(filepath.Join(dir, "seed.wpilog"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte("WPILOG\x00\x01\x00\x00\x00\x00"))
	f.Add([]byte("WPILOG\x00\x01\xff\xff\xff\xff"))
	f.Add(append([]byte("WPILOG\x00\x01\x00\x00\x00\x00"), 0x7f, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1<<20 {
			return
		}
		tooltest.Within(t, 2*time.Second, func() {
			s, err := Summarize(bytes.NewReader(b))
			if err != nil {
				return
			}
			if s.Bytes > int64(len(b)) || s.Records > len(b) || len(s.Problems) > 100 {
				t.Fatalf("summary %d bytes, %d records, %d problems of a %d-byte input", s.Bytes, s.Records, len(s.Problems), len(b))
			}
			n := 0
			for _, e := range s.Entries {
				n += e.Records
			}
			if n > s.Records {
				t.Fatalf("entries hold %d records of %d", n, s.Records)
			}
			s.Write(io.Discard)
		})
	})
}
