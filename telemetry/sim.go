package telemetry

import (
	"math"
	"strings"
	"time"

	"github.com/frcd/frcd/urdf"
)

// The sim's truth: the true field pose and the links' poses (sim/).

// linkStep places one link: its parent's pose (index into linkPose, -1
// for the robot's root), the joint's origin and motion.
type linkStep struct {
	parent int
	origin xform
	typ    urdf.JointType
	axis   [3]float64
	joint  string
}

// addSim adds the schemas, the true pose and the links' poses.
func (s *Source) addSim() {
	s.addSchemas()
	p := s.o.Prefix + "/sim/"
	s.pose2d = s.add(p+"pose", "struct:Pose2d", Raw, props("unit", "m, rad: the true field pose"))
	s.pose2d.Raw = make([]byte, Pose2dSize)
	s.pose3d = s.add(p+"pose3d", "struct:Pose3d", Raw, "{}")
	s.pose3d.Raw = make([]byte, Pose3dSize)
	var names []string
	s.links, names = chain(s.o.Robot.URDF)
	s.linkPose = make([]xform, len(s.links))
	s.q = make([]float64, len(s.links))
	s.components = s.add(p+"components", "struct:Pose3d[]", Raw, props("links", strings.Join(names, ",")))
	s.components.Raw = make([]byte, Pose3dSize*len(s.links))
	s.old = make([]byte, len(s.components.Raw))
}

// chain lists the URDF's joints parents first, walking out from the
// root, each with its child link's name.
func chain(u *urdf.Robot) (steps []linkStep, children []string) {
	if u == nil || u.Root == nil {
		return nil, nil
	}
	at := map[string]int{u.Root.Name: -1}
	for grew := true; grew; {
		grew = false
		for _, j := range u.Joints {
			pi, ok := at[j.Parent]
			if _, done := at[j.Child]; !ok || done || j.Child == "" {
				continue
			}
			ax := [3]float64(j.Axis)
			if n := math.Sqrt(ax[0]*ax[0] + ax[1]*ax[1] + ax[2]*ax[2]); n > 0 {
				ax = [3]float64{ax[0] / n, ax[1] / n, ax[2] / n}
			}
			o := xform{q: j.Origin.RPY.Quaternion(), t: [3]float64(j.Origin.XYZ)}
			steps = append(steps, linkStep{parent: pi, origin: o, typ: j.Type, axis: ax, joint: j.Name})
			at[j.Child] = len(steps) - 1
			children = append(children, j.Child)
			grew = true
		}
	}
	return steps, children
}

// place computes each link's pose from the joints' values q (one per
// step), parents first.
func place(steps []linkStep, q []float64, pose []xform) {
	for k, l := range steps {
		parent := identity
		if l.parent >= 0 {
			parent = pose[l.parent]
		}
		move := identity
		switch l.typ {
		case urdf.Revolute, urdf.Continuous:
			move.q = aboutAxis(l.axis, q[k])
		case urdf.Prismatic:
			move.t = [3]float64{l.axis[0] * q[k], l.axis[1] * q[k], l.axis[2] * q[k]}
		}
		pose[k] = parent.then(l.origin).then(move)
	}
}

// sampleSim publishes the true pose and the links' poses from the true
// joint positions.
func (s *Source) sampleSim(now time.Duration) {
	if !s.o.Truth(&s.truth) {
		return
	}
	tr := &s.truth
	copy(s.old, s.pose2d.Raw)
	putPose2d(s.pose2d.Raw, tr.X, tr.Y, tr.Yaw)
	s.pose2d.setRaw(s.old[:Pose2dSize], now)
	copy(s.old, s.pose3d.Raw)
	putPose3d(s.pose3d.Raw, xform{q: urdf.Vec3{0, 0, tr.Yaw}.Quaternion(), t: [3]float64{tr.X, tr.Y, 0}})
	s.pose3d.setRaw(s.old[:Pose3dSize], now)
	if len(s.links) == 0 {
		return
	}
	if len(s.jointIndex) != len(tr.Names) {
		s.jointIndex = make([]int, len(tr.Names))
		for i, n := range tr.Names {
			s.jointIndex[i] = -1
			for k, l := range s.links {
				if l.joint == n {
					s.jointIndex[i] = k
				}
			}
		}
	}
	for i, k := range s.jointIndex {
		if k >= 0 && i < len(tr.Position) {
			s.q[k] = tr.Position[i]
		}
	}
	place(s.links, s.q, s.linkPose)
	copy(s.old, s.components.Raw)
	for k := range s.links {
		putPose3d(s.components.Raw[k*Pose3dSize:], s.linkPose[k])
	}
	s.components.setRaw(s.old, now)
}
