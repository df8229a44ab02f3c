package config

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// frc_control, the project frcd follows, wrote its robot files for ROS's
// parameter server, in forms frcd reads as they are written, each with one
// note naming frcd's own form (which `frcd migrate` writes):
//
//   - the device list under one namespace key, as a rosparam file loads it
//     into a node's namespace (`frc_robot_hw_real: joints: ...`);
//   - `joints:` as a mapping of names to entries, as frc_control's loader
//     reads it, rather than a list of {name: ..., type: ...};
//   - frc_control's type names (can_talon_srx for talon_srx);
//   - position_gains, velocity_gains and effort_gains on a speed controller:
//     each becomes the matching PID controller, as if declared under
//     `controllers:`;
//   - ros_control's controllers at the top level of the file, rather than
//     under `controllers:`.
//
// The rewriting is of the YAML tree, before decoding: positions, comments
// and anchors stay on the nodes they came with.

// gainsControllers are the speed controller keys of frc_control's PID
// gains, and the controller each becomes.
var gainsControllers = []struct{ key, typ, suffix string }{
	{"position_gains", JointPositionController, "position_controller"},
	{"velocity_gains", JointVelocityController, "velocity_controller"},
	{"effort_gains", JointEffortController, "effort_controller"},
}

// canonicalize rewrites frc_control's forms in root (a resolved mapping)
// into frcd's, noting each form once, and returns the new root.
func (p *parser) canonicalize(root *yaml.Node) *yaml.Node {
	root = p.unnest(root)
	root = p.topLevelControllers(root)
	i := keyIndex(root, "joints")
	if i < 0 {
		return root
	}
	joints := resolve(root.Content[i+1])
	if joints.Kind == yaml.MappingNode {
		joints = p.jointsList(root.Content[i], joints)
		root.Content[i+1] = joints
	}
	if joints.Kind != yaml.SequenceNode {
		return root
	}
	var c canonEntries
	for _, e := range joints.Content {
		p.canonEntry(resolve(e), &c)
	}
	if len(c.added) > 0 {
		root = p.addControllers(root, c.added)
	}
	return root
}

// canonEntries is what canonEntry carries from one `joints:` entry to the
// next: the notes already given and the controllers to add.
type canonEntries struct {
	aliasNoted map[string]bool
	gainsNoted bool
	added      []*yaml.Node // key, value pairs of new controllers
}

// canonEntry rewrites one `joints:` entry (resolved) in frcd's form: its
// type's frc_control name, its *_gains as controllers (added to c).
func (p *parser) canonEntry(e *yaml.Node, c *canonEntries) {
	if c.aliasNoted == nil {
		c.aliasNoted = map[string]bool{}
	}
	if e.Kind != yaml.MappingNode {
		return
	}
	name, typ := scalarOf(e, "name"), valueOf(e, "type")
	if typ != nil && typ.Kind == yaml.ScalarNode {
		if t, ok := aliases[typ.Value]; ok {
			canon := t.Name
			if !c.aliasNoted[typ.Value] {
				c.aliasNoted[typ.Value] = true
				p.list.Notef(p.pos(typ), "type %s is frc_control's name for %s: read as %s (frcd migrate writes it so)", typ.Value, canon, canon)
			}
			typ.Value = canon
		}
	}
	var speed bool
	if typ != nil {
		t := Lookup(typ.Value)
		speed = t != nil && t.Speed
	}
	for _, g := range gainsControllers {
		k := keyIndex(e, g.key)
		if k < 0 || !speed || name == "" {
			continue // not a speed controller's: decoding reports the key
		}
		key, gains := e.Content[k], e.Content[k+1]
		e.Content = append(e.Content[:k:k], e.Content[k+2:]...)
		ctl := name + "_" + g.suffix
		if !c.gainsNoted {
			c.gainsNoted = true
			p.list.Notef(p.pos(key), "%s on %q is frc_control's form of a PID controller: read as controller %s (%s) under controllers:, and so for every *_gains (frcd migrate writes it so)",
				g.key, name, ctl, g.typ)
		}
		at := key
		c.added = append(c.added, scalar(ctl, at), mapping(at,
			scalar("type", at), scalar(g.typ, at),
			scalar("joint", at), scalar(name, at),
			scalar("pid", at), gains))
	}
}

// unnest lifts a device list written under one namespace key
// (`frc_robot_hw_real: joints: ...`) to the top level.
func (p *parser) unnest(root *yaml.Node) *yaml.Node {
	if keyIndex(root, "joints") >= 0 {
		return root
	}
	var found []int // key indexes of namespaces holding joints:
	for i := 0; i+1 < len(root.Content); i += 2 {
		if v := resolve(root.Content[i+1]); v.Kind == yaml.MappingNode && keyIndex(v, "joints") >= 0 {
			found = append(found, i)
		}
	}
	if len(found) == 0 {
		return root
	}
	first := resolve(root.Content[found[0]+1])
	list := resolve(first.Content[keyIndex(first, "joints")+1])
	for _, i := range found[1:] {
		v := resolve(root.Content[i+1])
		if resolve(v.Content[keyIndex(v, "joints")+1]) != list {
			k := root.Content[i]
			p.list.Errorf(p.pos(k), "%s: a second device list (the first is under %s, line %d): frcd reads one; keep one namespace",
				k.Value, root.Content[found[0]].Value, root.Content[found[0]].Line)
		}
	}
	ns := root.Content[found[0]]
	p.list.Notef(p.pos(ns), "the device list is under the namespace %q, as frc_control's rosparam file has it: read as if at the top level (frcd migrate writes it so)", ns.Value)
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: root.Line, Column: root.Column,
		HeadComment: root.HeadComment, FootComment: root.FootComment}
	for i := 0; i+1 < len(root.Content); i += 2 {
		switch {
		case i == found[0]:
			// The namespace's own keys, in its place.
			out.Content = append(out.Content, first.Content...)
			if len(first.Content) > 0 && first.Content[0].HeadComment == "" {
				first.Content[0].HeadComment = ns.HeadComment
			}
		case slices.Contains(found, i):
			// Another name for the same list (frc_robot_hw_sim: joints: *joints).
		default:
			out.Content = append(out.Content, root.Content[i], root.Content[i+1])
		}
	}
	return out
}

// topLevelControllers moves ros_control's controllers written at the top
// level (a key whose value has a type with a slash) under controllers:.
func (p *parser) topLevelControllers(root *yaml.Node) *yaml.Node {
	var moved []*yaml.Node
	out := &yaml.Node{Kind: root.Kind, Tag: root.Tag, Line: root.Line, Column: root.Column,
		HeadComment: root.HeadComment, FootComment: root.FootComment}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], resolve(root.Content[i+1])
		if k.Kind == yaml.ScalarNode && !slices.Contains(sections, k.Value) && !strings.HasPrefix(k.Value, "x-") && v.Kind == yaml.MappingNode {
			if t := valueOf(v, "type"); t != nil && t.Kind == yaml.ScalarNode && strings.Contains(t.Value, "/") {
				if len(moved) == 0 {
					p.list.Notef(p.pos(k), "controller %q is at the top level, as ros_control's rosparam file has it: read as if under controllers: (frcd migrate writes it so)", k.Value)
				}
				moved = append(moved, k, root.Content[i+1])
				continue
			}
		}
		out.Content = append(out.Content, root.Content[i], root.Content[i+1])
	}
	if len(moved) == 0 {
		return root
	}
	return p.addControllers(out, moved)
}

// addControllers adds controllers (name, entry pairs) to root's
// controllers: section, making one when there is none.
func (p *parser) addControllers(root *yaml.Node, pairs []*yaml.Node) *yaml.Node {
	i := keyIndex(root, "controllers")
	if i < 0 {
		at := pairs[0]
		root.Content = append(root.Content, scalar("controllers", at), mapping(at, pairs...))
		return root
	}
	c := resolve(root.Content[i+1])
	switch {
	case c.Kind == yaml.MappingNode:
		c.Content = append(c.Content, pairs...)
	case c.Kind == yaml.SequenceNode:
		for j := 0; j+1 < len(pairs); j += 2 {
			e := resolve(pairs[j+1])
			c.Content = append(c.Content, mapping(e, append([]*yaml.Node{scalar("name", pairs[j]), pairs[j]}, e.Content...)...))
		}
	case c.Kind == yaml.ScalarNode && c.Tag == "!!null":
		root.Content[i+1] = mapping(pairs[0], pairs...)
	default:
		// Decoding reports what controllers: holds; these cannot join it.
		p.list.Errorf(p.pos(pairs[0]), "controller %q cannot join `controllers:`, which is %s", pairs[0].Value, describeNode(c))
	}
	return root
}

// jointsList turns frc_control's `joints:` mapping of names to entries into
// frcd's list, each entry with its name first.
func (p *parser) jointsList(key, m *yaml.Node) *yaml.Node {
	p.list.Notef(p.pos(key), "`joints:` is a mapping of names to devices, as frc_control's loader reads it: read as the list of {name: ..., type: ...} frcd writes (frcd migrate writes it so)")
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: m.Line, Column: m.Column,
		HeadComment: m.HeadComment, LineComment: m.LineComment, FootComment: m.FootComment}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		rv := resolve(v)
		if rv.Kind != yaml.MappingNode {
			seq.Content = append(seq.Content, v) // decoding reports it
			continue
		}
		if j := keyIndex(rv, "name"); j >= 0 {
			p.list.Errorf(p.pos(rv.Content[j]), "device %q: takes its name from its key; drop \"name\"", k.Value)
			seq.Content = append(seq.Content, rv)
			continue
		}
		name := scalar("name", k)
		name.HeadComment, k.HeadComment = k.HeadComment, "" // above the entry; the line comment stays on the name
		e := mapping(rv, append([]*yaml.Node{name, k}, rv.Content...)...)
		e.Style, e.HeadComment, e.LineComment, e.FootComment = rv.Style, rv.HeadComment, rv.LineComment, rv.FootComment
		seq.Content = append(seq.Content, e)
	}
	return seq
}

// keyIndex is the index in m.Content of the key called name, or -1.
func keyIndex(m *yaml.Node, name string) int {
	if m == nil || m.Kind != yaml.MappingNode {
		return -1
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == name {
			return i
		}
	}
	return -1
}

// valueOf is the resolved value of m's key name, or nil.
func valueOf(m *yaml.Node, name string) *yaml.Node {
	if i := keyIndex(m, name); i >= 0 {
		return resolve(m.Content[i+1])
	}
	return nil
}

// scalarOf is the string value of m's key name, or "".
func scalarOf(m *yaml.Node, name string) string {
	if v := valueOf(m, name); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

// scalar makes a string node at at's position.
func scalar(s string, at *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Line: at.Line, Column: at.Column}
}

// mapping makes a mapping node of the pairs at at's position.
func mapping(at *yaml.Node, pairs ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: at.Line, Column: at.Column, Content: pairs}
}
