//go:build cgo && (roborio || systemcore)

package wpihal

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/frcd/frcd/internal/fakehal"
	"github.com/frcd/frcd/internal/tooltest"
)

// libs holds the fake HALs, compiled once per test run.
var libs struct {
	once sync.Once
	dir  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if libs.dir != "" {
		os.RemoveAll(libs.dir)
	}
	os.Exit(code)
}

// cc is the C compiler the fake HALs are built with: the host's, or
// $FAKEHAL_CC (make rio runs these tests as an ARM binary under qemu-arm,
// with the fake built by the ARM cross compiler).
func cc() string {
	if c := os.Getenv("FAKEHAL_CC"); c != "" {
		return c
	}
	return "cc"
}

// compile builds a shared library from C source.
func compile(t *testing.T, out string, args ...string) {
	t.Helper()
	cmd := exec.Command(cc(), append([]string{"-shared", "-fPIC", "-o", out}, args...)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cc %s: %v\n%s", strings.Join(args, " "), err, b)
	}
}

// fakeLib is the path of the fake libwpiHal.so of Year
// (internal/fakehal).
func fakeLib(t *testing.T) string {
	t.Helper()
	tooltest.Require(t, tooltest.CC)
	libs.once.Do(func() {
		libs.dir, libs.err = os.MkdirTemp("", "fakehal")
		if libs.err == nil {
			_, libs.err = fakehal.Build(libs.dir, cc(), Year)
		}
	})
	if libs.err != nil {
		t.Fatalf("building the fake HAL: %v", libs.err)
	}
	return filepath.Join(libs.dir, Library)
}

// fake is a Backend open on the fake HAL, with its call log and inputs.
type fake struct {
	t       *testing.T
	b       *Backend
	log, in string
	seen    int // log lines already returned by calls
}

// open opens a Backend on the fake HAL with inputs lines.
func open(t *testing.T, inputs ...string) *fake {
	t.Helper()
	lib := fakeLib(t)
	dir := t.TempDir()
	f := &fake{t: t, log: filepath.Join(dir, "log"), in: filepath.Join(dir, "in")}
	t.Setenv("FAKEHAL_LOG", f.log)
	t.Setenv("FAKEHAL_IN", f.in)
	f.set(inputs...)
	b, err := Open(Options{Library: lib})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	f.b = b
	t.Cleanup(func() { b.Close() })
	return f
}

// set appends input lines; a later line of a key wins.
func (f *fake) set(lines ...string) {
	f.t.Helper()
	file, err := os.OpenFile(f.in, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		f.t.Fatal(err)
	}
	defer file.Close()
	for _, l := range lines {
		if _, err := file.WriteString(l + "\n"); err != nil {
			f.t.Fatal(err)
		}
	}
}

// calls returns the HAL calls logged since the last calls.
func (f *fake) calls() []string {
	f.t.Helper()
	b, err := os.ReadFile(f.log)
	if err != nil && !os.IsNotExist(err) {
		f.t.Fatal(err)
	}
	all := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(b) == 0 {
		all = nil
	}
	got := all[f.seen:]
	f.seen = len(all)
	return got
}

// expect checks that the calls since the last check are exactly want.
func (f *fake) expect(want ...string) {
	f.t.Helper()
	got := f.calls()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		f.t.Errorf("HAL calls:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func mustStatus(t *testing.T, err error, code int32, sentinel error, msg string) {
	t.Helper()
	var se *StatusError
	if !errors.As(err, &se) {
		t.Fatalf("error %v is not a *StatusError", err)
	}
	if se.Code != code || !strings.Contains(se.Message, msg) {
		t.Errorf("status error %q: code %d, message %q; want %d and %q", err, se.Code, se.Message, code, msg)
	}
	if sentinel != nil && !errors.Is(err, sentinel) {
		t.Errorf("error %q does not wrap %v", err, sentinel)
	}
}

// oneLineWith checks that err is a single line mentioning every part
// and wraps ErrNoLibrary.
func oneLineWith(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") {
		t.Errorf("error is not one line: %q", msg)
	}
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("error %q does not mention %q", msg, p)
		}
	}
	if !errors.Is(err, ErrNoLibrary) {
		t.Errorf("error %q does not wrap ErrNoLibrary", msg)
	}
}
