package urdf

import (
	"math"
	"strconv"
	"strings"

	"github.com/frcd/frcd/diag"
)

// Parse reads an extended URDF. path names the file in findings; data is its
// content. Parse returns every problem it finds, sorted, and never panics.
// The Robot is never nil: it holds whatever could be read, even when there
// are errors, so that callers can still cross-check names against it.
func Parse(path string, data []byte) (*Robot, diag.List) {
	r := newRobot(path)
	var l diag.List
	p := newPositions(path, data)
	ok, ascii := checkText(p, data, &l)
	if !ok {
		r.Unreadable = true
		return r, l
	}
	rd := &reader{p: p, data: data, l: &l}
	var root *node
	fast, wellFormed := false, true
	if ascii {
		root, fast = fastRead(p, data)
	}
	if !fast {
		root, wellFormed = rd.read(ascii)
	}
	r.Unreadable = !wellFormed || rd.xacro || root == nil || root.name != "robot" // withoutXacro may take xacro back
	switch {
	case root == nil:
		if wellFormed {
			l.Errorf(p.at(0), "no <robot> element")
		}
	case root.name != "robot":
		l.Errorf(p.at(root.off), "root element is <%s>, want <robot>", root.name)
	default:
		b := &builder{r: r, l: &l, p: p}
		if !wellFormed {
			// What could be read is kept, but its findings would only
			// echo the real problem. Leftover xacro is one finding among
			// the others: what it leaves unwritten is not reported.
			b.l = new(diag.List)
		}
		b.robot(root)
		if rd.xacro && wellFormed && onlyXacroElements(root) {
			if r2, l2, ok := withoutXacro(path, p, root, l, rd.xacroAt); ok {
				r, l = r2, l2
			}
		}
	}
	l.Sort()
	return r, l
}

// xacroSkipped is withoutXacro's warning.
const xacroSkipped = "xacro is not expanded: urdfdom (ROS) skips these xacro elements, and so does frcd; the rest is a whole robot. Run `xacro` first if they were meant to add links or joints"

func newRobot(path string) *Robot {
	return &Robot{
		Path:    path,
		Pos:     diag.Pos{File: path, Line: 1, Col: 1},
		links:   map[string]*Link{},
		joints:  map[string]*Joint{},
		sensors: map[string]*Sensor{},
	}
}

// withoutXacro reads a file whose only xacro is elements urdfdom skips
// (a leftover <xacro:include>, <xacro:property>, a macro never called) as
// urdfdom does: without them. When that finds no error the builder did not
// find beside the xacro one (the tree is whole, every reference resolves),
// the xacro hides nothing frcd reads, and the file is readable with a
// warning at the first xacro element; ok is false otherwise, and the file
// stays refused as unexpanded. A YAML that names a joint or link the xacro
// would have made still fails its cross-check. read are the findings with
// the xacro error, at xacroAt.
func withoutXacro(path string, p *positions, root *node, read diag.List, xacroAt diag.Pos) (*Robot, diag.List, bool) {
	var l diag.List
	for _, f := range read {
		if f.Pos == xacroAt && f.Message == xacroMsg {
			continue
		}
		l = append(l, f)
	}
	before := l.Errors()
	forgetXacro(root)
	r := newRobot(path)
	b := &builder{r: r, l: &l, p: p}
	b.robot(root)
	if l.Errors() > before {
		return nil, nil, false
	}
	l.Warnf(xacroAt, xacroSkipped)
	return r, l, true
}

// builder fills a Robot from the element tree and reports what is wrong.
type builder struct {
	r *Robot
	l *diag.List
	p *positions

	// Where references were written, to point at them once every name is
	// known.
	mimics      []mimicRef
	topSensors  []sensorRef
	sensorNames []sensorName
}

type sensorName struct {
	s   *Sensor
	pos diag.Pos // the name attribute
}

type mimicRef struct {
	j   *Joint
	pos diag.Pos // the joint attribute, or the <mimic> element
}

type sensorRef struct {
	s     *Sensor
	subj  string
	attr  string // "link" or "joint"
	value string
	pos   diag.Pos
}

// at returns the position of a byte offset, for a finding or a Pos field.
func (b *builder) at(off int) diag.Pos { return b.p.at(off) }

// label names a link, joint or sensor in messages.
func label(kind, name string) string {
	if name == "" {
		return "unnamed " + kind
	}
	return kind + " " + strconv.Quote(name)
}

func (b *builder) robot(n *node) {
	r := b.r
	r.Pos = b.at(n.off)
	if a := n.attr("name"); a == nil {
		b.l.Errorf(b.at(n.off), `<robot> has no "name" attribute`)
	} else if strings.TrimSpace(a.value) == "" {
		b.l.Errorf(b.at(a.off), `<robot> has an empty "name"`)
	} else {
		r.Name = a.value
	}
	b.version(n)
	materials := map[string]*node{}
	var ignored []ignoredSensor
	for _, k := range n.kids {
		switch k.name {
		case "link":
			b.link(k)
		case "joint":
			b.joint(k)
		case "material":
			b.material(k, materials)
		case "sensor":
			if foreign, why := foreignSensor(k); foreign {
				name := ""
				if a := k.attr("name"); a != nil {
					name = a.value
				}
				ignored = append(ignored, ignoredSensor{name: name, why: why, pos: b.at(k.off)})
				typ := ""
				if a := k.attr("type"); a != nil {
					typ = a.value
				}
				r.Foreign = append(r.Foreign, &Sensor{Name: name, Type: typ, Pos: b.at(k.off), Place: TopLevel})
				continue
			}
			s := b.sensor(k, TopLevel, "")
			b.sensorParent(k, s)
		}
	}
	b.ignored(ignored)
	subj := "<robot>"
	if r.Name != "" {
		subj = label("robot", r.Name)
	}
	if n.xacro {
		// xacro macros left in the file would add links and joints: the
		// tree and the names it refers to cannot be judged.
		real := b.l
		b.l = new(diag.List)
		defer func() { b.l = real }()
	}
	if len(r.Links) == 0 {
		b.l.Errorf(b.at(n.off), "%s has no <link>", subj)
	}
	b.resolve()
	b.tree(subj)
}

// name reads the name attribute of a link, joint or sensor element.
func (b *builder) name(n *node, kind string) (string, diag.Pos) {
	a := n.attr("name")
	if a == nil {
		b.l.Errorf(b.at(n.off), `<%s> has no "name" attribute`, kind)
		return "", b.at(n.off)
	}
	if strings.TrimSpace(a.value) == "" {
		b.l.Errorf(b.at(a.off), `<%s> has an empty "name"`, kind)
		return "", b.at(a.off)
	}
	return a.value, b.at(a.off)
}

// first returns n's first child called name, warning about any more.
func (b *builder) first(subj string, n *node, name string) *node {
	var found *node
	for _, k := range n.kids {
		if k.name != name {
			continue
		}
		if found == nil {
			found = k
		} else {
			b.l.Warnf(b.at(k.off), "%s: more than one <%s>; only the first is used", subj, name)
		}
	}
	return found
}

var supportedTypes = []string{string(Revolute), string(Continuous), string(Prismatic), string(Fixed)}

func (b *builder) joint(n *node) {
	r := b.r
	j := &Joint{Pos: b.at(n.off), TypePos: b.at(n.off), ParentPos: b.at(n.off), ChildPos: b.at(n.off), Axis: Vec3{1, 0, 0}}
	var namePos diag.Pos
	j.Name, namePos = b.name(n, "joint")
	r.Joints = append(r.Joints, j)
	subj := label("joint", j.Name)
	if j.Name != "" {
		if first := r.joints[j.Name]; first != nil {
			b.l.Errorf(namePos, "%s: duplicate name, first declared at line %d", subj, first.Pos.Line)
		} else {
			r.joints[j.Name] = j
		}
	}

	if a := n.attr("type"); a == nil {
		b.l.Errorf(b.at(n.off), `%s has no "type" attribute`, subj)
	} else {
		j.Type, j.TypePos = JointType(a.value), b.at(a.off)
		switch j.Type {
		case Revolute, Continuous, Prismatic, Fixed:
		case Floating, Planar:
			b.l.Errorf(b.at(a.off), "%s: type %q is not supported: frcd drives and measures 1-DoF joints only (revolute, continuous, prismatic; fixed for rigid mounts)", subj, a.value)
		default:
			b.l.Errorf(b.at(a.off), "%s: unknown type %q%s", subj, a.value, diag.DidYouMean(a.value, supportedTypes))
		}
	}
	oneDoF := j.Type == Revolute || j.Type == Continuous || j.Type == Prismatic

	j.Parent, j.ParentPos = b.jointLink(subj, n, "parent")
	j.Child, j.ChildPos = b.jointLink(subj, n, "child")
	j.Origin = b.pose(subj, n)

	if ax := b.first(subj, n, "axis"); ax != nil {
		var a *attr
		j.Axis, a = b.vec3(subj, ax, "xyz", Vec3{1, 0, 0})
		if a != nil && oneDoF {
			norm := math.Sqrt(j.Axis[0]*j.Axis[0] + j.Axis[1]*j.Axis[1] + j.Axis[2]*j.Axis[2])
			switch {
			case norm == 0:
				b.l.Errorf(b.at(a.off), "%s: <axis> xyz is the zero vector", subj)
			case math.Abs(norm-1) > 1e-3:
				b.l.Warnf(b.at(a.off), "%s: <axis> xyz %q is not a unit vector (length %.4g)", subj, a.value, norm)
			}
		}
	}

	if lim := b.first(subj, n, "limit"); lim != nil {
		j.Limit = b.limit(subj, j, lim)
	} else if (j.Type == Revolute || j.Type == Prismatic) && !n.xacro {
		b.l.Errorf(b.at(n.off), "%s: a %s joint needs a <limit> with effort and velocity", subj, j.Type)
	}

	if m := b.first(subj, n, "mimic"); m != nil {
		j.Mimic = &Mimic{Multiplier: 1, Pos: b.at(m.off)}
		ref := mimicRef{j: j, pos: b.at(m.off)}
		if a := m.attr("joint"); a == nil {
			b.l.Errorf(b.at(m.off), `%s: <mimic> has no "joint" attribute`, subj)
		} else {
			j.Mimic.Joint, ref.pos = a.value, b.at(a.off)
			b.mimics = append(b.mimics, ref)
		}
		j.Mimic.Multiplier, _ = b.float(subj, m, "multiplier", 1)
		j.Mimic.Offset, _ = b.float(subj, m, "offset", 0)
	}

	if d := b.first(subj, n, "dynamics"); d != nil {
		j.Dynamics = &Dynamics{}
		if d.attr("damping") == nil && d.attr("friction") == nil && !d.xacro {
			b.l.Errorf(b.at(d.off), `%s: <dynamics> has neither "damping" nor "friction"`, subj)
		}
		j.Dynamics.Damping, _ = b.float(subj, d, "damping", 0)
		j.Dynamics.Friction, _ = b.float(subj, d, "friction", 0)
	}

	if sc := b.first(subj, n, "safety_controller"); sc != nil {
		j.Safety = &SafetyController{}
		b.requireAttrs(subj, sc, "k_velocity")
		j.Safety.SoftLower, _ = b.float(subj, sc, "soft_lower_limit", 0)
		j.Safety.SoftUpper, _ = b.float(subj, sc, "soft_upper_limit", 0)
		j.Safety.KPosition, _ = b.float(subj, sc, "k_position", 0)
		j.Safety.KVelocity, _ = b.float(subj, sc, "k_velocity", 0)
	}

	if c := b.first(subj, n, "calibration"); c != nil {
		b.float(subj, c, "rising", 0)
		b.float(subj, c, "falling", 0)
	}

	for _, k := range n.kids {
		if k.name != "sensor" {
			continue
		}
		s := b.sensor(k, InJoint, j.Name)
		s.Joint = j.Name
		j.Sensors = append(j.Sensors, s)
		if j.Type == Fixed {
			b.l.Warnf(s.Pos, "%s: %s is fixed; a fixed joint should carry no sensor, as nothing moves", label("sensor", s.Name), subj)
		}
	}
}

// jointLink reads a joint's <parent> or <child>: exactly one, with a link.
func (b *builder) jointLink(subj string, n *node, which string) (string, diag.Pos) {
	var found *node
	for _, k := range n.kids {
		if k.name != which {
			continue
		}
		if found != nil {
			b.l.Errorf(b.at(k.off), "%s has more than one <%s>", subj, which)
			continue
		}
		found = k
	}
	if found == nil {
		if !n.xacro {
			b.l.Errorf(b.at(n.off), `%s has no <%s link="..."/>`, subj, which)
		}
		return "", b.at(n.off)
	}
	a := found.attr("link")
	if a == nil {
		b.l.Errorf(b.at(found.off), `%s: <%s> has no "link" attribute`, subj, which)
		return "", b.at(found.off)
	}
	if strings.TrimSpace(a.value) == "" {
		b.l.Errorf(b.at(a.off), `%s: <%s> has an empty "link"`, subj, which)
		return "", b.at(a.off)
	}
	return a.value, b.at(a.off)
}

func (b *builder) limit(subj string, j *Joint, n *node) *Limit {
	lim := &Limit{Pos: b.at(n.off)}
	var lower, upper, effort, velocity *attr
	lim.Lower, lower = b.float(subj, n, "lower", 0)
	lim.Upper, upper = b.float(subj, n, "upper", 0)
	lim.Effort, effort = b.float(subj, n, "effort", 0)
	lim.Velocity, velocity = b.float(subj, n, "velocity", 0)
	if effort == nil {
		if !n.xacro {
			b.l.Errorf(b.at(n.off), `%s: <limit> has no "effort" attribute`, subj)
		}
	} else if lim.Effort < 0 {
		b.l.Errorf(b.at(effort.off), "%s: <limit> effort %g is negative", subj, lim.Effort)
	}
	if velocity == nil {
		if !n.xacro {
			b.l.Errorf(b.at(n.off), `%s: <limit> has no "velocity" attribute`, subj)
		}
	} else if lim.Velocity < 0 {
		b.l.Errorf(b.at(velocity.off), "%s: <limit> velocity %g is negative", subj, lim.Velocity)
	}
	if (j.Type == Revolute || j.Type == Prismatic) && lim.Lower > lim.Upper {
		pos := b.at(n.off)
		switch {
		case lower != nil:
			pos = b.at(lower.off)
		case upper != nil:
			pos = b.at(upper.off)
		}
		b.l.Errorf(pos, "%s: <limit> lower %g is greater than upper %g", subj, lim.Lower, lim.Upper)
	}
	if j.Type == Revolute {
		b.degrees(subj, n, lim, lower, upper, velocity)
	}
	return lim
}

// A revolute joint's limits and velocity look like degrees rather than
// radians when a limit is beyond two turns either way (an arm's -17..103;
// a robot arm's ±400° wrist is ±6.98 rad, inside), or the velocity is
// more than 30 turns a second but at most 10 turns a second read as
// degrees (an arm's 230°/s written as 230 rad/s; the placeholders 100,
// 10000 and 50000 of real URDFs pass). A joint that turns so far or so
// fast is continuous, as a wheel or a flywheel.
const (
	degreeTurn     = 4 * math.Pi
	degreeSpeed    = 30 * 2 * math.Pi
	degreeSpeedMax = 10 * 360
)

// degrees warns of a revolute joint's limits and velocity that look like
// degrees, with the radians they would be.
func (b *builder) degrees(subj string, n *node, lim *Limit, lower, upper, velocity *attr) {
	rad := func(v float64) float64 { return v * math.Pi / 180 }
	if math.Abs(lim.Lower) > degreeTurn || math.Abs(lim.Upper) > degreeTurn {
		pos := b.at(n.off)
		switch {
		case math.Abs(lim.Lower) > degreeTurn && lower != nil:
			pos = b.at(lower.off)
		case upper != nil:
			pos = b.at(upper.off)
		}
		b.l.Warnf(pos, `%s: <limit> lower %g, upper %g are beyond two turns (±%.4g rad): URDF limits are in radians, so these look like degrees; in radians write lower="%.4g" upper="%.4g"`,
			subj, lim.Lower, lim.Upper, degreeTurn, rad(lim.Lower), rad(lim.Upper))
	}
	if velocity != nil && lim.Velocity > degreeSpeed && lim.Velocity <= degreeSpeedMax {
		b.l.Warnf(b.at(velocity.off), `%s: <limit> velocity %g rad/s is more than 30 turns a second for a joint with limits: URDF velocities are in rad/s, so this looks like degrees a second; in rad/s write velocity="%.4g"`,
			subj, lim.Velocity, rad(lim.Velocity))
	}
}

// sensor reads a <sensor> and registers its name.
func (b *builder) sensor(n *node, place SensorPlace, owner string) *Sensor {
	r := b.r
	s := &Sensor{Pos: b.at(n.off), Place: place}
	var namePos diag.Pos
	s.Name, namePos = b.name(n, "sensor")
	if a := n.attr("type"); a != nil {
		s.Type = a.value
	}
	r.Sensors = append(r.Sensors, s)
	if s.Name != "" {
		b.sensorNames = append(b.sensorNames, sensorName{s, namePos})
		if first := r.sensors[s.Name]; first != nil {
			b.l.Errorf(namePos, "%s: duplicate name, first declared at line %d", label("sensor", s.Name), first.Pos.Line)
		} else {
			r.sensors[s.Name] = s
		}
	}
	return s
}

// sensorParent reads a robot-level sensor's <parent link|joint>.
func (b *builder) sensorParent(n *node, s *Sensor) {
	subj := label("sensor", s.Name)
	var found *node
	for _, k := range n.kids {
		if k.name != "parent" {
			continue
		}
		if found != nil {
			b.l.Errorf(b.at(k.off), "%s has more than one <parent>", subj)
			continue
		}
		found = k
	}
	if found == nil {
		b.l.Errorf(b.at(n.off), `%s has no <parent link="..."/> or <parent joint="..."/>`, subj)
		return
	}
	la, ja := found.attr("link"), found.attr("joint")
	switch {
	case la != nil && ja != nil:
		b.l.Errorf(b.at(found.off), `%s: <parent> has both "link" and "joint"; a sensor sits in a link or measures a joint, not both`, subj)
	case la == nil && ja == nil:
		b.l.Errorf(b.at(found.off), `%s: <parent> has no "link" or "joint" attribute`, subj)
	default:
		a, kind := la, "link"
		if ja != nil {
			a, kind = ja, "joint"
		}
		if strings.TrimSpace(a.value) == "" {
			b.l.Errorf(b.at(a.off), `%s: <parent> has an empty %q`, subj, kind)
			return
		}
		b.topSensors = append(b.topSensors, sensorRef{s: s, subj: subj, attr: kind, value: a.value, pos: b.at(a.off)})
	}
}
