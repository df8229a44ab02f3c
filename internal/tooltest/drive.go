package tooltest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// DiffDriveYAML writes the competition robot's YAML (at path) with its
// four wheel voltage controllers replaced by a diff_drive_controller named
// drive, extra appended to its entry's keys ("" for none), into a
// temporary directory, and returns the new file's path.
func DiffDriveYAML(t testing.TB, path, extra string) string {
	t.Helper()
	ys, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if extra != "" {
		extra = ", " + extra
	}
	var lines []string
	for _, l := range strings.Split(string(ys), "\n") {
		if strings.Contains(l, "_wheel_joint}") && strings.Contains(l, "JointVoltageController") {
			continue
		}
		lines = append(lines, l)
		if strings.HasPrefix(l, "controllers:") {
			lines = append(lines, "  drive: {type: diff_drive_controller/DiffDriveController, left_wheel: [left_front_wheel_joint, left_rear_wheel_joint], "+
				"right_wheel: [right_front_wheel_joint, right_rear_wheel_joint], wheel_pid: {p: 0.3, f: 0.55}"+extra+"}")
		}
	}
	out := filepath.Join(t.TempDir(), "robot.yaml")
	if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}
