package sim

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/frcd/frcd/internal/bounds"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

// treeURDF writes a robot of n revolute joints: joint i hangs from link
// parent(i), each link with an offset, rotated inertial.
func treeURDF(n int, parent func(i int) int) string {
	var b strings.Builder
	b.WriteString(`<robot name="tree"><link name="l0"/>`)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `<joint name="j%d" type="revolute"><parent link="l%d"/><child link="l%d"/><origin xyz="0.1 %g 0.02" rpy="0.3 %g 0.1"/><axis xyz="%g 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>`, i, parent(i), i, float64(i%3)*0.05, float64(i%5)*0.2, float64(i%2))
		fmt.Fprintf(&b, `<link name="l%d"><inertial><origin xyz="0.05 0 %g" rpy="%g 0 0.2"/><mass value="%g"/><inertia ixx="0.01" iyy="0.02" izz="0.03" ixy="0.001" ixz="0" iyz="0.002"/></inertial></link>`, i, float64(i%4)*0.1, float64(i%3)*0.4, 0.5+float64(i%7)*0.1)
	}
	b.WriteString(`</robot>`)
	return b.String()
}

// walkInertia is the definition subtree's sums must agree with: every link
// below the joint's child visited, its inertial moved into the joint's
// frame and projected onto the axis.
func walkInertia(u *urdf.Robot, top *urdf.Link, axis urdf.Vec3) (mass, inertia float64) {
	n := math.Sqrt(dot(axis, axis))
	axis = urdf.Vec3{axis[0] / n, axis[1] / n, axis[2] / n}
	var walk func(l *urdf.Link, rot mat3, at urdf.Vec3)
	walk = func(l *urdf.Link, rot mat3, at urdf.Vec3) {
		if in := l.Inertial; in != nil && in.Mass > 0 {
			r := rot.mul(rpy(in.Origin.RPY))
			com := add(at, rot.apply(in.Origin.XYZ))
			t := mat3{{in.Ixx, in.Ixy, in.Ixz}, {in.Ixy, in.Iyy, in.Iyz}, {in.Ixz, in.Iyz, in.Izz}}
			t = r.mul(t).mul(r.t())
			along := dot(com, axis)
			mass += in.Mass
			inertia += dot(axis, t.apply(axis)) + in.Mass*(dot(com, com)-along*along)
		}
		for _, c := range l.Children {
			walk(u.Link(c.Child), rot.mul(rpy(c.Origin.RPY)), add(at, rot.apply(c.Origin.XYZ)))
		}
	}
	walk(top, ident, urdf.Vec3{})
	return mass, inertia
}

// TestSubtreeSums checks the summed-once bodies against a walk of each
// joint's subtree, on a random tree.
func TestSubtreeSums(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	u, list := urdf.Parse("tree.urdf", []byte(treeURDF(60, func(i int) int { return rng.Intn(i) })))
	if list.Errors() > 0 {
		t.Fatal(list)
	}
	bs := newBodies(u)
	for _, j := range u.Joints {
		m, in := bs.subtree(j)
		wm, win := walkInertia(u, u.Link(j.Child), j.Axis)
		if !near(m, wm, 1e-9*wm) || !near(in, win, 1e-9*win) {
			t.Errorf("%s: mass %.12g, inertia %.12g; a walk gives %.12g, %.12g", j.Name, m, in, wm, win)
		}
	}
}

// TestStartupLinear: a chain of n joints starts in time linear in n (each
// joint's inertia once walked its whole subtree: 10,000 joints never
// started).
func TestStartupLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("measures sim start-ups of up to 8,000 joints: skipped with -short (make test runs it)")
	}
	chain := func(i int) int { return i - 1 }
	robots := map[int]*robot.Robot{}
	for _, n := range []int{2000, 8000} {
		robots[n] = loadRobot(t, treeURDF(n, chain), "joints: []\n")
	}
	bounds.Linear(t, 2000, func(n int) {
		if _, err := New(robots[n], Options{}); err != nil {
			t.Fatal(err)
		}
	})
}
