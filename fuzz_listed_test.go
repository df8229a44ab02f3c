package frcd_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFuzzTargetsListed: every fuzz target of the project is in the
// Makefile's FUZZ_TARGETS, so `make fuzz` runs it, and every listed one
// exists (FuzzCycloneInterface and FuzzParamsFile were written and left
// out of make fuzz).
func TestFuzzTargetsListed(t *testing.T) {
	mk, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\t\./([\w/]+):(Fuzz\w+)`).FindAllStringSubmatch(string(mk), -1) {
		listed[m[1]+":"+m[2]] = true
	}
	if len(listed) == 0 {
		t.Fatal("no FUZZ_TARGETS found in the Makefile")
	}
	fuzz := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(`)
	found := map[string]bool{}
	err = filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (path == "third_party" || path == "test" || strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range fuzz.FindAllStringSubmatch(string(b), -1) {
			found[filepath.ToSlash(filepath.Dir(path))+":"+m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for k := range found {
		if !listed[k] {
			t.Errorf("fuzz target %s is not in the Makefile's FUZZ_TARGETS (make fuzz does not run it)", k)
		}
	}
	for k := range listed {
		if !found[k] {
			t.Errorf("FUZZ_TARGETS lists %s, which does not exist", k)
		}
	}
}
