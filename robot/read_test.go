package robot

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadLimits: a file over its limit, or an endless one, is refused
// with an error naming the limit, after reading no more than the limit.
func TestReadLimits(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.urdf")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxURDFBytes + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	if _, err := ReadFile(big, MaxURDFBytes); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "over the 32 MiB limit") {
		t.Errorf("a 32 MiB + 1 file: %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := ReadFile("/dev/zero", 1<<20); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "more than the 1 MiB limit") {
			t.Errorf("/dev/zero: %v", err)
		}
		_, list, err := Load("/dev/zero", "/dev/zero")
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(fmt.Sprint(list), "/dev/zero:1:1: error: cannot read file: file too large: more than the 32 MiB limit") ||
			!strings.Contains(fmt.Sprint(list), "more than the 8 MiB limit") {
			t.Errorf("Load(/dev/zero, /dev/zero): %v\n%v", err, list)
		}
	}
	exact := filepath.Join(dir, "exact")
	if err := os.WriteFile(exact, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(exact, 5); err != nil || string(data) != "12345" {
		t.Errorf("a file at the limit: %q, %v", data, err)
	}
	if _, err := ReadFile(exact, 4); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "5 bytes is over the 4 bytes limit") {
		t.Errorf("a file one byte over: %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "none"), 5); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
