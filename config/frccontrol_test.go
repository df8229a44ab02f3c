package config_test

import (
	. "github.com/frcd/frcd/config"
	_ "github.com/frcd/frcd/devices"
	"strings"
	"testing"
)

// TestFRCControlForms reads frc_control's robot file forms: a namespace,
// joints: as a mapping, can_talon_srx, *_gains and top-level controllers,
// each with one note, the result the same as the canonical file's.
func TestFRCControlForms(t *testing.T) {
	legacy := `# the robot
frc_robot_hw_real:
  joints: &joints
    pdp: {type: pdp, id: 0}
    left:
      type: can_talon_srx
      id: 1
      velocity_gains: {p: 0.1, i: 0.2, d: 0.4, i_clamp: 1, f: 1}
    right:
      type: can_talon_srx
      id: 2
      position_gains: {p: 2, i: 0.5}
    lift: {type: spark, id: 3, velocity_gains: {p: 1}}
frc_robot_hw_sim:
  joints: *joints
joint_state_controller:
  type: joint_state_controller/JointStateController
  publish_rate: 20
`
	canonical := `joints:
  - {name: pdp, type: pdp, id: 0}
  - {name: left, type: talon_srx, id: 1}
  - {name: right, type: talon_srx, id: 2}
  - {name: lift, type: spark, id: 3}
controllers:
  joint_state_controller: {type: joint_state_controller/JointStateController, publish_rate: 20}
  left_velocity_controller: {type: effort_controllers/JointVelocityController, joint: left, pid: {p: 0.1, i: 0.2, d: 0.4, i_clamp: 1, f: 1}}
  right_position_controller: {type: effort_controllers/JointPositionController, joint: right, pid: {p: 2, i: 0.5}}
  lift_velocity_controller: {type: effort_controllers/JointVelocityController, joint: lift, pid: {p: 1}}
`
	lf, ll := Parse("r.yaml", []byte(legacy))
	cf, cl := Parse("r.yaml", []byte(canonical))
	if ll.Errors() != 0 || cl.Errors() != 0 || cl.Notes() != 0 {
		t.Fatalf("legacy findings %v\ncanonical findings %v", ll, cl)
	}
	ll.Sort()
	var got []string
	for _, f := range ll {
		got = append(got, f.String())
	}
	want := []string{
		`r.yaml:2:1: note: the device list is under the namespace "frc_robot_hw_real", as frc_control's rosparam file has it: read as if at the top level (frcd migrate writes it so)`,
		"r.yaml:3:3: note: `joints:` is a mapping of names to devices, as frc_control's loader reads it: read as the list of {name: ..., type: ...} frcd writes (frcd migrate writes it so)",
		`r.yaml:6:13: note: type can_talon_srx is frc_control's name for talon_srx: read as talon_srx (frcd migrate writes it so)`,
		`r.yaml:8:7: note: velocity_gains on "left" is frc_control's form of a PID controller: read as controller left_velocity_controller (effort_controllers/JointVelocityController) under controllers:, and so for every *_gains (frcd migrate writes it so)`,
		`r.yaml:16:1: note: controller "joint_state_controller" is at the top level, as ros_control's rosparam file has it: read as if under controllers: (frcd migrate writes it so)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(lf.Devices) != len(cf.Devices) || len(lf.Controllers) != len(cf.Controllers) {
		t.Fatalf("legacy: %d devices, %d controllers; canonical %d, %d", len(lf.Devices), len(lf.Controllers), len(cf.Devices), len(cf.Controllers))
	}
	for i, d := range lf.Devices {
		if c := cf.Devices[i]; d.Name != c.Name || d.TypeName != c.TypeName || d.Int("id") != c.Int("id") {
			t.Errorf("device %d: %s, want %s", i, d, c)
		}
	}
	byName := map[string]*Device{}
	for _, c := range lf.Controllers {
		byName[c.Name] = c
	}
	for _, c := range cf.Controllers {
		l := byName[c.Name]
		if l == nil || l.TypeName != c.TypeName || l.Str("joint") != c.Str("joint") {
			t.Errorf("controller %s: legacy %v", c, l)
			continue
		}
		for _, k := range []string{"pid.p", "pid.i", "pid.d", "pid.i_clamp", "pid.f"} {
			if c.Type.Key(k) != nil && (l.Float(k) != c.Float(k) || l.Has(k) != c.Has(k)) {
				t.Errorf("controller %s: %s = %v, want %v", c.Name, k, l.Float(k), c.Float(k))
			}
		}
	}
}

func TestFRCControlFormErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"two device lists", "a:\n  joints: {x: {type: pdp, id: 0}}\nb:\n  joints: {y: {type: pdp, id: 1}}\n",
			`r.yaml:3:1: error: b: a second device list (the first is under a, line 1): frcd reads one; keep one namespace`},
		{"name in a named entry", "joints:\n  arm: {name: arm, type: spark, id: 1}\n",
			`r.yaml:2:9: error: device "arm": takes its name from its key; drop "name"`},
		{"gains on a solenoid", "joints:\n  - {name: s, type: solenoid, id: 1, position_gains: {p: 1}}\n",
			`r.yaml:2:38: error: solenoid "s": unknown key "position_gains" for type solenoid`},
		{"an unknown alias stays unknown", "joints:\n  - {name: m, type: can_talon_fx, id: 1}\n",
			`r.yaml:2:21: error: can_talon_fx "m": unknown device type "can_talon_fx"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := findings(t, c.src)
			found := false
			for _, g := range got {
				found = found || g == c.want
			}
			if !found {
				t.Errorf("findings:\n%s\nwant among them:\n%s", strings.Join(got, "\n"), c.want)
			}
		})
	}
}

func TestBuiltInAccelChecks(t *testing.T) {
	got := findings(t, "joints:\n  - {name: a, type: built_in_accel, frame_id: base_link, range: 3}\n  - {name: b, type: built_in_accel, frame_id: base_link}\n")
	want := []string{
		`r.yaml:2:65: error: built_in_accel "a": range 3 g: the accelerometer measures 2, 4 or 8 g`,
		`r.yaml:3:21: error: built_in_accel "b": a second built-in accelerometer: a file has one (built_in_accel "a", line 2)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
