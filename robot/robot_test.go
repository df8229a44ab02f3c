package robot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/urdf"
)

// baseURDF is a small robot: an arm (revolute, with a pot and a limit
// switch), a wheel (continuous, with an encoder), a fixed camera mount, a
// piston (prismatic) and an IMU in the base.
const baseURDF = `<?xml version="1.0"?>
<robot name="t">
  <link name="base"><sensor name="imu" type="imu"/></link>
  <link name="arm"/>
  <link name="wheel"/>
  <link name="camera"/>
  <link name="piston"/>
  <link name="flap"/>
  <joint name="arm_joint" type="revolute">
    <sensor name="arm_pot"/>
    <sensor name="arm_top"/>
    <parent link="base"/><child link="arm"/>
    <limit lower="0" upper="1.5" effort="10" velocity="2"/>
  </joint>
  <joint name="wheel_joint" type="continuous">
    <sensor name="wheel_enc"/>
    <parent link="base"/><child link="wheel"/>
  </joint>
  <joint name="camera_mount" type="fixed">
    <parent link="base"/><child link="camera"/>
  </joint>
  <joint name="piston_joint" type="prismatic">
    <parent link="base"/><child link="piston"/>
    <limit lower="0" upper="0.3" effort="100" velocity="1"/>
  </joint>
  <joint name="flap_joint" type="revolute">
    <parent link="base"/><child link="flap"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
  <sensor name="range"><parent link="base"/></sensor>
</robot>
`

// baseYAML drives and measures everything in baseURDF.
const baseYAML = `joints:
  - {name: pdp, type: pdp, id: 0}
  - {name: arm_joint, type: talon, id: 0, pdp_ch: 3, k_eff: 2.5}
  - {name: arm_pot, type: analog_input, ain_channel: 0, scale: 1.5, offset: 0}
  - {name: arm_top, type: digital_input, dio_channel: 0, limit: upper}
  - {name: wheel_joint, type: spark, id: 1}
  - {name: wheel_enc, type: encoder, ch_a: 1, ch_b: 2, dist_per_pulse: 0.01}
  - {name: piston_joint, type: double_solenoid, forward_id: 0, reverse_id: 1}
  - {name: flap_joint, type: relay, relay_id: 0, direction: both}
  - {name: imu, type: navx, frame_id: base, interface: spi, id: 4}
  - {name: range, type: analog_input, ain_channel: 1, scale: 5, offset: 0}
  - {name: led, type: digital_output, dio_channel: 9}
`

func check(t *testing.T, urdfSrc, yamlSrc string) (*Robot, []string) {
	t.Helper()
	u, ul := urdf.Parse("r.urdf", []byte(urdfSrc))
	c, cl := config.Parse("r.yaml", []byte(yamlSrc))
	r, xl := Check(u, c)
	all := append(append(ul, cl...), xl...)
	all.Sort()
	var out []string
	for _, f := range all {
		out = append(out, f.String())
	}
	return r, out
}

func TestBaseRobotIsClean(t *testing.T) {
	r, got := check(t, baseURDF, baseYAML)
	if len(got) != 0 {
		t.Fatalf("findings:\n%s", strings.Join(got, "\n"))
	}
	var names []string
	for _, j := range r.Joints {
		names = append(names, j.Name)
	}
	if strings.Join(names, ",") != "arm_joint,wheel_joint,piston_joint,flap_joint" {
		t.Errorf("joints = %v (fixed joints have no joint state)", names)
	}
	arm := r.Joint("arm_joint")
	if arm.Actuator == nil || arm.Actuator.Name != "arm_joint" || len(arm.Sensors) != 2 ||
		arm.Sensors[0].Name != "arm_pot" || arm.Sensors[1].Name != "arm_top" {
		t.Errorf("arm = %+v", arm)
	}
	if arm.PDP == nil || arm.PDP.Name != "pdp" || arm.PDPChannel != 3 || arm.KEff != 2.5 {
		t.Errorf("arm effort source = %v ch %d k %g", arm.PDP, arm.PDPChannel, arm.KEff)
	}
	if w := r.Joint("wheel_joint"); w.PDP != nil || len(w.Sensors) != 1 || !w.Measured() {
		t.Errorf("wheel = %+v", w)
	}
	if r.Joint("flap_joint").Actuator.Type.Name != "relay" || !r.Joint("flap_joint").Measured() {
		t.Errorf("relay mapped to joint: %+v", r.Joint("flap_joint"))
	}
	if r.Joint("camera_mount") != nil {
		t.Errorf("fixed joint has a Joint")
	}
	if len(r.Standalone) != 1 || r.Standalone[0].Name != "led" {
		t.Errorf("standalone = %v (an LED gets no joint state)", r.Standalone)
	}
	if len(r.LinkSensors) != 2 || r.LinkSensors[0].Name != "imu" || r.LinkSensors[1].Name != "range" {
		t.Errorf("link sensors = %v", r.LinkSensors)
	}
}

// edit applies replacements to a base file; each pair is old, new.
func edit(t *testing.T, base string, pairs ...string) string {
	t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(base, pairs[i]) {
			t.Fatalf("edit: %q not in base", pairs[i])
		}
		base = strings.Replace(base, pairs[i], pairs[i+1], 1)
	}
	return base
}

func TestCrossChecks(t *testing.T) {
	cases := []struct {
		name       string
		urdf, yaml []string // edits of baseURDF and baseYAML
		want       []string
	}{
		{name: "actuator names no joint",
			yaml: []string{"{name: arm_joint, type: talon", "{name: arm_jiont, type: talon"},
			want: []string{`r.yaml:3:12: error: talon "arm_jiont": no URDF joint named "arm_jiont" (did you mean "arm_joint"?)`}},
		{name: "actuator named after a sensor",
			yaml: []string{"{name: wheel_joint, type: spark", "{name: wheel_enc2, type: spark", "  - {name: led,", "  - {name: wheel_enc2b, type: victor, id: 7}\n  - {name: led,"},
			want: []string{
				`r.yaml:6:12: error: spark "wheel_enc2": no URDF joint named "wheel_enc2"`,
				`r.yaml:12:12: error: victor "wheel_enc2b": no URDF joint named "wheel_enc2b"`,
			}},
		{name: "actuator on a URDF sensor name",
			yaml: []string{"{name: wheel_joint, type: spark", "{name: range, type: spark", "  - {name: range, type: analog_input", "  - {name: range2, type: analog_input"},
			want: []string{
				`r.yaml:6:12: error: spark "range": "range" is a URDF sensor (line 30); an actuator is named after the joint it drives`,
				`r.yaml:11:12: error: analog_input "range2": no URDF sensor named "range2" (did you mean "range"?)`,
			}},
		{name: "actuator on a fixed joint",
			yaml: []string{"  - {name: led,", "  - {name: camera_mount, type: servo, id: 5}\n  - {name: led,"},
			want: []string{`r.yaml:12:12: error: servo "camera_mount": joint "camera_mount" is fixed (line 19); a fixed joint carries no actuator`}},
		{name: "sensor device on a fixed joint", // an error; the URDF sensor alone stays a warning
			urdf: []string{`<joint name="camera_mount" type="fixed">`, `<joint name="camera_mount" type="fixed"><sensor name="camera_angle"/>`},
			yaml: []string{"  - {name: led,", "  - {name: camera_angle, type: analog_input, ain_channel: 2, scale: 1, offset: 0}\n  - {name: led,"},
			want: []string{
				`r.urdf:19:43: warning: sensor "camera_angle": joint "camera_mount" is fixed; a fixed joint should carry no sensor, as nothing moves`,
				`r.yaml:12:12: error: analog_input "camera_angle": URDF sensor "camera_angle" (line 19) is in joint "camera_mount", which is fixed (line 19); a fixed joint carries no sensor, as it never moves`,
			}},
		{name: "foreign sensor alone on a fixed joint",
			urdf: []string{`<joint name="camera_mount" type="fixed">`, `<joint name="camera_mount" type="fixed"><sensor name="camera_angle"/>`},
			want: []string{
				`r.urdf:19:43: warning: URDF sensor "camera_angle" has no device in r.yaml`,
				`r.urdf:19:43: warning: sensor "camera_angle": joint "camera_mount" is fixed; a fixed joint should carry no sensor, as nothing moves`,
			}},
		{name: "two actuators on one joint", // actuators take the joint's name, so the names collide
			yaml: []string{"  - {name: led,", "  - {name: arm_joint, type: victor, id: 5}\n  - {name: led,"},
			want: []string{
				`r.yaml:12:12: error: victor "arm_joint": name "arm_joint" is already used by talon "arm_joint" (line 3)`,
			}},
		{name: "solenoid on a continuous joint",
			yaml: []string{"{name: wheel_joint, type: spark, id: 1}", "{name: wheel_joint, type: solenoid, id: 4}"},
			want: []string{`r.yaml:6:12: error: solenoid "wheel_joint": joint "wheel_joint" is continuous without <limit>; a solenoid puts its joint at the lower or upper limit, so the joint needs limits`}},
		{name: "digital input on a continuous joint",
			urdf: []string{`<sensor name="wheel_enc"/>`, `<sensor name="wheel_enc"/><sensor name="wheel_sw"/>`},
			yaml: []string{"  - {name: led,", "  - {name: wheel_sw, type: digital_input, dio_channel: 7}\n  - {name: led,"},
			want: []string{
				`r.urdf:15:3: warning: joint "wheel_joint" has 2 position sensors: encoder "wheel_enc" (line 7), digital_input "wheel_sw" (line 12); the first one listed sets its position`,
				`r.yaml:12:12: error: digital_input "wheel_sw": joint "wheel_joint" is continuous without <limit>; a digital input reports its joint at the lower or upper limit, so the joint needs limits`}},
		{name: "sensor named after a joint",
			yaml: []string{"{name: arm_pot, type: analog_input", "{name: arm_joint2, type: analog_input", "  - {name: led,", "  - {name: camera_mount, type: encoder, ch_a: 10, ch_b: 11, dist_per_pulse: 1}\n  - {name: led,"},
			want: []string{
				`r.urdf:10:5: warning: URDF sensor "arm_pot" has no device in r.yaml`,
				`r.yaml:4:12: error: analog_input "arm_joint2": no URDF sensor named "arm_joint2"`,
				`r.yaml:12:12: error: encoder "camera_mount": "camera_mount" is a URDF joint (line 19); a sensor is named after a <sensor> element, e.g. one inside that joint`,
			}},
		{name: "joint key agrees",
			yaml: []string{"{name: arm_pot, type: analog_input,", "{name: arm_pot, type: analog_input, joint: arm_joint,"},
			want: nil},
		{name: "joint key disagrees",
			yaml: []string{"{name: arm_pot, type: analog_input,", "{name: arm_pot, type: analog_input, joint: flap_joint,"},
			want: []string{`r.yaml:4:48: error: analog_input "arm_pot": joint "flap_joint" disagrees with the URDF, where sensor "arm_pot" measures joint "arm_joint" (line 10)`}},
		{name: "joint key on a link sensor",
			yaml: []string{"{name: range, type: analog_input,", "{name: range, type: analog_input, joint: arm_joint,"},
			want: []string{`r.yaml:11:46: error: analog_input "range": joint "arm_joint" disagrees with the URDF, where sensor "range" sits in link "base" (line 30) and measures no joint`}},
		{name: "limit switch in a link",
			yaml: []string{"{name: range, type: analog_input, ain_channel: 1, scale: 5, offset: 0}", "{name: range, type: digital_input, dio_channel: 8, limit: lower}"},
			want: []string{`r.yaml:11:56: error: digital_input "range": limit marks a limit switch of a joint, but URDF sensor "range" sits in link "base"`}},
		{name: "encoder in a link",
			yaml: []string{"{name: range, type: analog_input, ain_channel: 1, scale: 5, offset: 0}", "{name: range, type: encoder, ch_a: 10, ch_b: 11, dist_per_pulse: 1}"},
			want: []string{`r.yaml:11:12: warning: encoder "range": URDF sensor "range" sits in link "base", so the encoder measures no joint`}},
		{name: "imu in a joint",
			urdf: []string{`<sensor name="arm_top"/>`, `<sensor name="arm_top"/><sensor name="arm_imu"/>`},
			yaml: []string{"  - {name: led,", "  - {name: arm_imu, type: pigeon_imu, frame_id: arm, id: 0}\n  - {name: led,"},
			want: []string{`r.yaml:12:12: error: pigeon_imu "arm_imu": an IMU senses the link it sits in, but URDF sensor "arm_imu" (line 11) is in joint "arm_joint"; put it in a <link>`}},
		{name: "frame_id not a link",
			yaml: []string{"frame_id: base,", "frame_id: bsae,"},
			want: []string{`r.yaml:10:39: error: navx "imu": frame_id "bsae" is no URDF link (did you mean "base"?)`}},
		{name: "two limit switches at one end",
			urdf: []string{`<sensor name="arm_top"/>`, `<sensor name="arm_top"/><sensor name="arm_top2"/>`},
			yaml: []string{"  - {name: led,", "  - {name: arm_top2, type: digital_input, dio_channel: 5, limit: upper}\n  - {name: led,"},
			want: []string{`r.yaml:12:66: error: digital_input "arm_top2": joint "arm_joint" already has an upper limit switch, digital_input "arm_top" (line 5)`}},
		{name: "two position sensors",
			urdf: []string{`<sensor name="arm_top"/>`, `<sensor name="arm_top"/><sensor name="arm_enc"/>`},
			yaml: []string{"  - {name: led,", "  - {name: arm_enc, type: encoder, ch_a: 5, ch_b: 6, dist_per_pulse: 0.001}\n  - {name: led,"},
			want: []string{`r.urdf:9:3: warning: joint "arm_joint" has 2 position sensors: analog_input "arm_pot" (line 4), encoder "arm_enc" (line 12); the first one listed sets its position`}},
		{name: "unmeasured joint",
			yaml: []string{"  - {name: flap_joint, type: relay, relay_id: 0, direction: both}\n", ""},
			want: []string{`r.urdf:26:3: warning: joint "flap_joint" is neither driven nor measured: no device in r.yaml names it or a sensor in it, so it gets no joint state`}},
		{name: "mimic joint needs no device",
			urdf: []string{`<limit lower="-1" upper="1" effort="1" velocity="1"/>`, `<limit lower="-1" upper="1" effort="1" velocity="1"/><mimic joint="arm_joint"/>`},
			yaml: []string{"  - {name: flap_joint, type: relay, relay_id: 0, direction: both}\n", ""},
			want: nil},
		{name: "URDF sensor with no device",
			yaml: []string{"  - {name: range, type: analog_input, ain_channel: 1, scale: 5, offset: 0}\n", ""},
			want: []string{`r.urdf:30:3: warning: URDF sensor "range" has no device in r.yaml`}},
		{name: "standalone output near a joint name",
			yaml: []string{"{name: flap_joint, type: relay", "{name: flap_jiont, type: relay"},
			want: []string{
				`r.urdf:26:3: warning: joint "flap_joint" is neither driven nor measured: no device in r.yaml names it or a sensor in it, so it gets no joint state`,
				`r.yaml:9:12: warning: relay "flap_jiont": no URDF joint named "flap_jiont", so it drives no joint and gets no joint state (did you mean "flap_joint"?)`,
			}},
		{name: "servo beyond the joint limits",
			yaml: []string{"{name: flap_joint, type: relay, relay_id: 0, direction: both}", "{name: flap_joint, type: servo, id: 9}"},
			want: []string{`r.yaml:9:5: warning: servo "flap_joint": servo range 0..3.142 rad goes beyond joint "flap_joint"'s limits -1..1; its commands are held to 0..1`}},
		{name: "floating joint refused, device on it not doubled",
			urdf: []string{`<joint name="flap_joint" type="revolute">`, `<joint name="flap_joint" type="floating">`},
			want: []string{`r.urdf:26:28: error: joint "flap_joint": type "floating" is not supported: frcd drives and measures 1-DoF joints only (revolute, continuous, prismatic; fixed for rigid mounts)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, got := check(t, edit(t, baseURDF, c.urdf...), edit(t, baseYAML, c.yaml...))
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// A leftover xacro element urdfdom skips, beside a whole robot, is a
// warning: the URDF is readable and the YAML is checked against it as
// usual, here with no error; the YAML naming a joint only a macro would
// have made fails that check.
func TestLeftoverXacroIsCrossChecked(t *testing.T) {
	leftover := edit(t, baseURDF, `<robot name="t">`, `<robot name="t" xmlns:xacro="http://ros.org/wiki/xacro">
  <xacro:include filename="$(find t)/t.xacro"/>`)
	r, got := check(t, leftover, baseYAML)
	if r == nil || len(got) != 1 || !strings.Contains(got[0], "r.urdf:3:3: warning: xacro is not expanded: urdfdom (ROS) skips these xacro elements") {
		t.Fatalf("robot %v, findings:\n%s\nwant the one xacro warning", r != nil, strings.Join(got, "\n"))
	}
	_, got = check(t, leftover, baseYAML+"  - {name: lift_joint, type: talon, channel: 9}\n")
	if !strings.Contains(strings.Join(got, "\n"), `error: talon "lift_joint": no URDF joint named "lift_joint"`) {
		t.Errorf("a YAML joint the xacro would have made is not refused:\n%s", strings.Join(got, "\n"))
	}
}

// An unreadable file gets its one finding; the other file is not checked
// against the little that was read from it.
func TestUnreadableFileIsNotCrossChecked(t *testing.T) {
	cases := map[string][2]string{
		"malformed URDF":  {"<robot name=\"t\"><link name=\"base\">", baseYAML},
		"xacro URDF":      {"<robot name=\"t\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\"><xacro:property name=\"a\" value=\"1\"/><link name=\"${a}\"/></robot>", baseYAML},
		"empty URDF":      {"", baseYAML},
		"invalid YAML":    {baseURDF, "joints:\n  - {name: a\n"},
		"binary YAML":     {baseURDF, "\x00\x01"},
		"YAML no joints":  {baseURDF, "joint: []\n"},
		"YAML not a map":  {baseURDF, "- 1\n"},
		"YAML two errors": {baseURDF, ": :\n"},
	}
	for name, c := range cases {
		u, ul := urdf.Parse("r.urdf", []byte(c[0]))
		f, fl := config.Parse("r.yaml", []byte(c[1]))
		if len(ul)+len(fl) == 0 || u.Unreadable == f.Unreadable {
			t.Errorf("%s: unreadable urdf %v yaml %v, findings %v %v", name, u.Unreadable, f.Unreadable, ul, fl)
		}
		if _, xl := Check(u, f); len(xl) != 0 {
			t.Errorf("%s: cross-checked an unreadable file: %v", name, xl)
		}
	}
	u, _ := urdf.Parse("r.urdf", []byte(baseURDF))
	f, _ := config.Parse("r.yaml", []byte(baseYAML))
	if u.Unreadable || f.Unreadable {
		t.Errorf("readable files marked unreadable: %v %v", u.Unreadable, f.Unreadable)
	}
	// A file with errors that was read whole is still cross-checked.
	_, got := check(t, baseURDF, strings.Replace(baseYAML, "type: spark, id: 1", "type: spark, id: 99", 1))
	if len(got) != 1 || !strings.Contains(got[0], "out of range") {
		t.Errorf("got %v", got)
	}
}

// loadFindings loads a robot from files holding urdfSrc and yamlSrc and
// returns its findings, paths relative to their directory.
func loadFindings(t *testing.T, urdfSrc, yamlSrc string) []string {
	t.Helper()
	dir := t.TempDir()
	up, yp := filepath.Join(dir, "r.urdf"), filepath.Join(dir, "r.yaml")
	if err := os.WriteFile(up, []byte(urdfSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(yp, []byte(yamlSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	_, list, err := Load(up, yp)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range list {
		got = append(got, strings.TrimPrefix(f.String(), dir+"/"))
	}
	return got
}

func TestDrivetrainJoints(t *testing.T) {
	urdfSrc := strings.Replace(baseURDF, `<sensor name="range">`, `<link name="steer"/><link name="w2"/>
  <joint name="steer_joint" type="continuous"><parent link="base"/><child link="steer"/><axis xyz="0 0 1"/></joint>
  <joint name="w2_joint" type="continuous"><parent link="steer"/><child link="w2"/><axis xyz="0 1 0"/></joint>
  <sensor name="range">`, 1)
	yamlSrc := baseYAML + "  - {name: steer_joint, type: spark, id: 2}\n  - {name: w2_joint, type: spark, id: 3}\n"
	_, got := check(t, urdfSrc, yamlSrc+"sim:\n  drivetrain: {type: tank, left: [wheel_joint], right: [w2_joint]}\n")
	if len(got) != 0 {
		t.Errorf("tank on continuous joints: %v", got)
	}
	_, got = check(t, urdfSrc, yamlSrc+"sim:\n  drivetrain: {type: tank, left: [wheel_joint, arm_joint], right: [w2_joint]}\n")
	want := []string{`r.yaml:16:48: error: sim: drivetrain: left: joint "arm_joint" is revolute (line 9); a wheel joint is continuous`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	_, got = check(t, urdfSrc, yamlSrc+"sim:\n  drivetrain: {type: swerve, drive: [wheel_joint, w2_joint, wheel_joint, w2_joint], steer: [steer_joint, arm_joint, steer_joint, wheel_joint]}\n")
	want = []string{
		`r.yaml:16:37: error: sim: drivetrain: drive lists 2 joints; a swerve drivetrain has 4 modules`,
		`r.yaml:16:61: error: sim: drivetrain: drive: "wheel_joint" is listed twice (first at line 16)`,
		`r.yaml:16:74: error: sim: drivetrain: drive: "w2_joint" is listed twice (first at line 16)`,
		`r.yaml:16:92: error: sim: drivetrain: steer lists 3 joints; a swerve drivetrain has 4 modules`,
		`r.yaml:16:106: error: sim: drivetrain: steer: joint "arm_joint" turns about axis [1 0 0]; a steering joint turns about the vertical (z) axis`,
		`r.yaml:16:117: error: sim: drivetrain: steer: "steer_joint" is listed twice (first at line 16)`,
		`r.yaml:16:130: error: sim: drivetrain: joint "wheel_joint" is already in drive; each wheel joint is named once`,
		`r.yaml:16:130: error: sim: drivetrain: steer: joint "wheel_joint" turns about axis [1 0 0]; a steering joint turns about the vertical (z) axis`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A YAML device named after a robot-level sensor of another tool is told
// so, not that the name does not exist.
func TestForeignSensorNamed(t *testing.T) {
	u := `<robot name="r"><link name="base_link"/>
  <sensor name="cam" type="camera"><parent link="base_link"/><camera/></sensor>
</robot>`
	_, got := check(t, u, "joints:\n  - {name: cam, type: navx, frame_id: base_link, interface: spi, id: 4}\n")
	want := `r.yaml:2:12: error: navx "cam": URDF sensor "cam" (line 2) is another tool's (type "camera"), which frcd leaves alone: an frcd sensor sits in a joint or a link, or has <parent> alone`
	found := false
	for _, g := range got {
		found = found || g == want
	}
	if !found {
		t.Errorf("findings:\n%s\nwant among them:\n%s", strings.Join(got, "\n"), want)
	}
}
