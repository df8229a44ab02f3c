package config_test

import (
	. "github.com/frcd/frcd/config"
	_ "github.com/frcd/frcd/devices"
	"strings"
	"testing"
)

const sectionsBase = "joints:\n  - {name: arm, type: talon, id: 3}\n  - {name: srv, type: servo, id: 4}\n  - {name: sol, type: solenoid, id: 0}\n  - {name: ds, type: double_solenoid, forward_id: 1, reverse_id: 2}\n"

func TestSections(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []string
	}{
		{"all sections", sectionsBase + "loop: {rate_hz: 500, command_timeout: 0.2}\ncontrollers:\n  - {name: arm_pos, type: effort_controllers/JointPositionController, joint: arm, pid: {p: 10}}\n  - {name: srv_pos, type: position_controllers/JointPositionController, joint: srv}\n  - {name: sol_cmd, type: frcd_controllers/SolenoidController, joint: sol}\n  - {name: ds_cmd, type: frcd_controllers/DoubleSolenoidController, joint: ds}\nsim:\n  battery_voltage: 12.5\n  joints:\n    - {name: arm, motor: 775pro, gearing: 100}\n", nil},
		{"two controllers on one joint", sectionsBase + "controllers:\n  - {name: a, type: voltage_controllers/JointVoltageController, joint: arm}\n  - {name: b, type: effort_controllers/JointPositionController, joint: arm, pid: {p: 1}}\n",
			[]string{`r.yaml:8:72: error: controller "b": joint "arm" is already claimed by controller "a" (line 7); a joint takes commands from one controller`}},
		{"unknown controller type", sectionsBase + "controllers:\n  - {name: a, type: positon, joint: arm}\n",
			[]string{`r.yaml:7:21: error: controller "a": unknown controller type "positon" (did you mean "effort_controllers/JointPositionController"?)`}},
		{"controller on the wrong device", sectionsBase + "controllers:\n  - {name: a, type: voltage_controllers/JointVoltageController, joint: sol}\n",
			[]string{`r.yaml:7:72: error: controller "a": joint "sol" is a solenoid, not a speed controller`}},
		{"controller on nothing", sectionsBase + "controllers:\n  - {name: a, type: frcd_controllers/SolenoidController, joint: sole}\n",
			[]string{`r.yaml:7:65: error: controller "a": joint "sole" names no device (did you mean "sol"?)`}},
		{"pid without gains", sectionsBase + "controllers:\n  - {name: a, type: effort_controllers/JointVelocityController, joint: arm}\n",
			[]string{`r.yaml:7:5: error: controller "a": a PID on talon "arm" needs gains: set pid: {p: ..., i: ..., d: ..., f: ...} so the roboRIO can drive it`}},
		{"servo with gains", sectionsBase + "controllers:\n  - {name: a, type: position_controllers/JointPositionController, joint: srv, pid: {p: 3}}\n",
			[]string{`r.yaml:7:79: error: controller "a": unknown key "pid" for type position_controllers/JointPositionController`}},
		{"duplicate controller names", sectionsBase + "controllers:\n  - {name: a, type: voltage_controllers/JointVoltageController, joint: arm}\n  - {name: a, type: frcd_controllers/SolenoidController, joint: sol}\n",
			[]string{`r.yaml:8:12: error: controller "a": name is already used by controller "a" (line 7)`}},
		{"missing joint key", sectionsBase + "controllers:\n  - {name: a, type: voltage_controllers/JointVoltageController}\n",
			[]string{`r.yaml:7:5: error: controller "a": missing required key "joint" (string)`}},
		{"controllers not a list", sectionsBase + "controllers: 3\n",
			[]string{"r.yaml:6:14: error: `controllers:` must be a list, or a mapping of names to entries, not the integer 3"}},
		{"controllers by name", sectionsBase + "controllers:\n  arm_v: {type: voltage_controllers/JointVoltageController, joint: arm}\n  js:\n    type: joint_state_controller/JointStateController\n    publish_rate: 50\n  bad: 1\n  named: {name: x, type: frcd_controllers/SolenoidController, joint: sol}\n",
			[]string{`r.yaml:11:8: error: controller "bad": must be a mapping like {type: ..., ...}, not the integer 1`, `r.yaml:12:11: error: controller "named": takes its name from its key; drop "name"`}},
		{"group controller", sectionsBase + "  - {name: arm2, type: spark, id: 1}\ncontrollers:\n  - {name: g, type: voltage_controllers/JointGroupVoltageController, joints: [arm, arm2, sol, armm, arm]}\n  - {name: h, type: voltage_controllers/JointGroupVoltageController, joints: [arm2]}\n  - {name: i, type: voltage_controllers/JointGroupVoltageController, joints: arm}\n  - {name: j, type: voltage_controllers/JointGroupVoltageController, joints: []}\n",
			[]string{`r.yaml:8:90: error: controller "g": joints: "sol" is a solenoid, not a speed controller`, `r.yaml:8:95: error: controller "g": joints: "armm" names no device (did you mean "arm"?)`, `r.yaml:8:101: error: controller "g": joints: "arm" is listed twice (first at line 8)`, `r.yaml:9:79: error: controller "h": joint "arm2" is already claimed by controller "g" (line 8); a joint takes commands from one controller`, `r.yaml:10:78: error: controller "i": joints: want a list of names like [a, b], got the string "arm"`, `r.yaml:11:78: error: controller "j": joints: the list is empty`}},
		{"pid keys", sectionsBase + "controllers:\n  - {name: a, type: effort_controllers/JointPositionController, joint: arm, pid: {p: 1, dd: 2}}\n  - {name: b, type: effort_controllers/JointVelocityController, joint: srv, pid: 3}\n  - {name: c, type: effort_controllers/JointPositionController, joint: arm, p: 1}\n",
			[]string{`r.yaml:7:89: error: controller "a": unknown key "dd" in pid (did you mean "d"?); it takes p, i, d, i_clamp`, `r.yaml:8:72: error: controller "b": joint "srv" is a servo, not a speed controller`, `r.yaml:8:82: error: controller "b": pid must be a mapping like {p: ...}, not the integer 3`, `r.yaml:9:72: error: controller "c": joint "arm" is already claimed by controller "a" (line 7); a joint takes commands from one controller`, `r.yaml:9:77: error: controller "c": gains go under pid: write pid: {p: ...}`}},
		{"profiled position controller", sectionsBase + "controllers:\n  - {name: a, type: frcd_controllers/ProfiledPositionController, joint: arm, pid: {p: 10, f: 1.2}, max_acceleration: 5, max_velocity: 2, tolerance: 0.01, timeout: 600}\n", nil},
		{"profiled without max_acceleration, on the wrong joint, without gains", sectionsBase + "controllers:\n  - {name: a, type: frcd_controllers/ProfiledPositionController, joint: arm, pid: {p: 10}}\n  - {name: b, type: frcd_controllers/ProfiledPositionController, joint: srv, pid: {p: 10}, max_acceleration: 1}\n  - {name: c, type: frcd_controllers/ProfiledPositionController, joint: arm, max_acceleration: 0, max_velocity: -1}\n",
			[]string{`r.yaml:7:5: error: controller "a": missing required key "max_acceleration" (float)`, `r.yaml:8:73: error: controller "b": joint "srv" is a servo, not a speed controller`, `r.yaml:9:5: error: controller "c": a PID on talon "arm" needs gains: set pid: {p: ..., i: ..., d: ..., f: ...} so the roboRIO can drive it`, `r.yaml:9:73: error: controller "c": joint "arm" is already claimed by controller "a" (line 7); a joint takes commands from one controller`, `r.yaml:9:96: error: controller "c": max_acceleration: 0 is out of range 1e-06-1e+06`, `r.yaml:9:113: error: controller "c": max_velocity: -1 is out of range 1e-06-1e+06`}},
		{"profiled by a short name", sectionsBase + "controllers:\n  - {name: a, type: profiled, joint: arm}\n",
			[]string{`r.yaml:7:21: error: controller "a": unknown controller type "profiled" (did you mean "frcd_controllers/ProfiledPositionController"?)`}},
		{"two joint state controllers", sectionsBase + "controllers:\n  - {name: a, type: joint_state_controller/JointStateController}\n  - {name: b, type: joint_state_controller/JointStateController, publish_rate: 0}\n",
			[]string{`r.yaml:8:21: error: controller "b": a second joint state controller: a file has one (controller "a", line 7)`, `r.yaml:8:80: error: controller "b": publish_rate: 0 is out of range 0.1-1000`}},
		{"loop out of range", sectionsBase + "loop: {rate_hz: 5000, typo: 1}\n",
			[]string{`r.yaml:6:17: error: loop: rate_hz: 5000 is out of range 1-2000`, `r.yaml:6:23: error: loop: unknown key "typo" for type loop`}},
		{"loop not a mapping", sectionsBase + "loop: 100\n", []string{"r.yaml:6:7: error: `loop:` must be a mapping of keys, not the integer 100"}},
		{"sim joint motor", sectionsBase + "sim:\n  joints:\n    - {name: arm, motor: cim2, type: x}\n",
			[]string{`r.yaml:8:26: error: sim_joint "arm": motor "cim2" is not one of cim, mini_cim, bag, 775pro, rs775, am9015, neo, neo550, neo_vortex, falcon500, window (did you mean "cim"?)`, `r.yaml:8:32: error: sim_joint "arm": unknown key "type" for type sim_joint`}},
		{"sim joint twice", sectionsBase + "sim:\n  joints:\n    - {name: arm}\n    - {name: arm}\n",
			[]string{`r.yaml:9:14: error: sim joint "arm": name is already used by sim_joint "arm" (line 8)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := findings(t, c.src)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestSectionValues(t *testing.T) {
	f, list := Parse("r.yaml", []byte(sectionsBase+"loop: {rate_hz: 1000}\ncontrollers:\n  - {name: a, type: effort_controllers/JointPositionController, joint: arm, pid: {p: 10, i: 2}}\nsim:\n  joints:\n    - {name: arm, motor: neo}\n"))
	if len(list) != 0 {
		t.Fatalf("findings: %v", list)
	}
	if f.Loop.Float("rate_hz") != 1000 || f.Loop.Float("command_timeout") != 0.5 {
		t.Errorf("loop: rate %v timeout %v", f.Loop.Float("rate_hz"), f.Loop.Float("command_timeout"))
	}
	c := f.Controller("a")
	if c == nil || c.Type != LookupController(JointPositionController) || c.Ref("joint") != f.Device("arm") || c.Float("pid.p") != 10 || c.Float("pid.i") != 2 || c.Float("max_voltage") != 12 || c.Has("pid.i_clamp") || c.Has("timeout") {
		t.Errorf("controller a: %+v", c)
	}
	if f.Sim.Float("battery_voltage") != 12.8 || f.Sim.Float("pressure") != 120 || len(f.SimJoints) != 1 || f.SimJoints[0].Str("motor") != "neo" || f.SimJoints[0].Int("motors") != 1 {
		t.Errorf("sim: %+v %+v", f.Sim, f.SimJoints)
	}
	// Absent sections still give their defaults.
	f, _ = Parse("r.yaml", []byte(sectionsBase))
	if f.Loop == nil || f.Loop.Float("rate_hz") != 100 || f.Sim == nil || f.Sim.Float("battery_resistance") != 0.02 || f.Controllers != nil {
		t.Errorf("defaults: loop %+v sim %+v controllers %v", f.Loop, f.Sim, f.Controllers)
	}
}

func TestControllersByName(t *testing.T) {
	src := sectionsBase + "  - {name: arm2, type: spark, id: 1}\ncontrollers:\n  js: {type: joint_state_controller/JointStateController, publish_rate: 25}\n  drive:\n    type: voltage_controllers/JointGroupVoltageController\n    joints: [arm2, arm]\n    timeout: 0.2\n"
	f, list := Parse("r.yaml", []byte(src))
	if len(list) != 0 {
		t.Fatalf("findings: %v", list)
	}
	if len(f.Controllers) != 2 || f.Controllers[0].Name != "js" || f.Controllers[1].Name != "drive" {
		t.Fatalf("controllers: %v", f.Controllers)
	}
	js, drive := f.Controllers[0], f.Controllers[1]
	if js.Float("publish_rate") != 25 || js.NamePos.Line != 8 {
		t.Errorf("js: rate %v name at %v", js.Float("publish_rate"), js.NamePos)
	}
	refs := drive.RefList("joints")
	if len(refs) != 2 || refs[0] != f.Device("arm2") || refs[1] != f.Device("arm") || drive.Float("timeout") != 0.2 {
		t.Errorf("drive: joints %v timeout %v", refs, drive.Float("timeout"))
	}
	if got := drive.List("joints"); len(got) != 2 || got[0] != "arm2" {
		t.Errorf("drive: names %v", got)
	}
}

const drivetrainBase = "joints:\n  - {name: lf, type: talon_srx, id: 1}\n  - {name: lr, type: spark, id: 0}\n  - {name: rf, type: spark, id: 1}\n  - {name: rr, type: spark, id: 2}\n  - {name: sol, type: solenoid, id: 0}\n  - {name: s1, type: servo, id: 3}\n"

func TestSimDrivetrain(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []string
	}{
		{"tank", drivetrainBase + "sim:\n  drivetrain: {type: tank, left: [lf, lr], right: [rf, rr], wheel_radius: 0.07, friction: 0.8}\n", nil},
		{"mecanum", drivetrainBase + "sim:\n  drivetrain: {type: mecanum, front_left: lf, front_right: rf, rear_left: lr, rear_right: rr}\n", nil},
		{"swerve", drivetrainBase + "sim:\n  drivetrain: {type: swerve, drive: [lf, lr, rf, rr], steer: [s1, lr, rf, rr]}\n",
			[]string{`r.yaml:9:67: error: sim: drivetrain: joint "lr" is already in drive; each wheel joint is named once`,
				`r.yaml:9:71: error: sim: drivetrain: joint "rf" is already in drive; each wheel joint is named once`,
				`r.yaml:9:75: error: sim: drivetrain: joint "rr" is already in drive; each wheel joint is named once`}},
		{"null", drivetrainBase + "sim:\n  drivetrain:\n", nil},
		{"no type", drivetrainBase + "sim:\n  drivetrain: {left: [lf]}\n",
			[]string{`r.yaml:9:15: error: sim: drivetrain: missing required key "type" (string)`}},
		{"unknown type", drivetrainBase + "sim:\n  drivetrain: {type: omni}\n",
			[]string{`r.yaml:9:22: error: sim: drivetrain: type "omni" is not one of tank, mecanum, swerve`}},
		{"missing side, wrong key, same joint twice", drivetrainBase + "sim:\n  drivetrain:\n    type: tank\n    left: [lf, rf]\n    right: [rf]\n    drive: [lr]\n",
			[]string{`r.yaml:12:13: error: sim: drivetrain: joint "rf" is already in left; each wheel joint is named once`,
				`r.yaml:13:5: error: sim: drivetrain: drive is not a key of a tank drivetrain; it takes left, right`}},
		{"missing side", drivetrainBase + "sim:\n  drivetrain: {type: tank, left: [lf]}\n",
			[]string{`r.yaml:9:15: error: sim: drivetrain: a tank drivetrain needs right`}},
		{"not a speed controller", drivetrainBase + "sim:\n  drivetrain: {type: tank, left: [lf, sol], right: [rx]}\n",
			[]string{`r.yaml:9:39: error: sim: drivetrain: left: "sol" is a solenoid, not a speed controller`,
				`r.yaml:9:53: error: sim: drivetrain: right: "rx" names no device (did you mean "rf"?)`}},
		{"swerve counts", drivetrainBase + "sim:\n  drivetrain: {type: swerve, drive: [lf, lr], steer: [s1]}\n",
			[]string{`r.yaml:9:37: error: sim: drivetrain: drive lists 2 joints; a swerve drivetrain has 4 modules`,
				`r.yaml:9:54: error: sim: drivetrain: steer lists 1 joints; a swerve drivetrain has 4 modules`}},
		{"bad values", drivetrainBase + "sim:\n  drivetrain: {type: mecanum, front_left: lf, front_right: rf, rear_left: lr, rear_right: rr, friction: 0, mass: x}\n",
			[]string{`r.yaml:9:105: error: sim: drivetrain: friction: 0 is out of range 0.01-5`,
				`r.yaml:9:114: error: sim: drivetrain: mass: want a number, got the string "x"`}},
		{"not a mapping", drivetrainBase + "sim:\n  drivetrain: [lf]\n",
			[]string{"r.yaml:9:15: error: `sim: drivetrain:` must be a mapping of keys, not a list"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := findings(t, c.src)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
	f, list := Parse("r.yaml", []byte(drivetrainBase+"sim:\n  drivetrain: {type: tank, left: [lf, lr], right: [rf, rr]}\n"))
	if list.Errors() > 0 || f.SimDrivetrain == nil {
		t.Fatalf("tank: %v", list)
	}
	if d := f.SimDrivetrain; d.Str("type") != "tank" || strings.Join(d.List("right"), ",") != "rf,rr" || d.Float("friction") != 1 || d.Has("mass") {
		t.Errorf("tank decoded as type %q right %v friction %v mass set %v", d.Str("type"), d.List("right"), d.Float("friction"), d.Has("mass"))
	}
}

func TestProfiledValues(t *testing.T) {
	f, list := Parse("r.yaml", []byte(sectionsBase+"controllers:\n  a: {type: frcd_controllers/ProfiledPositionController, joint: arm, pid: {p: 10, d: 1, f: 1.2}, max_acceleration: 5, tolerance: 0.01}\n"))
	if len(list) != 0 {
		t.Fatalf("findings: %v", list)
	}
	c := f.Controller("a")
	if c == nil || c.Type != LookupController(ProfiledPositionController) || c.Ref("joint") != f.Device("arm") {
		t.Fatalf("controller a: %+v", c)
	}
	if c.Float("pid.p") != 10 || c.Float("pid.f") != 1.2 || c.Float("max_acceleration") != 5 || c.Float("tolerance") != 0.01 || c.Float("max_voltage") != 12 {
		t.Errorf("values: p %v f %v acc %v tol %v max_voltage %v", c.Float("pid.p"), c.Float("pid.f"), c.Float("max_acceleration"), c.Float("tolerance"), c.Float("max_voltage"))
	}
	if c.Has("max_velocity") || c.Has("timeout") {
		t.Error("max_velocity and timeout have no default: the URDF's limit, and none")
	}
}
