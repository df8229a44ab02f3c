package tooltest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ControllersYAML writes the robot YAML at path with the lines holding
// any of drop removed and add inserted after `controllers:`, into a
// temporary directory, and returns the new file's path.
func ControllersYAML(t testing.TB, path string, drop []string, add string) string {
	t.Helper()
	ys, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(ys), "\n") {
		keep := true
		for _, d := range drop {
			keep = keep && !strings.Contains(l, d)
		}
		if keep {
			lines = append(lines, l)
		}
		if strings.HasPrefix(l, "controllers:") {
			lines = append(lines, add)
		}
	}
	out := filepath.Join(t.TempDir(), "robot.yaml")
	if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// ExampleDrive is what begins the line of examples/competition's
// diff_drive_controller (drive): a test that drops it drives the base its
// own way.
const ExampleDrive = "  drive: {type: diff_drive_controller/DiffDriveController"

// DiffDriveYAML is the competition robot's YAML (at path) with its drive
// controller replaced by the tests' own diff_drive_controller named drive
// (the wheel feedforward the sim's CIMs need, no velocity limits, no IMU),
// extra appended to its entry's keys ("" for none).
func DiffDriveYAML(t testing.TB, path, extra string) string {
	t.Helper()
	if extra != "" {
		extra = ", " + extra
	}
	return ControllersYAML(t, path, []string{ExampleDrive},
		"  drive: {type: diff_drive_controller/DiffDriveController, left_wheel: [left_front_wheel_joint, left_rear_wheel_joint], "+
			"right_wheel: [right_front_wheel_joint, right_rear_wheel_joint], wheel_pid: {p: 0.5, i: 4, f: 0.23}"+extra+"}")
}
