package urdf

import (
	"math"
	"strconv"
	"strings"

	"github.com/frcd/frcd/diag"
)

// The URDF versions frcd reads, as urdfdom does: 1.0 (the default when
// <robot> has no version attribute) and 1.1, which adds <origin quat_xyzw>
// and the <capsule> geometry.
const (
	Version10 = "1.0"
	Version11 = "1.1"
)

// version reads <robot version> the way urdfdom does: "major.minor", each a
// non-negative decimal integer, and only 1.0 and 1.1 accepted. The reasons
// given are urdfdom's. A refused version is read as 1.0.
func (b *builder) version(n *node) {
	b.r.Version = Version10
	a := n.attr("version")
	if a == nil {
		return
	}
	major, minor, bad := parseVersion(a.value)
	switch {
	case bad != "":
		b.l.Errorf(b.at(a.off), "<robot> version %q: %s", a.value, bad)
	case major == 1 && minor == 0:
	case major == 1 && minor == 1:
		b.r.Version = Version11
	default:
		b.l.Errorf(b.at(a.off), "<robot> version %q is not supported: URDF is version 1.0 or 1.1", a.value)
	}
}

// parseVersion splits a version as urdfdom does: pieces between dots, a
// trailing empty piece dropped, each read like strtol (leading blanks and
// a sign allowed, nothing after the digits).
func parseVersion(s string) (major, minor uint64, bad string) {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) != 2 {
		return 0, 0, "the version attribute should be in the form 'x.y'"
	}
	var v [2]uint64
	for i, p := range parts {
		if p == "" {
			return 0, 0, "one of the fields of the version attribute is blank"
		}
		t := strings.TrimLeft(p, " \t\n\v\f\r")
		neg := false
		if t != "" && (t[0] == '+' || t[0] == '-') {
			neg = t[0] == '-'
			t = t[1:]
		}
		d := 0
		for d < len(t) && t[d] >= '0' && t[d] <= '9' {
			d++
		}
		if d == 0 {
			return 0, 0, "the version is not an integer"
		}
		if d != len(t) {
			return 0, 0, "extra characters after the version number"
		}
		x, err := strconv.ParseUint(t, 10, 32)
		if err != nil {
			return 0, 0, "the version number is too large"
		}
		if neg && x != 0 {
			return 0, 0, "the version number must be positive"
		}
		v[i] = x
	}
	return v[0], v[1], ""
}

// quat reads an <origin>'s quat_xyzw (URDF 1.1) into roll, pitch, yaw.
func (b *builder) quat(subj string, o *node, rpy *attr) (Vec3, bool) {
	a := o.attr("quat_xyzw")
	if a == nil {
		return Vec3{}, false
	}
	if b.r.Version != Version11 {
		b.l.Warnf(b.at(a.off), `%s: <origin> quat_xyzw is URDF 1.1 and this file is %s, so it is ignored (as urdfdom ignores it): add version="1.1" to <robot>`, subj, b.r.Version)
		return Vec3{}, false
	}
	if rpy != nil {
		b.l.Errorf(b.at(a.off), "%s: <origin> has both rpy and quat_xyzw; use one or the other", subj)
		return Vec3{}, false
	}
	if xacroValue(a.value) {
		return Vec3{}, false
	}
	var buf [5]string
	f := fields(buf[:], a.value)
	if len(f) != 4 {
		b.l.Errorf(b.at(a.off), "%s: <origin> quat_xyzw: %q has %d numbers, want 4 (x y z w)", subj, a.value, len(f))
		return Vec3{}, false
	}
	var q [4]float64
	for i, s := range f {
		x, bad := number(s)
		if bad != "" {
			b.l.Errorf(b.at(a.off), "%s: <origin> quat_xyzw: %q %s", subj, s, bad)
			return Vec3{}, false
		}
		q[i] = x
	}
	norm := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if norm == 0 || math.IsInf(norm, 0) {
		b.l.Errorf(b.at(a.off), "%s: <origin> quat_xyzw %q is not a rotation (its length is %g)", subj, a.value, norm)
		return Vec3{}, false
	}
	return quatToRPY(q[0]/norm, q[1]/norm, q[2]/norm, q[3]/norm), true
}

// Quaternion is URDF's fixed-axis roll, pitch, yaw (R = Rz(yaw) Ry(pitch)
// Rx(roll)) as a unit quaternion (w, x, y, z): quatToRPY's inverse.
func (v Vec3) Quaternion() [4]float64 {
	sr, cr := math.Sincos(v[0] / 2)
	sp, cp := math.Sincos(v[1] / 2)
	sy, cy := math.Sincos(v[2] / 2)
	return [4]float64{
		cr*cp*cy + sr*sp*sy,
		sr*cp*cy - cr*sp*sy,
		cr*sp*cy + sr*cp*sy,
		cr*cp*sy - sr*sp*cy,
	}
}

// quatToRPY turns a unit quaternion into URDF's fixed-axis roll, pitch,
// yaw (R = Rz(yaw) Ry(pitch) Rx(roll)).
func quatToRPY(x, y, z, w float64) Vec3 {
	sinp := 2 * (w*y - z*x)
	if sinp >= 1 {
		return Vec3{0, math.Pi / 2, -2 * math.Atan2(x, w)}
	}
	if sinp <= -1 {
		return Vec3{0, -math.Pi / 2, 2 * math.Atan2(x, w)}
	}
	roll := math.Atan2(2*(w*x+y*z), 1-2*(x*x+y*y))
	pitch := math.Asin(sinp)
	yaw := math.Atan2(2*(w*z+x*y), 1-2*(y*y+z*z))
	return Vec3{roll, pitch, yaw}
}

// xacroValue reports an attribute value that still holds a xacro
// expression: the file is reported as unexpanded once, and the value is
// not checked further.
func xacroValue(v string) bool {
	return strings.Contains(v, "${") || strings.Contains(v, "$(")
}

// requireAttrs reports each attribute of n that urdfdom requires and that
// is missing, in one finding.
func (b *builder) requireAttrs(subj string, n *node, names ...string) bool {
	var missing []string
	for _, name := range names {
		if n.attr(name) == nil {
			missing = append(missing, strconv.Quote(name))
		}
	}
	if len(missing) == 0 {
		return true
	}
	if !n.xacro {
		word := "attribute"
		if len(missing) > 1 {
			word = "attributes"
		}
		b.l.Errorf(b.at(n.off), "%s: <%s> has no %s %s", subj, n.name, strings.Join(missing, ", "), word)
	}
	return false
}

// material checks a robot-level <material>, as urdfdom does: a unique
// name, and a color rgba or a texture filename.
func (b *builder) material(n *node, seen map[string]*node) {
	name, _ := b.name(n, "material")
	subj := label("material", name)
	if name != "" {
		if first := seen[name]; first != nil {
			b.l.Errorf(b.at(n.off), "%s: duplicate name, first declared at line %d", subj, b.at(first.off).Line)
		} else {
			seen[name] = n
		}
	}
	if !b.materialBody(subj, n) && !n.xacro {
		b.l.Errorf(b.at(n.off), `%s is not defined: a robot-level <material> needs <color rgba="..."/> or <texture filename="..."/>`, subj)
	}
}

// materialBody checks a material's color and reports whether it defines
// a color or a texture.
func (b *builder) materialBody(subj string, n *node) bool {
	defined := false
	if t := b.first(subj, n, "texture"); t != nil && t.attr("filename") != nil {
		defined = true
	}
	if c := b.first(subj, n, "color"); c != nil {
		if a := c.attr("rgba"); a != nil {
			if b.floats(subj, c, a, 4) {
				defined = true
			}
		}
	}
	return defined
}

// floats checks that attribute a of n holds want numbers.
func (b *builder) floats(subj string, n *node, a *attr, want int) bool {
	if xacroValue(a.value) {
		return false
	}
	var buf [5]string
	f := fields(buf[:], a.value)
	if len(f) != want {
		b.l.Errorf(b.at(a.off), "%s: <%s> %s: %q has %d numbers, want %d", subj, n.name, a.name, a.value, len(f), want)
		return false
	}
	for _, s := range f {
		if _, bad := number(s); bad != "" {
			b.l.Errorf(b.at(a.off), "%s: <%s> %s: %q %s", subj, n.name, a.name, s, bad)
			return false
		}
	}
	return true
}

// frcdSensorKinds are the sensor types frcd's own devices measure with. A
// robot-level <sensor> of another type (camera, ray, force_torque, ...)
// belongs to another tool and is left alone.
var frcdSensorKinds = map[string]bool{
	"": true, "encoder": true, "analog": true, "analog_input": true, "potentiometer": true,
	"digital": true, "digital_input": true, "limit_switch": true, "switch": true,
	"beam_break": true, "ultrasonic": true, "imu": true, "gyro": true,
}

// foreignSensor reports whether a robot-level <sensor> is another tool's
// (urdfdom's camera and ray, iCub's force_torque, Gazebo's ...), and why:
// a type frcd has no device for, a body frcd does not read (only <parent>
// and <origin> are frcd's), or a <parent joint> with the sensor's own name
// (a force/torque sensor named after the joint it sits in).
func foreignSensor(n *node) (bool, string) {
	typ := ""
	if a := n.attr("type"); a != nil {
		typ = a.value
	}
	if !frcdSensorKinds[typ] {
		return true, typ
	}
	name := ""
	if a := n.attr("name"); a != nil {
		name = a.value
	}
	for _, k := range n.kids {
		switch k.name {
		case "parent":
			if a := k.attr("joint"); a != nil && name != "" && a.value == name {
				return true, "named after its joint"
			}
		case "origin":
		default:
			return true, "<" + k.name + ">"
		}
	}
	return false, ""
}

// ignored notes, once, the robot-level sensors left alone.
func (b *builder) ignored(list []ignoredSensor) {
	if len(list) == 0 {
		return
	}
	var s strings.Builder
	for i, ig := range list {
		if i == 4 {
			s.WriteString(", ...")
			break
		}
		if i > 0 {
			s.WriteString(", ")
		}
		s.WriteString(strconv.Quote(ig.name))
		if ig.why != "" {
			s.WriteString(" (" + ig.why + ")")
		}
	}
	word := "sensor"
	if len(list) > 1 {
		word = "sensors"
	}
	b.l.Notef(list[0].pos, "%d robot-level %s for other tools left alone, not frcd sensors: %s", len(list), word, s.String())
}

type ignoredSensor struct {
	name, why string
	pos       diag.Pos
}
