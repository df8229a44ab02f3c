package robot

import (
	"strings"
	"testing"
)

func TestDisturbanceJoints(t *testing.T) {
	mimicURDF := strings.Replace(baseURDF, `<sensor name="range">`,
		`<link name="tip"/><joint name="tip_joint" type="continuous"><parent link="base"/><child link="tip"/><mimic joint="wheel_joint"/></joint>
  <sensor name="range">`, 1)
	yamlSrc := baseYAML + `sim:
  disturbances:
    - {joint: arm_joint, kind: force}
    - {joint: piston_joint}
    - {joint: wheel_jiont}
    - {joint: piston_joint, kind: force}
    - {joint: tip_joint}
    - {base: true, kind: force}
`
	_, got := check(t, mimicURDF, yamlSrc)
	want := []string{
		`r.yaml:17:15: error: sim disturbance 3: joint "wheel_jiont" is no movable URDF joint (did you mean "wheel_joint"?)`,
		`r.yaml:18:35: error: sim disturbance 4: a force moves a joint driven by a motor, or a passive one; "piston_joint" is positioned by double_solenoid "piston_joint" (push it with kind: velocity)`,
		`r.yaml:19:15: error: sim disturbance 5: joint "tip_joint" mimics "wheel_joint" and follows it: push that one`,
		`r.yaml:20:8: error: sim disturbance 6: the base moves only with a drivetrain: add sim: drivetrain:`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
