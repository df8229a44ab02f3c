package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/frcd/frcd/diag"
)

// File is a decoded robot YAML file.
type File struct {
	Path string
	// Devices is the `joints:` list in file order. Entries whose type is
	// unknown are kept (Type nil) so that their names can still be checked.
	Devices []*Device
	byName  map[string]*Device
	// Loop is the `loop:` section, with defaults when it is absent.
	Loop *Device
	// Controllers is the `controllers:` list in file order.
	Controllers []*Device
	// Sim is the `sim:` section's own keys, with defaults when absent;
	// SimJoints its `joints:` list, SimSensors its `sensors:` list,
	// SimDisturbances its `disturbances:` list and SimDrivetrain its
	// `drivetrain:` mapping, nil when absent.
	Sim             *Device
	SimJoints       []*Device
	SimSensors      []*Device
	SimDisturbances []*Device
	SimDrivetrain   *Device
	// SimCANFaults is the `sim:` section's `can_faults:` list.
	SimCANFaults []*Device
	// Linux is the `linux:` section, with defaults when absent (its
	// Pos.Line is then 0).
	Linux *Device
	// Unreadable is set when the file could not be read whole (empty, not
	// text, invalid YAML, no `joints:` list): cross-checks against it would
	// only echo that one finding.
	Unreadable bool
}

// Device returns the device of that name, or nil.
func (f *File) Device(name string) *Device { return f.byName[name] }

// Controller returns the controller of that name, or nil.
func (f *File) Controller(name string) *Device {
	for _, c := range f.Controllers {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Names returns the devices' names in file order.
func (f *File) Names() []string {
	names := make([]string, 0, len(f.Devices))
	for _, d := range f.Devices {
		names = append(names, d.Name)
	}
	return names
}

// sections are the top-level keys of the file.
var sections = []string{"joints", "loop", "controllers", "sim", "linux"}

// Parse decodes and checks a robot YAML file. It returns every finding at
// once; f is never nil, and holds every entry that could be decoded. Parse
// does not panic on any input.
func Parse(path string, data []byte) (f *File, list diag.List) {
	f = &File{Path: path, byName: map[string]*Device{}}
	defer func() {
		if r := recover(); r != nil {
			f.Unreadable = true
			list.Errorf(diag.Pos{File: path, Line: 1, Col: 1}, "the YAML parser failed on this file: %v", r)
		}
	}()
	p := &parser{file: f, path: path, list: &list}
	f.Unreadable = !p.parse(data)
	return f, list
}

type parser struct {
	file *File
	path string
	list *diag.List
}

func (p *parser) pos(n *yaml.Node) diag.Pos {
	return diag.Pos{File: p.path, Line: n.Line, Col: n.Column}
}

var yamlErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parse reports whether the file could be read whole.
func (p *parser) parse(data []byte) bool {
	start := diag.Pos{File: p.path, Line: 1, Col: 1}
	if len(bytes.TrimSpace(data)) == 0 {
		p.list.Errorf(start, "empty file: expected a `joints:` list of devices")
		return false
	}
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		p.list.Errorf(start, "not a text file: a robot YAML file is UTF-8 text")
		return false
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			p.list.Errorf(start, "empty file: expected a `joints:` list of devices")
		} else {
			p.syntaxError(err)
		}
		return false
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		p.list.Errorf(p.pos(&extra), "a second YAML document: frcd reads one document per file")
	} else if !errors.Is(err, io.EOF) {
		p.syntaxError(err)
		return false
	}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			p.list.Errorf(start, "empty file: expected a `joints:` list of devices")
			return false
		}
		root = root.Content[0]
	}
	root = resolve(root)
	if root.Kind != yaml.MappingNode {
		p.list.Errorf(p.pos(root), "the file must be a mapping with a `joints:` list, not %s", describeNode(root))
		return false
	}
	root = p.canonicalize(root) // frc_control's forms (frccontrol.go)
	var joints, controllers, loop, sim, linux *yaml.Node
	p.mapping(root, func(key string, k, v *yaml.Node) {
		switch key {
		case "joints":
			joints = v
		case "controllers":
			controllers = v
		case "loop":
			loop = v
		case "sim":
			sim = v
		case "linux":
			linux = v
		default:
			if strings.HasPrefix(key, "x-") {
				return // a place for YAML anchors, as in docker-compose files
			}
			p.list.Errorf(p.pos(k), "unknown section %q%s; known sections: %s", key, diag.DidYouMean(key, sections), strings.Join(sections, ", "))
		}
	})
	if joints == nil {
		p.list.Errorf(p.pos(root), "no `joints:` list: every robot file lists its devices under `joints:`")
		return false
	}
	p.joints(joints)
	p.file.Loop = p.section("loop", Loop, loop)
	p.file.Controllers = p.listSection("controllers", controllers, controllerKind)
	p.simSection(sim)
	p.file.Linux = p.section("linux", Linux, linux)
	p.resolveCANBuses()
	p.checkFile()
	return true
}

// entryKind says how the entries of a list section are decoded.
type entryKind struct {
	what   string              // "device", "controller"...
	typed  bool                // entries carry `type`; else every entry is of fixed
	fixed  *Type               // the entries' type when not typed
	lookup func(string) *Type  // typed entries: the type of a name
	names  func() []string     // typed entries: every type name, for did-you-mean
	byKey  bool                // the section may also be a mapping of names to entries
	hint   func(string) string // typed entries: a hint for an unknown type, when did-you-mean has none
}

var (
	deviceKind     = entryKind{what: "device", typed: true, lookup: Lookup, names: TypeNames}
	controllerKind = entryKind{what: "controller", typed: true, lookup: LookupController, names: ControllerTypeNames, byKey: true, hint: controllerHint}
	simJointKind   = entryKind{what: "sim joint", fixed: SimJoint}
	simSensorKind  = entryKind{what: "sim sensor", fixed: SimSensor}
	disturbKind    = entryKind{what: "sim disturbance", fixed: SimDisturbance}
	canFaultKind   = entryKind{what: "sim CAN fault", fixed: SimCANFault}
)

// list decodes a list section; n may be nil (the section is absent).
func (p *parser) listSection(section string, n *yaml.Node, kind entryKind) []*Device {
	if n == nil {
		return nil
	}
	var out []*Device
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null":
	case n.Kind == yaml.SequenceNode:
		for i, e := range n.Content {
			if d := p.entry(i, resolve(e), kind, nil); d != nil {
				out = append(out, d)
			}
		}
	case n.Kind == yaml.MappingNode && kind.byKey:
		// ros_control's style: each entry under its name.
		i := 0
		p.mapping(n, func(_ string, k, v *yaml.Node) {
			if d := p.entry(i, v, kind, resolve(k)); d != nil {
				out = append(out, d)
			}
			i++
		})
	case kind.byKey:
		p.list.Errorf(p.pos(n), "`%s:` must be a list, or a mapping of names to entries, not %s", section, describeNode(n))
	default:
		p.list.Errorf(p.pos(n), "`%s:` must be a list, not %s", section, describeNode(n))
	}
	return out
}

// section decodes a mapping section against one type; n may be nil (the
// section is absent: every key takes its default). skip lists keys that
// hold nested sections, decoded by the caller.
func (p *parser) section(name string, t *Type, n *yaml.Node, skip ...string) *Device {
	d := &Device{Name: name, TypeName: name, Type: t, values: map[string]Value{}, refs: map[string]*Device{}}
	if n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
		p.defaults(d, name, map[string]bool{})
		return d
	}
	d.Pos = p.pos(n)
	if n.Kind != yaml.MappingNode {
		p.list.Errorf(p.pos(n), "`%s:` must be a mapping of keys, not %s", name, describeNode(n))
		p.defaults(d, name, map[string]bool{})
		return d
	}
	var rest []keyNode
	p.mapping(n, func(key string, k, v *yaml.Node) {
		if contains(skip, key) {
			return
		}
		rest = append(rest, keyNode{key, k, v})
	})
	p.keys(d, name, rest)
	return d
}

func (p *parser) simSection(n *yaml.Node) {
	p.file.Sim = p.section("sim", Sim, n, "joints", "sensors", "disturbances", "drivetrain", "can_faults")
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	p.mapping(n, func(key string, k, v *yaml.Node) {
		switch key {
		case "joints":
			p.file.SimJoints = p.listSection("sim: joints", v, simJointKind)
		case "sensors":
			p.file.SimSensors = p.listSection("sim: sensors", v, simSensorKind)
		case "disturbances":
			p.file.SimDisturbances = p.listSection("sim: disturbances", v, disturbKind)
		case "can_faults":
			p.file.SimCANFaults = p.listSection("sim: can_faults", v, canFaultKind)
		case "drivetrain":
			switch {
			case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
				return
			case v.Kind != yaml.MappingNode:
				p.list.Errorf(p.pos(v), "`sim: drivetrain:` must be a mapping of keys, not %s", describeNode(v))
				return
			}
			d := p.section("sim: drivetrain", SimDrivetrain, v)
			d.kind = sectionKind
			p.file.SimDrivetrain = d
		}
	})
}

func (p *parser) syntaxError(err error) {
	msg := err.Error()
	pos := diag.Pos{File: p.path, Line: 1, Col: 1}
	if m := yamlErrLine.FindStringSubmatch(msg); m != nil {
		msg = m[2]
		if n, e := strconv.Atoi(m[1]); e == nil && n > 0 {
			pos.Line = n
			if parserError(msg) {
				pos.Line++
			}
		}
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	p.list.Errorf(pos, "invalid YAML: %s", msg)
}

// parserError tells yaml.v3's parser errors from its scanner errors by
// their text: yaml.v3 numbers a parser error's line from 0 (the line of the
// construct that failed, e.g. the unclosed '{') and a scanner error's from
// 1, and omits a line of 0 altogether.
func parserError(msg string) bool {
	if !strings.HasPrefix(msg, "did not find expected ") {
		return false
	}
	switch strings.TrimPrefix(msg, "did not find expected ") {
	case "alphabetic or numeric character", "whitespace or line break", "comment or line break":
		return false // scanner errors
	}
	return true
}

// resolve follows aliases.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "nothing"
		case "!!str":
			return fmt.Sprintf("the string %q", n.Value)
		case "!!int":
			return "the integer " + n.Value
		case "!!float":
			return "the number " + n.Value
		case "!!bool":
			return n.Value
		}
		return fmt.Sprintf("a value tagged %s (%q)", n.Tag, n.Value)
	}
	return "an alias"
}

// mapping walks a mapping's pairs in order, expanding `<<` merge keys, and
// reports duplicate keys and non-string keys. Keys written in the mapping
// win over merged ones, as YAML says.
func (p *parser) mapping(m *yaml.Node, fn func(key string, k, v *yaml.Node)) {
	seen := map[string]*yaml.Node{}
	type pair struct{ k, v *yaml.Node }
	var own, merged []pair
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			p.merge(resolve(v), func(mk, mv *yaml.Node) { merged = append(merged, pair{mk, mv}) }, 0)
			continue
		}
		own = append(own, pair{k, v})
	}
	for _, kv := range own {
		k := resolve(kv.k)
		if k.Kind != yaml.ScalarNode || k.Tag == "!!null" {
			p.list.Errorf(p.pos(kv.k), "a key must be a name, not %s", describeNode(k))
			continue
		}
		if first, dup := seen[k.Value]; dup {
			p.list.Errorf(p.pos(kv.k), "duplicate key %q (first at line %d)", k.Value, first.Line)
			continue
		}
		seen[k.Value] = kv.k
		fn(k.Value, kv.k, resolve(kv.v))
	}
	for _, kv := range merged {
		k := resolve(kv.k)
		if k.Kind != yaml.ScalarNode {
			continue
		}
		if _, dup := seen[k.Value]; dup {
			continue
		}
		seen[k.Value] = kv.k
		fn(k.Value, kv.k, resolve(kv.v))
	}
}

func (p *parser) merge(v *yaml.Node, fn func(k, v *yaml.Node), depth int) {
	if depth > 10 {
		return
	}
	switch v.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(v.Content); i += 2 {
			k := v.Content[i]
			if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
				p.merge(resolve(v.Content[i+1]), fn, depth+1)
				continue
			}
			fn(k, v.Content[i+1])
		}
	case yaml.SequenceNode:
		for _, e := range v.Content {
			p.merge(resolve(e), fn, depth+1)
		}
	default:
		p.list.Errorf(p.pos(v), "a `<<` merge takes a mapping or a list of mappings, not %s", describeNode(v))
	}
}

func (p *parser) joints(seq *yaml.Node) {
	if seq.Kind != yaml.SequenceNode {
		p.list.Errorf(p.pos(seq), "`joints:` must be a list of devices, not %s", describeNode(seq))
		return
	}
	if len(seq.Content) == 0 {
		p.list.Warnf(p.pos(seq), "`joints:` lists no devices")
	}
	for i, e := range seq.Content {
		if d := p.entry(i, resolve(e), deviceKind, nil); d != nil {
			p.file.Devices = append(p.file.Devices, d)
		}
	}
}

type keyNode struct {
	key  string
	k, v *yaml.Node
}

// entry decodes one entry of a list section. It returns nil only when the
// entry is not a mapping at all.
func (p *parser) entry(index int, n *yaml.Node, kind entryKind, name *yaml.Node) *Device {
	if name != nil && n.Kind == yaml.MappingNode {
		label := fmt.Sprintf("%s %q", kind.what, name.Value)
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := resolve(n.Content[i]); k.Kind == yaml.ScalarNode && k.Value == "name" {
				p.list.Errorf(p.pos(k), "%s: takes its name from its key; drop \"name\"", label)
				return nil
			}
		}
		n = &yaml.Node{Kind: yaml.MappingNode, Line: n.Line, Column: n.Column,
			Content: append([]*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: "name"}, name}, n.Content...)}
	}
	if n.Kind != yaml.MappingNode {
		like, label := "{name: ..., type: ...}", fmt.Sprintf("%s %d", kind.what, index+1)
		if !kind.typed {
			like = "{name: ..., ...}"
		}
		if name != nil {
			like, label = "{type: ..., ...}", fmt.Sprintf("%s %q", kind.what, name.Value)
		}
		p.list.Errorf(p.pos(n), "%s: must be a mapping like %s, not %s", label, like, describeNode(n))
		return nil
	}
	d := &Device{Pos: p.pos(n), values: map[string]Value{}, refs: map[string]*Device{}}
	var rest []keyNode
	p.mapping(n, func(key string, k, v *yaml.Node) {
		switch {
		case key == "name" || (key == "type" && kind.typed):
			s, ok := p.scalar(v, String, fmt.Sprintf("%s %d: %s", kind.what, index+1, key))
			if !ok {
				return
			}
			if s.Str == "" {
				p.list.Errorf(p.pos(v), "device %d: %s is empty", index+1, key)
				return
			}
			if key == "name" {
				d.Name, d.NamePos = s.Str, p.pos(v)
			} else {
				d.TypeName, d.TypePos = s.Str, p.pos(v)
			}
		default:
			rest = append(rest, keyNode{key, k, v})
		}
	})
	if !kind.typed {
		d.TypeName, d.TypePos = kind.fixed.Name, d.Pos
	}
	if kind.byKey {
		d.kind = kind.what
	}
	label := d.String()
	if d.Name == "" {
		label = fmt.Sprintf("%s %d", kind.what, index+1)
		if d.TypeName != "" && kind.typed {
			label = fmt.Sprintf("%s (%s %d)", d.TypeName, kind.what, index+1)
		}
		if d.NamePos == (diag.Pos{}) && (kind.typed || !kind.fixed.OptionalName) {
			p.list.Errorf(d.Pos, "%s: missing required key \"name\"", label)
		}
		d.label = label
	}
	if !kind.typed {
		d.Type = kind.fixed
		p.keys(d, label, rest)
		return d
	}
	if d.TypeName == "" {
		if d.TypePos == (diag.Pos{}) {
			p.list.Errorf(d.Pos, "%s: missing required key \"type\"", label)
		}
		return d
	}
	t := kind.lookup(d.TypeName)
	if t == nil {
		hint := diag.DidYouMean(d.TypeName, kind.names())
		if hint == "" && kind.hint != nil {
			hint = kind.hint(d.TypeName)
		}
		p.list.Errorf(d.TypePos, "%s: unknown %s type %q%s", label, kind.what, d.TypeName, hint)
		return d
	}
	d.Type = t
	p.keys(d, label, rest)
	return d
}

// keys decodes an entry's keys against its type, reports unknown and
// missing keys, and applies defaults.
func (p *parser) keys(d *Device, label string, rest []keyNode) {
	t := d.Type
	written := map[string]bool{}
	for _, e := range rest {
		key := t.Key(e.key)
		if key == nil && len(t.SubKeys(e.key)) > 0 {
			p.nested(d, label, e, written)
			continue
		}
		if key == nil && t.Key("pid."+e.key) != nil {
			p.list.Errorf(p.pos(e.k), "%s: gains go under pid: write pid: {%s: ...}", label, e.key)
			written["pid."+e.key] = true
			p.value(d, label, t.Key("pid."+e.key), e) // so the missing-gains check stays quiet
			continue
		}
		if key == nil {
			hint := ""
			cands := t.KeyNames()
			if t.Group == "section" {
				cands = cands[2:] // sections have no type key, loop and sim no name
			}
			if s := diag.Suggest(e.key, cands); s != "" {
				hint = ` (did you mean "` + s + `"?)`
				written[s] = true // a misspelt key: "missing" would say it twice
			}
			p.list.Errorf(p.pos(e.k), "%s: unknown key %q for type %s%s", label, e.key, t.Name, hint)
			continue
		}
		written[key.Name] = true
		p.value(d, label, key, e)
	}
	p.defaults(d, label, written)
}

// value decodes and checks one key's value into d.
func (p *parser) value(d *Device, label string, key *Key, e keyNode) {
	var v Value
	var ok bool
	if key.Kind == StringList {
		v, ok = p.names(e.v, label+": "+key.Name)
	} else {
		v, ok = p.scalar(e.v, key.Kind, label+": "+key.Name)
	}
	if !ok {
		return
	}
	v.KeyPos = p.pos(e.k)
	if p.checkValue(label, key, v) {
		d.values[key.Name] = v
	}
}

// nested decodes a mapping of sub-keys, such as a controller's
// `pid: {p: 10, i: 0.1}`, whose keys the type lists as "pid.p", "pid.i".
func (p *parser) nested(d *Device, label string, e keyNode, written map[string]bool) {
	subs := d.Type.SubKeys(e.key)
	var names []string
	for _, k := range subs {
		names = append(names, strings.TrimPrefix(k.Name, e.key+"."))
	}
	if e.v.Kind != yaml.MappingNode {
		p.list.Errorf(p.pos(e.v), "%s: %s must be a mapping like {%s: ...}, not %s", label, e.key, names[0], describeNode(e.v))
		for _, k := range subs {
			written[k.Name] = true // do not also report its keys missing
		}
		return
	}
	p.mapping(e.v, func(sub string, k, v *yaml.Node) {
		key := d.Type.Key(e.key + "." + sub)
		if key == nil {
			p.list.Errorf(p.pos(k), "%s: unknown key %q in %s%s; it takes %s", label, sub, e.key, diag.DidYouMean(sub, names), strings.Join(names, ", "))
			return
		}
		written[key.Name] = true
		p.value(d, label, key, keyNode{key.Name, k, v})
	})
}

// names decodes a list of names, such as a group controller's joints.
func (p *parser) names(n *yaml.Node, what string) (Value, bool) {
	v := Value{Kind: StringList, Pos: p.pos(n), Set: true}
	if n.Kind != yaml.SequenceNode {
		p.list.Errorf(p.pos(n), "%s: want a list of names like [a, b], got %s", what, describeNode(n))
		return v, false
	}
	if len(n.Content) == 0 {
		p.list.Errorf(p.pos(n), "%s: the list is empty", what)
		return v, false
	}
	ok := true
	seen := map[string]int{}
	for _, item := range n.Content {
		item = resolve(item)
		s, good := p.scalar(item, String, what)
		if !good {
			ok = false
			continue
		}
		if line, dup := seen[s.Str]; dup && s.Str != "-" { // - is a placeholder (linux: gpio)
			p.list.Errorf(s.Pos, "%s: %q is listed twice (first at line %d)", what, s.Str, line)
			continue
		}
		seen[s.Str] = s.Pos.Line
		v.List = append(v.List, s.Str)
		v.ListAt = append(v.ListAt, s.Pos)
	}
	return v, ok && len(v.List) > 0
}

// defaults reports missing required keys and fills in defaults.
func (p *parser) defaults(d *Device, label string, written map[string]bool) {
	for _, key := range d.Type.Keys {
		if _, ok := d.values[key.Name]; ok || written[key.Name] {
			continue
		}
		if key.Required {
			p.list.Errorf(d.Pos, "%s: missing required key %q (%s)", label, key.Name, key.Kind)
			continue
		}
		if key.Default != nil {
			d.values[key.Name] = defaultValue(key, d.Pos)
		}
	}
}

func defaultValue(k Key, pos diag.Pos) Value {
	v := Value{Kind: k.Kind, KeyPos: pos, Pos: pos}
	switch x := k.Default.(type) {
	case int:
		v.Int, v.Float = x, float64(x)
	case float64:
		v.Float = x
	case bool:
		v.Bool = x
	case string:
		v.Str = x
	}
	return v
}

// scalar decodes a scalar of the wanted kind, reporting a wrong type.
func (p *parser) scalar(n *yaml.Node, kind Kind, what string) (Value, bool) {
	v := Value{Kind: kind, Pos: p.pos(n), Set: true}
	if n.Kind != yaml.ScalarNode {
		p.list.Errorf(p.pos(n), "%s: want %s, got %s", what, kind.article(), describeNode(n))
		return v, false
	}
	if n.Tag == "!!null" {
		p.list.Errorf(p.pos(n), "%s: has no value; want %s", what, kind.article())
		return v, false
	}
	bad := func(hint string) (Value, bool) {
		p.list.Errorf(p.pos(n), "%s: want %s, got %s%s", what, kind.article(), describeNode(n), hint)
		return v, false
	}
	switch kind {
	case Int:
		if n.Tag != "!!int" {
			return bad("")
		}
		var i int64
		if err := n.Decode(&i); err != nil || i < math.MinInt32 || i > math.MaxInt32 {
			p.list.Errorf(p.pos(n), "%s: %s is out of range", what, n.Value)
			return v, false
		}
		v.Int, v.Float = int(i), float64(i)
	case Float:
		if n.Tag != "!!int" && n.Tag != "!!float" {
			return bad("")
		}
		var f float64
		if err := n.Decode(&f); err != nil {
			return bad("")
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			p.list.Errorf(p.pos(n), "%s: must be a finite number, not %s", what, n.Value)
			return v, false
		}
		v.Float = f
	case Bool:
		if n.Tag != "!!bool" {
			hint := ""
			switch strings.ToLower(n.Value) {
			case "yes", "no", "on", "off", "y", "n":
				hint = " (write true or false)"
			}
			return bad(hint)
		}
		var b bool
		if err := n.Decode(&b); err != nil {
			return bad("")
		}
		v.Bool = b
	case String:
		if n.Tag != "!!str" {
			return bad("; quote it if it is meant as a name")
		}
		v.Str = n.Value
	}
	return v, true
}

// checkValue applies a key's range, enum and channel rules.
func (p *parser) checkValue(label string, k *Key, v Value) bool {
	switch {
	case k.Resource != NoResource && k.Resource != NavXPort:
		lo, hi := k.Resource.Range()
		if v.Int < lo || v.Int > hi {
			p.list.Errorf(v.Pos, "%s: %s: %s %d is out of range %d-%d", label, k.Name, k.Resource, v.Int, lo, hi)
			return false
		}
	case k.HasRange:
		if v.Float < k.Min || v.Float > k.Max {
			p.list.Errorf(v.Pos, "%s: %s: %s is out of range %s-%s", label, k.Name, formatNumber(v), trimFloat(k.Min), trimFloat(k.Max))
			return false
		}
	}
	if k.NonZero && v.Float == 0 {
		p.list.Errorf(v.Pos, "%s: %s must not be 0", label, k.Name)
		return false
	}
	if len(k.Enum) > 0 {
		s := v.Str
		if k.Kind == Int {
			s = strconv.Itoa(v.Int)
		}
		for _, e := range k.Enum {
			if e == s {
				return true
			}
		}
		hint := ""
		if k.Kind == String {
			hint = diag.DidYouMean(s, k.Enum)
		}
		p.list.Errorf(v.Pos, "%s: %s %q is not one of %s%s", label, k.Name, s, strings.Join(k.Enum, ", "), hint)
		return false
	}
	return true
}

func formatNumber(v Value) string {
	if v.Kind == Int {
		return strconv.Itoa(v.Int)
	}
	return trimFloat(v.Float)
}

func trimFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// Checker is given to a Type's Check to report findings and claim channels.
type Checker struct {
	list   *diag.List
	claims map[claimKey]*Device
}

type claimKey struct {
	r     Resource
	scope string
	n     int
}

// Errorf adds an error.
func (c *Checker) Errorf(pos diag.Pos, format string, args ...any) {
	c.list.Errorf(pos, format, args...)
}

// Warnf adds a warning.
func (c *Checker) Warnf(pos diag.Pos, format string, args ...any) { c.list.Warnf(pos, format, args...) }

// Claim records that d uses channel n of resource r (within scope), and
// reports an error when another device already does.
func (c *Checker) Claim(d *Device, r Resource, scope string, n int, pos diag.Pos) {
	k := claimKey{r, scope, n}
	if other, taken := c.claims[k]; taken {
		if other != d {
			what := describeClaim(k)
			if pwm, ok := pwmOnDIOPin(d, r, n); ok {
				what = fmt.Sprintf("PWM channel %d is on the MXP pin of DIO channel %d, which", pwm, n)
			} else if pwm, ok := pwmOnDIOPin(other, r, n); ok {
				what = fmt.Sprintf("%s is on the MXP pin of PWM channel %d, which", what, pwm)
			}
			c.list.Errorf(pos, "%s: %s is already used by %s (line %d)", d, what, other, other.Pos.Line)
		}
		return
	}
	c.claims[k] = d
}

// ClaimName records that controller d claims the named joint's command
// interfaces, and reports an error naming both when another controller
// already does: a joint has one controller at a time.
func (c *Checker) ClaimName(d *Device, r Resource, name string, pos diag.Pos) {
	k := claimKey{r: r, scope: name}
	if other, taken := c.claims[k]; taken && other != d {
		c.list.Errorf(pos, "controller %q: joint %q is already claimed by controller %q (line %d); a joint takes commands from one controller", d.Name, name, other.Name, other.Pos.Line)
		return
	}
	c.claims[k] = d
}

// Once reports a second entry of something a file may have only one of.
func (c *Checker) Once(d *Device, what string, pos diag.Pos) {
	k := claimKey{r: onceOnly, scope: what}
	if other, taken := c.claims[k]; taken && other != d {
		c.list.Errorf(pos, "%s: a second %s: a file has one (%s, line %d)", d, what, other, other.Pos.Line)
		return
	}
	c.claims[k] = d
}

// pwmOnDIOPin reports the PWM channel of d whose MXP pin is DIO n, when d
// claims DIO n through a PWM key.
func pwmOnDIOPin(d *Device, r Resource, n int) (int, bool) {
	if r != DIO || d.Type == nil {
		return 0, false
	}
	for _, k := range d.Type.Keys {
		if k.Resource == PWM && d.Has(k.Name) {
			if dio, ok := mxpSharedDIO(PWM, d.Int(k.Name)); ok && dio == n {
				return d.Int(k.Name), true
			}
		}
	}
	return 0, false
}

// mxpSharedDIO says which DIO channel shares its MXP pin with a PWM or
// DIO channel. The WPILib HAL allocates MXP PWM 10-13 on the pins of DIO
// 10-13 and PWM 14-19 on those of DIO 18-23 (the MXP's SPI pins sit
// between), and refuses a second allocation of a pin.
func mxpSharedDIO(r Resource, n int) (int, bool) {
	if r != PWM {
		return 0, false
	}
	switch {
	case n >= 10 && n <= 13:
		return n, true
	case n >= 14 && n <= 19:
		return n + 4, true
	}
	return 0, false
}

func describeClaim(k claimKey) string {
	switch k.r {
	case PCMChannel:
		return fmt.Sprintf("channel %d of %s", k.n, k.scope)
	case PDPChannel:
		return fmt.Sprintf("channel %d of PDP %q", k.n, k.scope)
	case PCMCompressor:
		return fmt.Sprintf("the compressor of %s", k.scope)
	case NavXPort:
		if strings.HasPrefix(k.scope, "/dev/") {
			return k.scope // a Linux bus
		}
		return fmt.Sprintf("%s port %d", k.scope, k.n)
	case CANMotor, CANGyro, CANPower, CANPneumatics:
		if k.scope != "" {
			return fmt.Sprintf("%s %d on CAN bus %q", k.r, k.n, k.scope)
		}
	}
	return fmt.Sprintf("%s %d", k.r, k.n)
}

// checkFile runs the rules that span entries: unique names, references
// (with the PDP default), channels used once, and each type's Check.
func (p *parser) checkFile() {
	f := p.file
	for _, d := range f.Devices {
		if d.Name == "" {
			continue
		}
		if first, dup := f.byName[d.Name]; dup {
			p.list.Errorf(d.NamePos, "%s: name %q is already used by %s (line %d)", d, d.Name, first, first.Pos.Line)
			continue
		}
		f.byName[d.Name] = d
	}
	c := &Checker{list: p.list, claims: map[claimKey]*Device{}}
	p.checkEntries(f.Devices, c)
	p.uniqueNames("controller", f.Controllers)
	p.checkEntries(f.Controllers, c)
	p.uniqueNames("sim joint", f.SimJoints)
	p.checkEntries(f.SimJoints, c)
	if f.SimDrivetrain != nil {
		p.checkEntries([]*Device{f.SimDrivetrain}, c)
	}
	p.uniqueNames("sim sensor", f.SimSensors)
	p.checkEntries(f.SimSensors, c)
	p.checkSimSensors(c)
	p.uniqueNames("sim disturbance", f.SimDisturbances)
	p.checkEntries(f.SimDisturbances, c)
	p.checkEntries(f.SimCANFaults, c)
	p.checkSimCANFaults(c)
	p.checkEntries([]*Device{f.Linux}, c)
	p.checkCANBuses()
}

// checkSimSensors checks that each `sim: sensors:` entry names a sensor
// it can fault, and that a digital input has no noise or drift.
func (p *parser) checkSimSensors(c *Checker) {
	cands := p.namesOfTypes(SimSensorTypes)
	for _, e := range p.file.SimSensors {
		if e.Name == "" {
			continue
		}
		d := p.file.byName[e.Name]
		switch {
		case d == nil:
			c.Errorf(e.NamePos, "sim sensor %q: names no device%s", e.Name, diag.DidYouMean(e.Name, cands))
		case d.Type == nil:
		case !contains(SimSensorTypes, d.Type.Name):
			c.Errorf(e.NamePos, "sim sensor %q: is %s, not %s", e.Name, article(d.TypeName), refList(SimSensorTypes))
		case d.Type.Name == "digital_input":
			for _, k := range SimSensor.Keys {
				if strings.HasPrefix(k.Name, "noise.") || strings.HasPrefix(k.Name, "drift.") {
					if e.Has(k.Name) {
						c.Errorf(e.KeyPos(k.Name), "sim sensor %q: a digital input is on or off, so %s does not apply (dropout, stuck and disconnected do)", e.Name, k.Name)
					}
				}
			}
		}
	}
}

// checkSimCANFaults checks that each `sim: can_faults:` entry names a
// device on the CAN bus and ends after it begins.
func (p *parser) checkSimCANFaults(c *Checker) {
	cands := p.namesOfTypes(SimCANFaultTypes)
	for _, e := range p.file.SimCANFaults {
		if e.Name == "" {
			continue
		}
		d := p.file.byName[e.Name]
		switch {
		case d == nil:
			c.Errorf(e.NamePos, "sim CAN fault %q: names no device%s", e.Name, diag.DidYouMean(e.Name, cands))
		case d.Type == nil:
		case !contains(SimCANFaultTypes, d.Type.Name) || (d.Type.Name == "pigeon_imu" && !d.Has("id")):
			c.Errorf(e.NamePos, "sim CAN fault %q: is %s, not a device on the CAN bus (%s)", e.Name, article(d.TypeName), strings.Join(SimCANFaultTypes, ", "))
		}
		if e.Has("until") && e.Float("until") <= e.Float("from") {
			c.Errorf(e.ValuePos("until"), "sim CAN fault %q: until (%v s) must be after from (%v s)", e.Name, e.Float("until"), e.Float("from"))
		}
	}
}

// namesOfTypes lists the names of the file's devices of those types,
// sorted: the candidates of a did-you-mean.
func (p *parser) namesOfTypes(types []string) []string {
	var names []string
	for _, d := range p.file.Devices {
		if d.Type != nil && contains(types, d.Type.Name) {
			names = append(names, d.Name)
		}
	}
	sort.Strings(names)
	return names
}

// uniqueNames reports a name used twice within a section.
func (p *parser) uniqueNames(what string, entries []*Device) {
	seen := map[string]*Device{}
	for _, d := range entries {
		if d.Name == "" {
			continue
		}
		if first, dup := seen[d.Name]; dup {
			p.list.Errorf(d.NamePos, "%s %q: name is already used by %s (line %d)", what, d.Name, first, first.Pos.Line)
			continue
		}
		seen[d.Name] = d
	}
}

// checkEntries resolves references, claims channels and runs each type's
// Check.
func (p *parser) checkEntries(entries []*Device, c *Checker) {
	for _, d := range entries {
		if d.Type == nil {
			continue
		}
		p.resolveRefs(d, c)
		for _, k := range d.Type.Keys {
			if k.Resource == NoResource || k.Resource == NavXPort || !d.Has(k.Name) {
				continue
			}
			scope := ""
			if k.Scope != "" {
				if sv, ok := d.values[k.Scope]; ok {
					scope = sv.Str
					if sv.Kind == Int {
						scope = strconv.Itoa(sv.Int)
					}
				}
				if k.Scope == "can_bus" {
					scope = d.CANBus()
				}
				if k.Scope == "pcm_id" {
					scope = moduleLabel(d)
				}
				if k.Resource == PDPChannel {
					pdp := d.Ref("pdp")
					if pdp == nil {
						continue
					}
					scope = pdp.Name
				}
			}
			c.Claim(d, k.Resource, scope, d.Int(k.Name), d.ValuePos(k.Name))
			if dio, shared := mxpSharedDIO(k.Resource, d.Int(k.Name)); shared {
				c.Claim(d, DIO, "", dio, d.ValuePos(k.Name))
			}
		}
		if d.Type.Check != nil {
			d.Type.Check(d, c)
		}
	}
}

func (p *parser) resolveRefs(d *Device, c *Checker) {
	for _, k := range d.Type.Keys {
		if len(k.Ref) == 0 {
			continue
		}
		if !d.Has(k.Name) {
			if k.Name == "pdp" {
				p.defaultPDP(d, c)
			}
			continue
		}
		if k.Kind == StringList {
			v := d.values[k.Name]
			var list []*Device
			for i, name := range v.List {
				if t := p.ref(d, &k, name, v.ListAt[i], c); t != nil {
					list = append(list, t)
				}
			}
			if len(list) == len(v.List) {
				if d.refLists == nil {
					d.refLists = map[string][]*Device{}
				}
				d.refLists[k.Name] = list
			}
			continue
		}
		if target := p.ref(d, &k, d.Str(k.Name), d.ValuePos(k.Name), c); target != nil {
			d.refs[k.Name] = target
		}
	}
}

// ref resolves one name a reference key gives, reporting a name that is no
// device or a device of the wrong type.
func (p *parser) ref(d *Device, k *Key, name string, pos diag.Pos, c *Checker) *Device {
	key := k.Name
	if k.Kind == StringList {
		key += ":"
	}
	target := p.file.byName[name]
	if target == nil {
		c.Errorf(pos, "%s: %s %q names no device%s", d, key, name, diag.DidYouMean(name, p.namesOfTypes(k.Ref)))
		return nil
	}
	if target.Type == nil || !contains(k.Ref, target.Type.Name) {
		c.Errorf(pos, "%s: %s %q is %s, not %s", d, key, name, article(target.TypeName), refList(k.Ref))
		return nil
	}
	return target
}

// defaultPDP closes the spec's TODO: a speed controller's pdp defaults to
// the PDP with CAN id 0, else the REV PDH with CAN id 1 (WPILib's default
// modules of each type).
func (p *parser) defaultPDP(d *Device, c *Checker) {
	for _, want := range [...]struct {
		t  *Type
		id int
	}{{pdp, 0}, {revPDH, 1}} {
		for _, o := range p.file.Devices {
			if o.Type == want.t && o.Has("id") && o.Int("id") == want.id {
				d.refs["pdp"] = o
				return
			}
		}
	}
	if d.Has("pdp_ch") {
		c.Errorf(d.KeyPos("pdp_ch"), "%s: pdp_ch needs a PDP: add a pdp with id 0 or a rev_pdh with id 1 (the defaults), or name one with pdp", d)
	}
}

func article(s string) string {
	if s == "" {
		return "a device of unknown type"
	}
	if strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

func refList(types []string) string {
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = article(t)
	}
	return strings.Join(parts, " or ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
