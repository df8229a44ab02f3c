package urdf

import (
	"fmt"
	"strings"

	"github.com/frcd/frcd/diag"
)

// resolve checks the names that refer to other elements, now that every
// element is known, and links the tree together.
func (b *builder) resolve() {
	r := b.r
	linkNames, jointNames := r.LinkNames(), r.JointNames()

	for _, sn := range b.sensorNames {
		if j := r.joints[sn.s.Name]; j != nil {
			b.l.Errorf(sn.pos, "%s: joint %q (line %d) has the same name; YAML entries name a joint or a sensor, so the names must differ",
				label("sensor", sn.s.Name), j.Name, j.Pos.Line)
		}
	}

	for _, j := range r.Joints {
		subj := label("joint", j.Name)
		var parent, child *Link
		if j.Parent != "" {
			if parent = r.links[j.Parent]; parent == nil {
				b.l.Errorf(j.ParentPos, "%s: parent link %q does not exist%s", subj, j.Parent, diag.DidYouMean(j.Parent, linkNames))
			}
		}
		if j.Child != "" {
			if child = r.links[j.Child]; child == nil {
				b.l.Errorf(j.ChildPos, "%s: child link %q does not exist%s", subj, j.Child, diag.DidYouMean(j.Child, linkNames))
			}
		}
		if j.Parent != "" && j.Parent == j.Child {
			b.l.Errorf(j.ChildPos, "%s: parent and child are the same link %q", subj, j.Child)
			continue
		}
		if child == nil {
			continue
		}
		if first := child.Parent; first != nil {
			b.l.Errorf(j.ChildPos, "%s: link %q already has parent joint %q (line %d); a link has at most one parent joint",
				subj, child.Name, first.Name, first.Pos.Line)
			continue
		}
		child.Parent = j
		if parent != nil {
			parent.Children = append(parent.Children, j)
		}
	}

	for _, m := range b.mimics {
		j := m.j
		subj := label("joint", j.Name)
		name := j.Mimic.Joint
		switch {
		case strings.TrimSpace(name) == "":
			b.l.Errorf(m.pos, `%s: <mimic> has an empty "joint"`, subj)
		case name == j.Name:
			b.l.Errorf(m.pos, "%s mimics itself", subj)
		case r.joints[name] == nil:
			b.l.Errorf(m.pos, "%s: <mimic> joint %q does not exist%s", subj, name, diag.DidYouMean(name, jointNames))
		}
	}

	for _, ref := range b.topSensors {
		s := ref.s
		if ref.attr == "link" {
			s.Link = ref.value
			lk := r.links[ref.value]
			if lk == nil {
				b.l.Errorf(ref.pos, "%s: parent link %q does not exist%s", ref.subj, ref.value, diag.DidYouMean(ref.value, linkNames))
				continue
			}
			lk.Sensors = append(lk.Sensors, s)
			continue
		}
		s.Joint = ref.value
		j := r.joints[ref.value]
		if j == nil {
			b.l.Errorf(ref.pos, "%s: parent joint %q does not exist%s", ref.subj, ref.value, diag.DidYouMean(ref.value, jointNames))
			continue
		}
		j.Sensors = append(j.Sensors, s)
		if j.Type == Fixed {
			b.l.Warnf(s.Pos, "%s: %s is fixed; a fixed joint should carry no sensor, as nothing moves", ref.subj, label("joint", j.Name))
		}
	}
}

// tree finds the root link and the cycles.
func (b *builder) tree(subj string) {
	r := b.r
	var links, roots []*Link
	dangling := false // a link whose parent joint names no existing link
	for _, lk := range r.Links {
		if lk.Name != "" && r.links[lk.Name] == lk {
			links = append(links, lk)
			if lk.Parent == nil {
				roots = append(roots, lk)
			} else if r.links[lk.Parent.Parent] == nil {
				dangling = true
			}
		}
	}
	switch {
	case len(links) == 0:
	case len(roots) == 0 && dangling:
		// The tree hangs from a parent link that does not exist: that
		// finding, at the joint, is the diagnosis.
	case len(roots) == 0:
		b.l.Errorf(r.Pos, "%s has no root link: every link is a joint's child, so the joints form a cycle", subj)
	case len(roots) == 1:
		r.Root = roots[0]
	default:
		var list strings.Builder
		for i, lk := range roots {
			if i > 0 {
				list.WriteString(", ")
			}
			fmt.Fprintf(&list, "%q (line %d)", lk.Name, lk.Pos.Line)
		}
		b.l.Errorf(r.Pos, "%s has several root links (links that are no joint's child): %s; joints must connect every link into one tree", subj, list.String())
	}

	// Walk up from each link; meeting a link of the current walk again
	// closes a cycle.
	const (
		unseen = iota
		walking
		done
	)
	state := make(map[*Link]int, len(links))
	var path []*Link
	for _, start := range links {
		if state[start] != unseen {
			continue
		}
		path = path[:0]
		for cur := start; ; {
			state[cur] = walking
			path = append(path, cur)
			if cur.Parent == nil {
				break
			}
			up := r.links[cur.Parent.Parent]
			if up == nil || state[up] == done {
				break
			}
			if state[up] == walking {
				for i, lk := range path {
					if lk == up {
						b.cycle(path[i:])
						break
					}
				}
				break
			}
			cur = up
		}
		for _, lk := range path {
			state[lk] = done
		}
	}
}

// cycle reports links whose parent joints form a loop: cyc[i+1] is the
// parent link of cyc[i], and the first is the parent of the last. The joint
// written last is blamed, as the likeliest mistake.
func (b *builder) cycle(cyc []*Link) {
	blame := cyc[0].Parent
	childOf := make(map[*Link]*Link, len(cyc))
	for i, lk := range cyc {
		j := lk.Parent
		if j.Pos.Line > blame.Pos.Line || (j.Pos.Line == blame.Pos.Line && j.Pos.Col > blame.Pos.Col) {
			blame = j
		}
		childOf[cyc[(i+1)%len(cyc)]] = lk
	}
	first := b.r.links[blame.Parent]
	var seq strings.Builder
	fmt.Fprintf(&seq, "%q", first.Name)
	for lk := childOf[first]; ; lk = childOf[lk] {
		fmt.Fprintf(&seq, " -> %q", lk.Name)
		if lk == first {
			break
		}
	}
	b.l.Errorf(blame.Pos, "%s: links form a cycle: %s", label("joint", blame.Name), seq.String())
}
