//go:build roborio && cgo

package main

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/frcd/frcd/hal/roborio"
)

// On a machine without the WPILib HAL (any but a roboRIO), opening it
// fails with one line naming the file, where frcd looked and what to do.
func TestOpenRoboRIOWithoutHAL(t *testing.T) {
	t.Setenv("LD_LIBRARY_PATH", "")
	for _, d := range roborio.DefaultDirs {
		if _, err := lookup(d); err == nil {
			t.Skipf("%s has a WPILib HAL: this is a roboRIO", d)
		}
	}
	_, _, err := openRoboRIO()
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

func lookup(dir string) (string, error) {
	p := dir + "/" + roborio.Library
	_, err := os.Stat(p)
	return p, err
}

// `frcd run --hal roborio` without the HAL: exit 3, and the library's
// error is the one line on stderr (the example robot has no warnings).
func TestRunRoboRIOWithoutHAL(t *testing.T) {
	t.Setenv("LD_LIBRARY_PATH", "")
	for _, d := range roborio.DefaultDirs {
		if _, err := lookup(d); err == nil {
			t.Skipf("%s has a WPILib HAL: this is a roboRIO", d)
		}
	}
	code, out, errOut := runFrcd("run", "--hal", "roborio", "--no-ros", "../../examples/competition/robot.urdf", "../../examples/competition/robot.yaml")
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if code != exitUnavailable || len(lines) != 1 || !strings.Contains(lines[0], "libwpiHal.so not found") || out != "" {
		t.Errorf("exit %d, stdout %q, stderr %q: want exit 3 and one line", code, out, errOut)
	}
}
