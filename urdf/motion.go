package urdf

import "math"

// Motion is joint j's transform at position q (rad for a revolute or
// continuous joint, m for a prismatic one): its child link's frame in its
// parent link's, the origin then the motion about or along the axis, as
// robot_state_publisher puts a movable joint on /tf. t is the
// translation, r the rotation as a quaternion (w, x, y, z). Fixed and
// other joints are their origin.
func (j *Joint) Motion(q float64) (t [3]float64, r [4]float64) {
	o := j.Origin.RPY.Quaternion()
	t, r = [3]float64(j.Origin.XYZ), o
	ax := [3]float64(j.Axis)
	n := math.Sqrt(ax[0]*ax[0] + ax[1]*ax[1] + ax[2]*ax[2])
	if n == 0 || math.IsNaN(q) || math.IsInf(q, 0) {
		return t, r
	}
	ax = [3]float64{ax[0] / n, ax[1] / n, ax[2] / n}
	switch j.Type {
	case Revolute, Continuous:
		s, c := math.Sincos(q / 2)
		m := [4]float64{c, ax[0] * s, ax[1] * s, ax[2] * s}
		r = [4]float64{ // o * m
			o[0]*m[0] - o[1]*m[1] - o[2]*m[2] - o[3]*m[3],
			o[0]*m[1] + o[1]*m[0] + o[2]*m[3] - o[3]*m[2],
			o[0]*m[2] - o[1]*m[3] + o[2]*m[0] + o[3]*m[1],
			o[0]*m[3] + o[1]*m[2] - o[2]*m[1] + o[3]*m[0],
		}
	case Prismatic:
		// the axis (in the joint frame) turned into the parent's by o:
		// v + 2w(u×v) + 2u×(u×v), u the vector part
		v := [3]float64{ax[0] * q, ax[1] * q, ax[2] * q}
		u := [3]float64{o[1], o[2], o[3]}
		c1 := cross(u, v)
		c2 := cross(u, c1)
		for i := range t {
			t[i] += v[i] + 2*o[0]*c1[i] + 2*c2[i]
		}
	}
	return t, r
}

func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
