package urdf

import (
	"math"
	"testing"

	"github.com/frcd/frcd/diag"
)

// N builds an expected note.
func N(at, msg string) finding { return finding{at, diag.Note, msg} }

// versioned is wrap with a version attribute on <robot>.
func versioned(version, body string) string {
	return "<robot name=\"r\" version=\"" + version + "\">\n  <link name=\"base\"/>\n  <link name=\"arm\"/>\n" + body + "\n</robot>\n"
}

func TestVersion(t *testing.T) {
	tests := []struct {
		version string
		want    []finding
		read    string
	}{
		{"1.0", nil, Version10},
		{"1.1", nil, Version11},
		{"01.1", nil, Version11}, // strtol reads it as urdfdom does
		{"0.9", []finding{E(`version=`, `<robot> version "0.9" is not supported: URDF is version 1.0 or 1.1`)}, Version10},
		{"2.0", []finding{E(`version=`, `<robot> version "2.0" is not supported: URDF is version 1.0 or 1.1`)}, Version10},
		{"one.zero", []finding{E(`version=`, `<robot> version "one.zero": the version is not an integer`)}, Version10},
		{"1", []finding{E(`version=`, `<robot> version "1": the version attribute should be in the form 'x.y'`)}, Version10},
		{"1.", []finding{E(`version=`, `<robot> version "1.": the version attribute should be in the form 'x.y'`)}, Version10},
		{"1.0.0", []finding{E(`version=`, `<robot> version "1.0.0": the version attribute should be in the form 'x.y'`)}, Version10},
		{".1", []finding{E(`version=`, `<robot> version ".1": one of the fields of the version attribute is blank`)}, Version10},
		{"-1.0", []finding{E(`version=`, `<robot> version "-1.0": the version number must be positive`)}, Version10},
		{"1.0~pre6", []finding{E(`version=`, `<robot> version "1.0~pre6": extra characters after the version number`)}, Version10},
		{"", []finding{E(`version=`, `<robot> version "": the version attribute should be in the form 'x.y'`)}, Version10},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			r := expect(t, versioned(tt.version, arm("")), tt.want...)
			if r.Version != tt.read {
				t.Errorf("Version = %q, want %q", r.Version, tt.read)
			}
		})
	}
	if r := expect(t, wrap(arm(""))); r.Version != Version10 {
		t.Errorf("no version attribute: Version = %q, want 1.0", r.Version)
	}
}

// rotate turns v by fixed-axis roll, pitch, yaw.
func rotate(rpy Vec3, v Vec3) Vec3 {
	cr, sr := math.Cos(rpy[0]), math.Sin(rpy[0])
	cp, sp := math.Cos(rpy[1]), math.Sin(rpy[1])
	cy, sy := math.Cos(rpy[2]), math.Sin(rpy[2])
	x := Vec3{v[0], cr*v[1] - sr*v[2], sr*v[1] + cr*v[2]}
	x = Vec3{cp*x[0] + sp*x[2], x[1], -sp*x[0] + cp*x[2]}
	return Vec3{cy*x[0] - sy*x[1], sy*x[0] + cy*x[1], x[2]}
}

// qrotate turns v by the unit quaternion q (x, y, z, w).
func qrotate(q [4]float64, v Vec3) Vec3 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	// v' = v + 2w(u×v) + 2u×(u×v)
	u := Vec3{x, y, z}
	cross := func(a, b Vec3) Vec3 {
		return Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
	}
	t := cross(u, v)
	t = Vec3{2 * t[0], 2 * t[1], 2 * t[2]}
	c := cross(u, t)
	return Vec3{v[0] + w*t[0] + c[0], v[1] + w*t[1] + c[1], v[2] + w*t[2] + c[2]}
}

func TestQuatToRPY(t *testing.T) {
	s := math.Sqrt(0.5)
	quats := [][4]float64{
		{0, 0, 0, 1}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0},
		{0, 0, s, s}, {s, 0, 0, s}, {0, s, 0, s}, {0, -s, 0, s}, // the last two at gimbal lock
		{0.1, 0.2, 0.3, 0.927}, {-0.5, 0.5, -0.5, 0.5}, {0.3, -0.7, 0.2, 0.6},
	}
	for _, q := range quats {
		n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		for i := range q {
			q[i] /= n
		}
		rpy := quatToRPY(q[0], q[1], q[2], q[3])
		for _, v := range []Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} {
			a, b := rotate(rpy, v), qrotate(q, v)
			for i := range a {
				if math.Abs(a[i]-b[i]) > 1e-9 {
					t.Errorf("quat %v: rpy %v turns %v to %v, the quaternion to %v", q, rpy, v, a, b)
					break
				}
			}
		}
	}
}

func TestQuatXYZW(t *testing.T) {
	src := versioned("1.1", arm(`<origin xyz="0 0 1" quat_xyzw="0 0 0.7071068 0.7071068"/>`))
	r := expect(t, src)
	if got := r.Joint("shoulder").Origin.RPY; math.Abs(got[2]-math.Pi/2) > 1e-6 || math.Abs(got[0]) > 1e-9 || math.Abs(got[1]) > 1e-9 {
		t.Errorf("1.1 quat_xyzw: RPY %v, want (0, 0, pi/2)", got)
	}
	r = expect(t, wrap(arm(`<origin quat_xyzw="0 0 1 0"/>`)),
		W(`quat_xyzw=`, `joint "shoulder": <origin> quat_xyzw is URDF 1.1 and this file is 1.0, so it is ignored (as urdfdom ignores it): add version="1.1" to <robot>`))
	if got := r.Joint("shoulder").Origin.RPY; got != (Vec3{}) {
		t.Errorf("1.0 quat_xyzw: RPY %v, want it ignored", got)
	}
	expect(t, versioned("1.1", arm(`<origin rpy="0 0 1" quat_xyzw="0 0 0 1"/>`)),
		E(`quat_xyzw=`, `joint "shoulder": <origin> has both rpy and quat_xyzw; use one or the other`))
	expect(t, versioned("1.1", arm(`<origin quat_xyzw="0 0 1"/>`)),
		E(`quat_xyzw=`, `joint "shoulder": <origin> quat_xyzw: "0 0 1" has 3 numbers, want 4 (x y z w)`))
	expect(t, versioned("1.1", arm(`<origin quat_xyzw="0 0 0 0"/>`)),
		E(`quat_xyzw=`, `joint "shoulder": <origin> quat_xyzw "0 0 0 0" is not a rotation (its length is 0)`))
	expect(t, versioned("1.1", arm(`<origin quat_xyzw="0 0 x 1"/>`)),
		E(`quat_xyzw=`, `joint "shoulder": <origin> quat_xyzw: "x" is not a number`))
}

func TestCapsule(t *testing.T) {
	body := arm("") + "\n  <link name=\"c\"><collision><geometry><capsule radius=\"0.1\" length=\"0.5\"/></geometry></collision></link>\n  <joint name=\"m\" type=\"fixed\"><parent link=\"arm\"/><child link=\"c\"/></joint>"
	r := expect(t, versioned("1.1", body))
	if g := r.Link("c").Collisions[0]; g.Kind != "capsule" || g.Radius != 0.1 || g.Length != 0.5 {
		t.Errorf("capsule read as %+v", g)
	}
	expect(t, wrap(body), W(`<capsule`, `link "c": <capsule> is URDF 1.1 and this file is 1.0, so it is ignored (as urdfdom ignores it): add version="1.1" to <robot>`))
}

// TestRequired checks the sub-elements and attributes urdfdom requires.
func TestRequired(t *testing.T) {
	link := func(inner string) string {
		return "<robot name=\"r\">\n  <link name=\"l\">" + inner + "</link>\n</robot>\n"
	}
	const inertia = `<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>`
	tests := []struct {
		name string
		src  string
		want []finding
	}{
		{"safety_controller without k_velocity", wrap(arm(`<safety_controller soft_lower_limit="-1" k_position="10"/>`)),
			[]finding{E(`<safety_controller`, `joint "shoulder": <safety_controller> has no "k_velocity" attribute`)}},
		{"safety_controller with k_velocity", wrap(arm(`<safety_controller k_velocity="10"/>`)), nil},
		{"dynamics with neither", wrap(arm(`<dynamics/>`)),
			[]finding{E(`<dynamics`, `joint "shoulder": <dynamics> has neither "damping" nor "friction"`)}},
		{"dynamics with friction", wrap(arm(`<dynamics friction="0.1"/>`)), nil},
		{"calibration not a number", wrap(arm(`<calibration rising="up"/>`)),
			[]finding{E(`rising=`, `joint "shoulder": <calibration> rising: "up" is not a number`)}},
		{"inertial without mass value", link(`<inertial><mass/>` + inertia + `</inertial>`),
			[]finding{E(`<mass`, `link "l": <mass> has no "value" attribute`)}},
		{"inertial complete", link(`<inertial><mass value="1"/>` + inertia + `</inertial>`), nil},
		{"visual without geometry", link(`<visual/>`),
			[]finding{W(`<visual`, `link "l": <visual> has no <geometry>; ROS (urdfdom) drops this <visual>, and frcd reads no geometry`)}},
		{"collision with empty geometry", link(`<collision><geometry/></collision>`),
			[]finding{W(`<geometry`, `link "l": <geometry> has no shape (box, cylinder, sphere or mesh); ROS (urdfdom) drops this <collision>, and frcd reads no geometry`)}},
		{"unknown shape first", link(`<visual><geometry><cone/><box size="1 1 1"/></geometry></visual>`),
			[]finding{W(`<cone`, `link "l": <geometry> holds unknown shape <cone> (URDF shapes are box, cylinder, sphere and mesh); ROS (urdfdom) drops this <visual>, and frcd reads no geometry`)}},
		{"box without size", link(`<visual><geometry><box/></geometry></visual>`),
			[]finding{W(`<box`, `link "l": <box> has no "size"; ROS (urdfdom) drops this <visual>, and frcd reads no geometry`)}},
		{"cylinder without sizes", link(`<visual><geometry><cylinder/></geometry></visual>`),
			[]finding{W(`<cylinder`, `link "l": <cylinder> has no "radius", "length"; ROS (urdfdom) drops this <visual>, and frcd reads no geometry`)}},
		{"sphere without radius", link(`<visual><geometry><sphere/></geometry></visual>`),
			[]finding{W(`<sphere`, `link "l": <sphere> has no "radius"; ROS (urdfdom) drops this <visual>, and frcd reads no geometry`)}},
		{"mesh without filename", link(`<visual><geometry><mesh scale="1 1"/></geometry></visual>`),
			[]finding{
				W(`<mesh`, `link "l": <mesh> has no "filename"; ROS (urdfdom) drops this <visual>, and frcd reads no geometry`),
				E(`scale=`, `link "l": <mesh> scale: "1 1" has 2 numbers, want 3`),
			}},
		{"visual material without name", link(`<visual><geometry><sphere radius="1"/></geometry><material><color rgba="1 0 0 1"/></material></visual>`),
			[]finding{W(`<material`, `link "l": <material> has no "name"; ROS (urdfdom) drops this <visual>, and frcd reads no geometry`)}},
		{"visual material by name only", link(`<visual><geometry><sphere radius="1"/></geometry><material name="red"/></visual>`), nil},
		{"robot material undefined", "<robot name=\"r\">\n  <material name=\"red\"/>\n  <link name=\"l\"/>\n</robot>",
			[]finding{E(`<material`, `material "red" is not defined: a robot-level <material> needs <color rgba="..."/> or <texture filename="..."/>`)}},
		{"robot material bad rgba", "<robot name=\"r\">\n  <material name=\"red\"><color rgba=\"1 0 0\"/></material>\n  <link name=\"l\"/>\n</robot>",
			[]finding{
				E(`rgba=`, `material "red": <color> rgba: "1 0 0" has 3 numbers, want 4`),
				E(`<material`, `material "red" is not defined: a robot-level <material> needs <color rgba="..."/> or <texture filename="..."/>`),
			}},
		{"robot material twice", "<robot name=\"r\">\n  <material name=\"red\"><color rgba=\"1 0 0 1\"/></material>\n  <material name=\"red\"><texture filename=\"r.png\"/></material>\n  <link name=\"l\"/>\n</robot>",
			[]finding{E(`<material name="red"><texture`, `material "red": duplicate name, first declared at line 2`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { expect(t, tt.src, tt.want...) })
	}
}

// TestTreeDiagnosis checks that a joint whose parent link does not exist is
// reported as such, not as a cycle.
func TestTreeDiagnosis(t *testing.T) {
	src := "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"b\"/>\n" +
		"  <joint name=\"j1\" type=\"fixed\"><parent link=\"chassis\"/><child link=\"a\"/></joint>\n" +
		"  <joint name=\"j2\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n</robot>\n"
	expect(t, src, E(`link="chassis"`, `joint "j1": parent link "chassis" does not exist`))

	// A real cycle still is one.
	cyc := "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"b\"/>\n" +
		"  <joint name=\"j1\" type=\"fixed\"><parent link=\"b\"/><child link=\"a\"/></joint>\n" +
		"  <joint name=\"j2\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n</robot>\n"
	expect(t, cyc,
		E(`<robot`, `robot "r" has no root link: every link is a joint's child, so the joints form a cycle`),
		E(`<joint name="j2"`, `joint "j2": links form a cycle: "a" -> "b" -> "a"`))
}

// TestForeignSensors checks that robot-level sensors of other tools are left
// alone with one note, and frcd's own still read.
func TestForeignSensors(t *testing.T) {
	src := wrap(arm("") + `
  <joint name="ft" type="fixed"><parent link="arm"/><child link="hand"/></joint>
  <link name="hand"/>
  <sensor name="cam" type="camera" update_rate="30"><parent link="arm"/><camera><image width="640" height="480" hfov="1.5" near="0.1" far="10"/></camera></sensor>
  <sensor name="ft" type="force_torque"><parent joint="ft"/><force_torque><frame>child</frame></force_torque></sensor>
  <sensor name="ft2" type="imu"><parent joint="ft"/><imu/></sensor>
  <sensor name="pot" type="analog"><parent joint="shoulder"/></sensor>
  <sensor name="lidar" type="ray"><parent link="nowhere"/></sensor>`)
	r := expect(t, src,
		N(`<sensor name="cam"`, `4 robot-level sensors for other tools left alone, not frcd sensors: "cam" (camera), "ft" (force_torque), "ft2" (<imu>), "lidar" (ray)`))
	if r.Sensor("pot") == nil || len(r.Sensors) != 1 {
		t.Errorf("frcd sensors %v, want only pot", r.SensorNames())
	}
	if f := r.ForeignSensor("cam"); f == nil || f.Type != "camera" || len(r.Foreign) != 4 || r.ForeignSensor("pot") != nil {
		t.Errorf("foreign sensors %+v", r.Foreign)
	}
	// Named after its joint, with an frcd kind: still another tool's.
	expect(t, wrap(arm("")+"\n  <sensor name=\"shoulder\" type=\"\"><parent joint=\"shoulder\"/></sensor>"),
		N(`<sensor name="shoulder"`, `1 robot-level sensor for other tools left alone, not frcd sensors: "shoulder" (named after its joint)`))
	// A sensor on a fixed joint is a warning: the spec says "should not".
	expect(t, wrap(`  <joint name="mount" type="fixed"><parent link="base"/><child link="arm"/></joint>
  <sensor name="pot"><parent joint="mount"/></sensor>`),
		W(`<sensor name="pot"`, `sensor "pot": joint "mount" is fixed; a fixed joint should carry no sensor, as nothing moves`))
}
