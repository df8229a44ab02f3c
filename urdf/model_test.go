package urdf

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/frcd/frcd/diag"
)

func readArm(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/arm.urdf")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestModel(t *testing.T) {
	src := readArm(t)
	r, l := Parse("testdata/arm.urdf", src)
	if len(l) != 0 {
		t.Fatalf("unexpected findings:\n%s", strings.Join(lines(l), "\n"))
	}
	pos := func(line, col int) diag.Pos { return diag.Pos{File: "testdata/arm.urdf", Line: line, Col: col} }

	if r.Path != "testdata/arm.urdf" || r.Name != "arm_bot" || r.Pos != pos(3, 1) {
		t.Errorf("robot: path %q name %q pos %v", r.Path, r.Name, r.Pos)
	}
	if got, want := r.LinkNames(), []string{"chassis", "turret", "upper_arm", "forearm", "claw_left", "claw_right", "camera_mount"}; !reflect.DeepEqual(got, want) {
		t.Errorf("LinkNames() = %q, want %q", got, want)
	}
	if got, want := r.JointNames(), []string{"turret_joint", "shoulder_joint", "elbow_joint", "claw_left_joint", "claw_right_joint", "camera_joint"}; !reflect.DeepEqual(got, want) {
		t.Errorf("JointNames() = %q, want %q", got, want)
	}
	// Document order, wherever declared; Gazebo's camera is not one.
	if got, want := r.SensorNames(), []string{"front_ultrasonic", "turret_encoder", "shoulder_joint_pot", "claw_closed", "main_imu", "elbow_encoder"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SensorNames() = %q, want %q", got, want)
	}

	// Links: inertial, visuals, collisions.
	chassis := r.Link("chassis")
	if chassis == nil || chassis.Pos != pos(6, 3) {
		t.Fatalf("chassis = %+v", chassis)
	}
	wantInertial := &Inertial{Origin: Pose{XYZ: Vec3{0, 0, 0.1}}, Mass: 30, Ixx: 1.2, Iyy: 1.5, Izz: 2.1}
	if !reflect.DeepEqual(chassis.Inertial, wantInertial) {
		t.Errorf("chassis inertial = %+v, want %+v", chassis.Inertial, wantInertial)
	}
	wantBox := Geometry{Origin: Pose{XYZ: Vec3{0, 0, 0.05}}, Kind: "box", Size: Vec3{0.8, 0.7, 0.1}}
	if len(chassis.Visuals) != 1 || chassis.Visuals[0] != wantBox {
		t.Errorf("chassis visuals = %+v, want [%+v]", chassis.Visuals, wantBox)
	}
	if len(chassis.Collisions) != 1 || chassis.Collisions[0] != (Geometry{Kind: "box", Size: Vec3{0.8, 0.7, 0.1}}) {
		t.Errorf("chassis collisions = %+v", chassis.Collisions)
	}
	if g := r.Link("turret").Visuals; len(g) != 1 || g[0] != (Geometry{Kind: "cylinder", Radius: 0.15, Length: 0.05}) {
		t.Errorf("turret visuals = %+v", g)
	}
	wantMesh := Geometry{Origin: Pose{XYZ: Vec3{0, 0, 0.3}, RPY: Vec3{0, 1.5708, 0}}, Kind: "mesh", Filename: "package://arm_bot/meshes/upper_arm.stl"}
	if g := r.Link("upper_arm").Visuals; len(g) != 1 || g[0] != wantMesh {
		t.Errorf("upper_arm visuals = %+v", g)
	}
	if g := r.Link("claw_left").Visuals; len(g) != 1 || g[0] != (Geometry{Kind: "sphere", Radius: 0.02}) {
		t.Errorf("claw_left visuals = %+v", g)
	}
	if lk := r.Link("forearm"); lk.Inertial != nil || lk.Visuals != nil || lk.Collisions != nil {
		t.Errorf("forearm should be bare: %+v", lk)
	}

	// Tree.
	if r.Root != chassis || chassis.Parent != nil {
		t.Errorf("root = %v, chassis parent = %v", r.Root, chassis.Parent)
	}
	children := func(lk *Link) []string {
		var out []string
		for _, j := range lk.Children {
			out = append(out, j.Name)
		}
		return out
	}
	for link, want := range map[string][]string{
		"chassis":   {"turret_joint", "camera_joint"},
		"turret":    {"shoulder_joint"},
		"upper_arm": {"elbow_joint"},
		"forearm":   {"claw_left_joint", "claw_right_joint"},
		"claw_left": nil,
	} {
		if got := children(r.Link(link)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s children = %q, want %q", link, got, want)
		}
	}
	for link, joint := range map[string]string{"turret": "turret_joint", "upper_arm": "shoulder_joint", "claw_right": "claw_right_joint", "camera_mount": "camera_joint"} {
		if p := r.Link(link).Parent; p != r.Joint(joint) {
			t.Errorf("%s parent = %v, want %s", link, p, joint)
		}
	}

	// Joints.
	turret := r.Joint("turret_joint")
	if turret.Type != Continuous || turret.Axis != (Vec3{0, 0, 1}) || turret.Origin != (Pose{XYZ: Vec3{0, 0, 0.15}}) {
		t.Errorf("turret_joint = %+v", turret)
	}
	if turret.Limit == nil || turret.Limit.Effort != 20 || turret.Limit.Velocity != 6.28 || turret.HasLimits() {
		t.Errorf("turret_joint limit = %+v, HasLimits %v", turret.Limit, turret.HasLimits())
	}

	shoulder := r.Joint("shoulder_joint")
	wantShoulder := &Joint{
		Name: "shoulder_joint", Type: Revolute, Pos: pos(46, 3), TypePos: pos(46, 32),
		Parent: "turret", Child: "upper_arm", ParentPos: pos(48, 13), ChildPos: pos(49, 12),
		Origin:   Pose{XYZ: Vec3{0, 0.05, 0.1}, RPY: Vec3{0, -0.5, 0}},
		Axis:     Vec3{0, 1, 0},
		Limit:    &Limit{Lower: 0, Upper: 1.57, Effort: 60, Velocity: 100, Pos: pos(52, 5)},
		Dynamics: &Dynamics{Damping: 0.7, Friction: 0.1},
		Safety:   &SafetyController{SoftLower: 0.05, SoftUpper: 1.5, KPosition: 10, KVelocity: 2},
		Sensors:  []*Sensor{{Name: "shoulder_joint_pot", Type: "analog", Pos: pos(47, 5), Place: InJoint, Joint: "shoulder_joint"}},
	}
	if !reflect.DeepEqual(shoulder, wantShoulder) {
		t.Errorf("shoulder_joint =\n%+v\nwant\n%+v", shoulder, wantShoulder)
	}
	if !shoulder.HasLimits() {
		t.Error("shoulder_joint.HasLimits() = false")
	}

	claw := r.Joint("claw_right_joint")
	if claw.Type != Prismatic || claw.Mimic == nil || *claw.Mimic != (Mimic{Joint: "claw_left_joint", Multiplier: 1, Offset: 0, Pos: pos(80, 5)}) {
		t.Errorf("claw_right_joint mimic = %+v", claw.Mimic)
	}
	if r.Joint("claw_left_joint").Mimic != nil {
		t.Error("claw_left_joint has a mimic")
	}

	camera := r.Joint("camera_joint")
	if camera.Type != Fixed || camera.Axis != (Vec3{1, 0, 0}) || camera.Limit != nil || camera.HasLimits() || camera.Dynamics != nil || camera.Safety != nil {
		t.Errorf("camera_joint = %+v (axis should default to 1 0 0)", camera)
	}

	// Sensors, in all three forms.
	wantSensors := map[string]Sensor{
		"front_ultrasonic":   {Name: "front_ultrasonic", Type: "ultrasonic", Pos: pos(20, 5), Place: InLink, Link: "chassis"},
		"turret_encoder":     {Name: "turret_encoder", Type: "encoder", Pos: pos(43, 5), Place: InJoint, Joint: "turret_joint"},
		"shoulder_joint_pot": {Name: "shoulder_joint_pot", Type: "analog", Pos: pos(47, 5), Place: InJoint, Joint: "shoulder_joint"},
		"claw_closed":        {Name: "claw_closed", Type: "limit_switch", Pos: pos(71, 5), Place: InJoint, Joint: "claw_left_joint"},
		"main_imu":           {Name: "main_imu", Type: "imu", Pos: pos(89, 3), Place: TopLevel, Link: "chassis"},
		"elbow_encoder":      {Name: "elbow_encoder", Pos: pos(92, 3), Place: TopLevel, Joint: "elbow_joint"},
	}
	for name, want := range wantSensors {
		if s := r.Sensor(name); s == nil || *s != want {
			t.Errorf("sensor %s = %+v, want %+v", name, s, want)
		}
	}
	sensorNames := func(ss []*Sensor) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.Name)
		}
		return out
	}
	if got := sensorNames(chassis.Sensors); !reflect.DeepEqual(got, []string{"front_ultrasonic", "main_imu"}) {
		t.Errorf("chassis sensors = %q", got)
	}
	if got := sensorNames(r.Joint("elbow_joint").Sensors); !reflect.DeepEqual(got, []string{"elbow_encoder"}) {
		t.Errorf("elbow_joint sensors = %q", got)
	}
	if r.Sensor("camera") != nil || r.Link("nope") != nil || r.Joint("nope") != nil {
		t.Error("lookups of unknown names should be nil")
	}
}

// TestModelPositions checks element and attribute positions against the
// independent locator on the realistic robot.
func TestModelPositions(t *testing.T) {
	src := string(readArm(t))
	r, _ := Parse(testFile, []byte(src))
	checks := []struct {
		got    diag.Pos
		needle string
	}{
		{r.Pos, "<robot"},
		{r.Link("claw_left").Pos, `<link name="claw_left"`},
		{r.Joint("elbow_joint").Pos, `<joint name="elbow_joint"`},
		{r.Joint("elbow_joint").TypePos, `"elbow_joint" |type=`},
		{r.Joint("elbow_joint").ParentPos, `<parent |link="upper_arm"`},
		{r.Joint("elbow_joint").ChildPos, `<child |link="forearm"`},
		{r.Joint("elbow_joint").Limit.Pos, `<limit lower="-2.0"`},
		{r.Joint("claw_right_joint").Mimic.Pos, `<mimic`},
		{r.Sensor("main_imu").Pos, `<sensor name="main_imu"`},
	}
	for _, c := range checks {
		if want := at(t, src, c.needle); c.got != want {
			t.Errorf("%q: got %s, want %s", c.needle, c.got, want)
		}
	}
}

// TestMalformedKeepsWhatParsed checks that after a syntax error the Robot
// holds the elements closed before it, and nothing is cross-checked.
func TestMalformedKeepsWhatParsed(t *testing.T) {
	src := `<robot name="r">
  <link name="a"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="missing"/></joint>
  <link name="b"><visual>
</robot>`
	r, l := Parse(testFile, []byte(src))
	if got := lines(l); len(got) != 1 || got[0] != "r.urdf:5:1: error: malformed XML: element <visual> closed by </robot>" {
		t.Errorf("findings = %q", got)
	}
	if r.Name != "r" || r.Link("a") == nil || r.Joint("j") == nil || r.Link("b") != nil {
		t.Errorf("robot = %+v", r)
	}
}

func TestNilSafe(t *testing.T) {
	var r *Robot
	if r.Link("a") != nil || r.Joint("a") != nil || r.Sensor("a") != nil || r.LinkNames() != nil || r.JointNames() != nil || r.SensorNames() != nil {
		t.Error("nil Robot lookups should be nil")
	}
	var j *Joint
	if j.HasLimits() {
		t.Error("nil Joint has limits")
	}
	for _, data := range [][]byte{nil, {}, []byte("<x/>"), []byte("\x00")} {
		r, _ := Parse("f", data)
		if r == nil || r.Link("a") != nil || len(r.LinkNames()) != 0 {
			t.Errorf("Parse(%q) robot = %+v", data, r)
		}
	}
}

func TestSensorPlaceString(t *testing.T) {
	for p, want := range map[SensorPlace]string{InJoint: "in joint", InLink: "in link", TopLevel: "top level", 7: "unknown place"} {
		if p.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(p), p.String(), want)
		}
	}
}
