package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/config"
)

const legacyYAML = `# Our robot.
frc_robot_hw_real:
  joints:
    # the PDP
    pdp: {type: pdp, id: 0}
    arm:                    # the arm's motor
      type: can_talon_srx
      id: 1
      position_gains: {p: 2, i: 0.1, d: 0.05}
joint_state_controller:
  type: joint_state_controller/JointStateController
  publish_rate: 50
`

// TestMigrate rewrites frc_control's forms in frcd's: the output reads with
// no note, the same devices and controllers, comments kept; -w writes it in
// place; a second migration has nothing to do.
func TestMigrate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "robot.yaml")
	if err := os.WriteFile(path, []byte(legacyYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runFrcd("migrate", path)
	if code != exitOK || strings.Count(errOut, ": note: ") != 5 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	for _, c := range []string{"# Our robot.", "# the PDP", "# the arm's motor"} {
		if !strings.Contains(out, c) {
			t.Errorf("comment %q lost:\n%s", c, out)
		}
	}
	f, list := config.Parse(path, []byte(out))
	if len(list) != 0 {
		t.Fatalf("the migrated file has findings %v:\n%s", list, out)
	}
	if len(f.Devices) != 2 || f.Devices[1].Name != "arm" || f.Devices[1].TypeName != "talon_srx" || len(f.Controllers) != 2 {
		t.Fatalf("migrated: %d devices, %d controllers:\n%s", len(f.Devices), len(f.Controllers), out)
	}
	ctl := f.Controllers[1]
	if ctl.Name != "arm_position_controller" || ctl.TypeName != config.JointPositionController || ctl.Str("joint") != "arm" ||
		ctl.Float("pid.p") != 2 || ctl.Float("pid.i") != 0.1 || ctl.Float("pid.d") != 0.05 {
		t.Errorf("controller %s: joint %q, p %v i %v d %v", ctl, ctl.Str("joint"), ctl.Float("pid.p"), ctl.Float("pid.i"), ctl.Float("pid.d"))
	}
	if b, _ := os.ReadFile(path); string(b) != legacyYAML {
		t.Errorf("without -w the file changed")
	}

	if code, _, errOut := runFrcd("migrate", "-w", path); code != exitOK {
		t.Fatalf("-w: exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(path); string(b) != out {
		t.Errorf("-w wrote:\n%s\nwant:\n%s", b, out)
	}
	code, again, errOut := runFrcd("migrate", path)
	if code != exitOK || again != out || !strings.Contains(errOut, "nothing to rewrite") || strings.Contains(errOut, "note:") {
		t.Errorf("second migration: exit %d, stderr %s", code, errOut)
	}
	if code, _, _ := runFrcd("migrate"); code != exitUsage {
		t.Errorf("no file: exit %d, want %d", code, exitUsage)
	}
}

// TestMigrateRealRobot migrates the one robot published in frc_control's
// YAML: every form is rewritten (the result has no note), and what frcd
// still refuses is named (keys and controllers frcd does not have, and
// its diff_drive_controller's wheels claimed again by the wheels' own
// velocity controllers: ros_control loads both and runs one at a time,
// frcd starts every controller of the file).
func TestMigrateRealRobot(t *testing.T) {
	path := "../../config/testdata/frc_control/uwreact_2019_robot.yaml"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, notes, changed, err := config.Migrate(path, data)
	if err != nil || !changed || notes.Notes() != 5 {
		t.Fatalf("changed %v, err %v, notes %v", changed, err, notes)
	}
	f, list := config.Parse(path, out)
	if list.Notes() != 0 || len(f.Devices) != 11 {
		t.Errorf("migrated: %d devices, findings %v", len(f.Devices), list)
	}
	for _, l := range list {
		if !strings.Contains(l.Message, "unknown key") && !strings.Contains(l.Message, "unknown controller type") &&
			!strings.Contains(l.Message, `is already claimed by controller "drive_train_controller"`) {
			t.Errorf("unexpected finding %s", l)
		}
	}
}
