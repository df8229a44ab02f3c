package urdf

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/frcd/frcd/internal/tooltest"
)

var update = flag.Bool("update", false, "rewrite the corpus's golden .want files")

const corpusDir = "testdata/corpus"

// corpusEntry is a line of testdata/corpus/manifest.tsv: a real URDF from a
// public repository, where it came from, and, when frcd and check_urdf do
// not agree on accepting it, why.
type corpusEntry struct {
	file, repo, path, commit, licence string
	// differs is "" when frcd accepts the file exactly when check_urdf
	// does; otherwise the reason, which names frcd's finding.
	differs string
}

func readManifest(t *testing.T) []corpusEntry {
	t.Helper()
	f, err := os.Open(filepath.Join(corpusDir, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusEntry
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) != 6 {
			t.Fatalf("manifest.tsv:%d: %d fields, want 6 (file, repository, path, commit, licence, differs)", n, len(c))
		}
		for i := 0; i < 5; i++ {
			if c[i] == "" {
				t.Fatalf("manifest.tsv:%d: field %d is empty", n, i+1)
			}
		}
		if c[5] == "-" {
			c[5] = ""
		}
		out = append(out, corpusEntry{c[0], c[1], c[2], c[3], c[4], c[5]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCorpus reads every URDF of the corpus: frcd must give exactly the
// findings of its .want file (go test ./urdf -run Corpus -update rewrites
// them), and accept it exactly when Debian's check_urdf does, unless the
// manifest names the real error frcd reports and check_urdf does not.
func TestCorpus(t *testing.T) {
	entries := readManifest(t)
	listed := map[string]bool{}
	for _, e := range entries {
		listed[e.file] = true
	}
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.urdf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !listed[filepath.Base(f)] {
			t.Errorf("%s is not in manifest.tsv: note its source, commit and licence", f)
		}
	}
	if len(entries) < 20 {
		t.Fatalf("the corpus has %d files; it should keep at least 20", len(entries))
	}

	frcdOK := map[string]bool{}
	for _, e := range entries {
		path := filepath.Join(corpusDir, e.file)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v", e.file, err)
			continue
		}
		_, l := Parse(e.file, data)
		got := strings.Join(lines(l), "\n")
		if got != "" {
			got += "\n"
		}
		want := filepath.Join(corpusDir, strings.TrimSuffix(e.file, ".urdf")+".want")
		if *update {
			if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		} else if w, err := os.ReadFile(want); err != nil {
			t.Errorf("%s: %v (go test ./urdf -run Corpus -update writes it)", e.file, err)
		} else if string(w) != got {
			t.Errorf("%s: findings differ from %s\ngot:\n%s\nwant:\n%s", e.file, want, got, w)
		}
		frcdOK[e.file] = l.Errors() == 0
	}

	t.Run("check_urdf", func(t *testing.T) {
		tooltest.Require(t, tooltest.CheckURDF)
		var table []string
		agree := 0
		for _, e := range entries {
			ok, out := checkURDF(t, filepath.Join(corpusDir, e.file))
			verdict := func(b bool) string {
				if b {
					return "accepts"
				}
				return "rejects"
			}
			same := ok == frcdOK[e.file]
			switch {
			case same && e.differs != "":
				t.Errorf("%s: frcd and check_urdf agree (both %s) but manifest.tsv says they differ: %s", e.file, verdict(ok), e.differs)
			case !same && e.differs == "":
				t.Errorf("%s: check_urdf %s it, frcd %s it; name the reason in manifest.tsv or fix frcd\ncheck_urdf: %s", e.file, verdict(ok), verdict(frcdOK[e.file]), out)
			case !same && ok && frcdOK[e.file]:
				// unreachable: same would be true
			}
			if same {
				agree++
			}
			note := e.differs
			if note == "" {
				note = "agree"
			}
			table = append(table, "| "+e.file+" | "+verdict(ok)+" | "+verdict(frcdOK[e.file])+" | "+note+" |")
		}
		sort.Strings(table)
		t.Logf("agreement with check_urdf: %d of %d\n| file | check_urdf | frcd | |\n|---|---|---|---|\n%s", agree, len(entries), strings.Join(table, "\n"))
	})
}

// checkURDF runs Debian's check_urdf on path: whether it accepts the file,
// and its first line of complaint.
func checkURDF(t *testing.T, path string) (bool, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), tooltest.Timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, tooltest.CheckURDF.Name, path).CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true, ""
	case errors.As(err, &exit) && ctx.Err() == nil:
		first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		return false, first
	}
	t.Fatalf("check_urdf %s: %v\n%s", path, err, out)
	return false, ""
}
