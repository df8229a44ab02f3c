//go:build roborio && cgo

package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/backends"
	"github.com/frcd/frcd/hal/roborio"
)

// openRoboRIO opens the roborio backend as `frcd run --hal roborio` does,
// through the registry.
func openRoboRIO() (hal.Backend, error) {
	be, ok := backends.Lookup("roborio")
	if !ok {
		return nil, errors.New("no roborio backend registered")
	}
	b, _, err := be.Open(nil, nil)
	return b, err
}

// On a machine without the WPILib HAL (any but a roboRIO), opening it
// fails with one line naming the file, where frcd looked and what to do.
func TestOpenRoboRIOWithoutHAL(t *testing.T) {
	withoutHAL(t)
	_, err := openRoboRIO()
	if !errors.Is(err, roborio.ErrNoLibrary) {
		t.Fatalf("openRoboRIO: %v, want roborio.ErrNoLibrary", err)
	}
	msg := err.Error()
	t.Log(msg)
	for _, want := range []string{"libwpiHal.so not found in", "/usr/local/frc/third-party/lib", "/usr/local/frc/lib", "LD_LIBRARY_PATH", roborio.Checklist} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not mention %q", msg, want)
		}
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("error is not one line: %q", msg)
	}
}

// withoutHAL empties LD_LIBRARY_PATH and skips the test on a machine
// whose default directories hold a WPILib HAL (a roboRIO).
func withoutHAL(t *testing.T) {
	t.Helper()
	t.Setenv("LD_LIBRARY_PATH", "")
	for _, d := range roborio.DefaultDirs {
		if _, err := os.Stat(filepath.Join(d, roborio.Library)); err == nil {
			t.Skipf("%s has a WPILib HAL: this is a roboRIO", d)
		}
	}
}

// `frcd run --hal roborio` without the HAL: exit 3, and the library's
// error is the one line on stderr (the example robot has no warnings).
func TestRunRoboRIOWithoutHAL(t *testing.T) {
	withoutHAL(t)
	code, out, errOut := runFrcd("run", "--hal", "roborio", "--no-ros", "../../examples/competition/robot.urdf", "../../examples/competition/robot.yaml")
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if code != exitUnavailable || len(lines) != 1 || !strings.Contains(lines[0], "libwpiHal.so not found") || out != "" {
		t.Errorf("exit %d, stdout %q, stderr %q: want exit 3 and one line", code, out, errOut)
	}
}
