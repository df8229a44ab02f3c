package urdf

import (
	"strconv"
	"strings"

	"github.com/frcd/frcd/diag"
)

// Reading a <link>: its inertial and its visual and collision geometry.

func (b *builder) link(n *node) {
	r := b.r
	lk := &Link{Pos: b.at(n.off)}
	var namePos diag.Pos
	lk.Name, namePos = b.name(n, "link")
	r.Links = append(r.Links, lk)
	subj := label("link", lk.Name)
	if lk.Name != "" {
		if first := r.links[lk.Name]; first != nil {
			b.l.Errorf(namePos, "%s: duplicate name, first declared at line %d", subj, first.Pos.Line)
		} else {
			r.links[lk.Name] = lk
		}
	}
	if in := b.first(subj, n, "inertial"); in != nil {
		lk.Inertial = b.inertial(subj, in)
	}
	for _, k := range n.kids {
		switch k.name {
		case "visual":
			lk.Visuals = append(lk.Visuals, b.geometry(subj, k))
		case "collision":
			lk.Collisions = append(lk.Collisions, b.geometry(subj, k))
		case "sensor":
			s := b.sensor(k, InLink, lk.Name)
			s.Link = lk.Name
			lk.Sensors = append(lk.Sensors, s)
		}
	}
}

func (b *builder) inertial(subj string, n *node) *Inertial {
	in := &Inertial{Origin: b.pose(subj, n)}
	if m := b.first(subj, n, "mass"); m == nil {
		if !n.xacro {
			b.l.Errorf(b.at(n.off), "%s: <inertial> has no <mass>", subj)
		}
	} else if b.requireAttrs(subj, m, "value") {
		var a *attr
		in.Mass, a = b.float(subj, m, "value", 0)
		if in.Mass < 0 {
			b.l.Errorf(b.at(a.off), "%s: <mass> value %g is negative", subj, in.Mass)
		}
	}
	if t := b.first(subj, n, "inertia"); t == nil {
		if !n.xacro {
			b.l.Errorf(b.at(n.off), "%s: <inertial> has no <inertia>", subj)
		}
	} else {
		b.requireAttrs(subj, t, "ixx", "ixy", "ixz", "iyy", "iyz", "izz")
		in.Ixx, _ = b.float(subj, t, "ixx", 0)
		in.Ixy, _ = b.float(subj, t, "ixy", 0)
		in.Ixz, _ = b.float(subj, t, "ixz", 0)
		in.Iyy, _ = b.float(subj, t, "iyy", 0)
		in.Iyz, _ = b.float(subj, t, "iyz", 0)
		in.Izz, _ = b.float(subj, t, "izz", 0)
	}
	return in
}

// geometry reads a <visual> or <collision>. As urdfdom, it needs a
// <geometry> whose first element is a shape with its sizes; a visual's
// <material> needs a name. Where one is missing, urdfdom 3.0.1 logs an
// error, drops that <visual> or <collision> and accepts the file
// (urdf_parser/src/link.cpp, parseLink: "Could not parse visual element
// for Link"; checked with Debian's check_urdf): frcd reads no geometry, so
// these findings are warnings that say so.
func (b *builder) geometry(subj string, n *node) Geometry {
	g := Geometry{Origin: b.pose(subj, n)}
	drop := func(at *node, format string, args ...any) {
		b.l.Warnf(b.at(at.off), format+"; ROS (urdfdom) drops this <%s>, and frcd reads no geometry", append(args, n.name)...)
	}
	need := func(k *node, names ...string) bool {
		var missing []string
		for _, name := range names {
			if k.attr(name) == nil {
				missing = append(missing, strconv.Quote(name))
			}
		}
		if len(missing) > 0 && !k.xacro {
			drop(k, "%s: <%s> has no %s", subj, k.name, strings.Join(missing, ", "))
		}
		return len(missing) == 0
	}
	if n.name == "visual" {
		if m := b.first(subj, n, "material"); m != nil {
			need(m, "name")
			b.materialBody(subj, m)
		}
	}
	geo := b.first(subj, n, "geometry")
	if geo == nil {
		if !n.xacro {
			drop(n, "%s: <%s> has no <geometry>", subj, n.name)
		}
		return g
	}
	if len(geo.kids) == 0 {
		if !geo.xacro {
			drop(geo, "%s: <geometry> has no shape (box, cylinder, sphere or mesh)", subj)
		}
		return g
	}
	k := geo.kids[0] // urdfdom reads the first element only
	switch k.name {
	case "box":
		if need(k, "size") {
			g.Kind = k.name
			g.Size, _ = b.vec3(subj, k, "size", Vec3{})
		}
	case "cylinder":
		if need(k, "radius", "length") {
			g.Kind = k.name
			g.Radius, _ = b.float(subj, k, "radius", 0)
			g.Length, _ = b.float(subj, k, "length", 0)
		}
	case "sphere":
		if need(k, "radius") {
			g.Kind = k.name
			g.Radius, _ = b.float(subj, k, "radius", 0)
		}
	case "mesh":
		if need(k, "filename") {
			g.Kind = k.name
			g.Filename = k.attr("filename").value
		}
		b.vec3(subj, k, "scale", Vec3{1, 1, 1})
	case "capsule":
		if b.r.Version != Version11 {
			b.l.Warnf(b.at(k.off), `%s: <capsule> is URDF 1.1 and this file is %s, so it is ignored (as urdfdom ignores it): add version="1.1" to <robot>`, subj, b.r.Version)
			break
		}
		if need(k, "radius", "length") {
			g.Kind = k.name
			g.Radius, _ = b.float(subj, k, "radius", 0)
			g.Length, _ = b.float(subj, k, "length", 0)
		}
	default:
		if !k.inXacro {
			drop(k, "%s: <geometry> holds unknown shape <%s> (URDF shapes are box, cylinder, sphere and mesh)", subj, k.name)
		}
	}
	return g
}
