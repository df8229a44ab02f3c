package telemetry

import (
	"encoding/binary"
	"math"
)

// Schema is a WPILib struct's schema (wpiutil's struct.adoc): its type
// name and its declarations.
type Schema struct{ Name, Decl string }

// The schemas frcd publishes, each after the ones it nests (the order
// ntcore publishes them in).
var (
	Translation2d = Schema{"Translation2d", "double x;double y"}
	Rotation2d    = Schema{"Rotation2d", "double value"}
	Pose2d        = Schema{"Pose2d", "Translation2d translation;Rotation2d rotation"}
	Translation3d = Schema{"Translation3d", "double x;double y;double z"}
	Quaternion    = Schema{"Quaternion", "double w;double x;double y;double z"}
	Rotation3d    = Schema{"Rotation3d", "Quaternion q"}
	Pose3d        = Schema{"Pose3d", "Translation3d translation;Rotation3d rotation"}
)

// Sizes of the packed structs, bytes.
const (
	Pose2dSize = 3 * 8
	Pose3dSize = 7 * 8
)

// SchemaTopic is the name a schema is published under.
func SchemaTopic(s Schema) string { return "/.schema/struct:" + s.Name }

// putPose2d packs x, y (m) and the heading (rad) as a Pose2d.
func putPose2d(b []byte, x, y, yaw float64) {
	putF64s(b, x, y, yaw)
}

// putPose3d packs a translation (m) and a unit quaternion as a Pose3d.
func putPose3d(b []byte, p xform) {
	putF64s(b, p.t[0], p.t[1], p.t[2], p.q[0], p.q[1], p.q[2], p.q[3])
}

func putF64s(b []byte, vs ...float64) {
	for i, v := range vs {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
}

// xform is a rigid transform: rotation q (w, x, y, z) then translation t.
type xform struct {
	q [4]float64
	t [3]float64
}

var identity = xform{q: [4]float64{1, 0, 0, 0}}

func qmul(a, b [4]float64) [4]float64 {
	return [4]float64{
		a[0]*b[0] - a[1]*b[1] - a[2]*b[2] - a[3]*b[3],
		a[0]*b[1] + a[1]*b[0] + a[2]*b[3] - a[3]*b[2],
		a[0]*b[2] - a[1]*b[3] + a[2]*b[0] + a[3]*b[1],
		a[0]*b[3] + a[1]*b[2] - a[2]*b[1] + a[3]*b[0],
	}
}

// rotate turns v by the unit quaternion q.
func rotate(q [4]float64, v [3]float64) [3]float64 {
	p := qmul(qmul(q, [4]float64{0, v[0], v[1], v[2]}), [4]float64{q[0], -q[1], -q[2], -q[3]})
	return [3]float64{p[1], p[2], p[3]}
}

// then is a followed by b (b expressed in a's frame).
func (a xform) then(b xform) xform {
	r := rotate(a.q, b.t)
	return xform{q: qmul(a.q, b.q), t: [3]float64{a.t[0] + r[0], a.t[1] + r[1], a.t[2] + r[2]}}
}

// aboutAxis is a rotation by angle (rad) about a unit axis.
func aboutAxis(axis [3]float64, angle float64) [4]float64 {
	s, c := math.Sincos(angle / 2)
	return [4]float64{c, s * axis[0], s * axis[1], s * axis[2]}
}
