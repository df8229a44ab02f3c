package urdf

import (
	"math"
	"testing"
)

// TestMotion: a revolute joint about z at 90° turns its child's frame a
// quarter turn, keeping the origin; a prismatic joint along x, under an
// origin turned 90° about z, moves its child along the parent's y; a
// fixed joint is its origin whatever q; NaN is the origin.
func TestMotion(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	rev := &Joint{Type: Revolute, Axis: Vec3{0, 0, 2}, Origin: Pose{XYZ: Vec3{1, 2, 3}}}
	tr, r := rev.Motion(math.Pi / 2)
	if tr != [3]float64{1, 2, 3} || !near(r[0], math.Sqrt2/2) || !near(r[3], math.Sqrt2/2) || r[1] != 0 || r[2] != 0 {
		t.Errorf("revolute: %v %v", tr, r)
	}
	pri := &Joint{Type: Prismatic, Axis: Vec3{1, 0, 0}, Origin: Pose{XYZ: Vec3{0, 0, 1}, RPY: Vec3{0, 0, math.Pi / 2}}}
	tr, r = pri.Motion(0.5)
	if !near(tr[0], 0) || !near(tr[1], 0.5) || !near(tr[2], 1) || !near(r[0], math.Sqrt2/2) || !near(r[3], math.Sqrt2/2) {
		t.Errorf("prismatic: %v %v", tr, r)
	}
	fixed := &Joint{Type: Fixed, Origin: Pose{XYZ: Vec3{4, 0, 0}}, Axis: Vec3{1, 0, 0}}
	if tr, r = fixed.Motion(1); tr != [3]float64{4, 0, 0} || r != [4]float64{1, 0, 0, 0} {
		t.Errorf("fixed: %v %v", tr, r)
	}
	if tr, r = rev.Motion(math.NaN()); tr != [3]float64{1, 2, 3} || r != [4]float64{1, 0, 0, 0} {
		t.Errorf("NaN: %v %v", tr, r)
	}
}
