package telemetry

import (
	"math"
	"time"

	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/urdf"
)

// The robot's mechanisms as a WPILib Mechanism2d, which Elastic and
// AdvantageScope draw: a side view (the root link's x forward, z up) of
// the URDF's revolute and prismatic joints (an arm, an elevator, a
// wrist; not wheels or rollers, which are continuous), each a line from
// the joint above it (or the robot's origin) to its own frame, placed by
// the measured joint positions, and a short line out of each last joint
// so that its rotation shows.
//
// Layout (allwpilib v2026.2.2 wpilibj/.../smartdashboard/Mechanism2d.java,
// MechanismRoot2d.java, MechanismLigament2d.java): PREFIX/mechanism with
// .type "Mechanism2d", dims double[] {width, height}, backgroundColor
// string; a root robot/ with x, y double; each ligament a table under its
// parent's with .type "line", angle (degrees, from its parent's
// direction), length, color ("#RRGGBB"), weight (line width). Units here
// are metres. AdvantageScope finds it by its .type (src/hub/SourceList.ts).

// tipLength is the line drawn out of a last joint, m.
const tipLength = 0.15

type ligament struct {
	step   int // the joint's index in mech.steps
	parent int // the parent ligament, or -1 for the root
	tip    bool
	angle  *Topic
	length *Topic
}

type mechanism struct {
	steps []linkStep
	q     []float64
	pose  []xform
	jnt   []int // per step, the snapshot's joint index, or -1
	rest  []float64
	ligs  []ligament
	abs   []float64 // per ligament, its absolute angle (rad), reused
}

// addMechanism publishes the Mechanism2d when the URDF has a revolute or
// prismatic joint.
func (s *Source) addMechanism() {
	u := s.o.Robot.URDF
	steps, _ := chain(u)
	m := &s.mech
	m.steps = steps
	m.q, m.pose, m.jnt, m.rest = make([]float64, len(steps)), make([]xform, len(steps)), make([]int, len(steps)), make([]float64, len(steps))
	byName := map[string]*urdf.Joint{}
	if u != nil {
		for _, j := range u.Joints {
			byName[j.Name] = j
		}
	}
	at := map[string]int{}
	for i, j := range s.snap.Joints {
		at[j.Name] = i
	}
	selected := make([]bool, len(steps))
	any := false
	for k, st := range steps {
		m.jnt[k] = -1
		if i, ok := at[st.joint]; ok {
			m.jnt[k] = i
		}
		if j := byName[st.joint]; j != nil && j.Limit != nil {
			m.rest[k] = min(max(0, j.Limit.Lower), j.Limit.Upper)
		}
		selected[k] = st.typ == urdf.Revolute || st.typ == urdf.Prismatic
		any = any || selected[k]
	}
	if !any {
		return
	}
	base := s.o.Prefix + "/mechanism/"
	s.add(base+".type", "string", String, props("SmartDashboard", "Mechanism2d")).setString("Mechanism2d", time.Microsecond)
	s.add(base+"backgroundColor", "string", String, "{}").setString("#202020", time.Microsecond)
	dims := s.addArray(base+"dims", "double[]", 2, props("unit", "m"))
	root := base + "robot/"
	// Each selected joint's ligament hangs from the nearest selected
	// joint above it.
	lig := make([]int, len(steps)) // per step, its ligament or -1
	path := make([]string, len(steps))
	reach := 0.0
	for k, st := range steps {
		lig[k] = -1
		up, upPath := -1, root
		for p := st.parent; p >= 0; p = steps[p].parent {
			if lig[p] >= 0 {
				up, upPath = lig[p], path[p]
				break
			}
		}
		if !selected[k] {
			continue
		}
		path[k] = upPath + st.joint + "/"
		lig[k] = len(m.ligs)
		m.ligs = append(m.ligs, s.ligament(path[k], k, up, false))
		t := st.origin.t
		reach += math.Hypot(t[0], t[2])
		if j := byName[st.joint]; st.typ == urdf.Prismatic && j != nil && j.Limit != nil {
			reach += math.Max(math.Abs(j.Limit.Lower), math.Abs(j.Limit.Upper))
		}
	}
	for k := range steps { // a tip out of each joint with no selected joint below it
		if lig[k] < 0 {
			continue
		}
		leaf := true
		for c := range steps {
			for p := steps[c].parent; p >= 0 && leaf; p = steps[p].parent {
				if p == k && selected[c] {
					leaf = false
				}
			}
		}
		if leaf {
			m.ligs = append(m.ligs, s.ligament(path[k]+"tip/", k, lig[k], true))
			reach += tipLength
		}
	}
	m.abs = make([]float64, len(m.ligs))
	reach = max(reach, 0.5)
	dims.setDoubles([]float64{2 * reach, 1.5 * reach}, time.Microsecond)
	s.add(root+"x", "double", Double, props("unit", "m")).setDouble(reach, time.Microsecond)
	s.add(root+"y", "double", Double, props("unit", "m")).setDouble(0.25*reach, time.Microsecond)
}

func (s *Source) ligament(path string, step, parent int, tip bool) ligament {
	s.add(path+".type", "string", String, props("SmartDashboard", "line")).setString("line", time.Microsecond)
	color := "#ffa500"
	if tip {
		color = "#00c0ff"
	}
	s.add(path+"color", "string", String, "{}").setString(color, time.Microsecond)
	s.add(path+"weight", "double", Double, "{}").setDouble(6, time.Microsecond)
	return ligament{step: step, parent: parent, tip: tip,
		angle:  s.add(path+"angle", "double", Double, props("unit", "deg")),
		length: s.add(path+"length", "double", Double, props("unit", "m"))}
}

// needed says whether one of the ligaments' topics is needed.
func (m *mechanism) needed() bool {
	for i := range m.ligs {
		if m.ligs[i].angle.need || m.ligs[i].length.need {
			return true
		}
	}
	return false
}

// sampleMechanism places the ligaments from the joints' measured
// positions (a joint not measured yet at its rest position).
func (s *Source) sampleMechanism(now time.Duration) {
	m := &s.mech
	if len(m.ligs) == 0 {
		return
	}
	for k := range m.steps {
		m.q[k] = m.rest[k]
		if i := m.jnt[k]; i >= 0 {
			if j := &s.snap.Joints[i].State; j.Has&interfaces.HasPosition != 0 {
				m.q[k] = j.Position
			}
		}
	}
	place(m.steps, m.q, m.pose)
	for i := range m.ligs {
		l := &m.ligs[i]
		from := [3]float64{}
		if l.parent >= 0 && !l.tip {
			from = m.pose[m.ligs[l.parent].step].t
		}
		var to [3]float64
		if l.tip {
			p := m.pose[l.step]
			from = p.t
			d := rotate(p.q, [3]float64{tipLength, 0, 0})
			to = [3]float64{from[0] + d[0], from[1] + d[1], from[2] + d[2]}
		} else {
			to = m.pose[l.step].t
		}
		dx, dz := to[0]-from[0], to[2]-from[2]
		m.abs[i] = math.Atan2(dz, dx)
		rel := m.abs[i]
		if l.parent >= 0 {
			rel -= m.abs[l.parent]
		}
		l.angle.setDouble(math.Remainder(rel, 2*math.Pi)*180/math.Pi, now)
		l.length.setDouble(math.Hypot(dx, dz), now)
	}
}
