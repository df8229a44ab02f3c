package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
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
	// NT4 is the `nt4:` section, with defaults when absent.
	NT4 *Device
	// OpModes is the `op_modes:` section (opmodes.go), empty lists when
	// absent.
	OpModes *Device
	// HAL is the `hal:` key, the backend the robot runs on (hal.go), ""
	// when absent; HALPos is where its value is.
	HAL    string
	HALPos diag.Pos
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
var sections = []string{"joints", "loop", "controllers", "sim", "linux", "nt4", "op_modes", "hal"}

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
	mergeLimit := MergeLimit + 16*len(data)
	if len(data) >= splitMin && utf8.Valid(data) && bytes.IndexByte(data, 0) < 0 {
		if sf, sl, ok := parseSplit(path, data, mergeLimit); ok {
			return sf, sl // split.go: the `joints:` list decoded in pieces
		}
	}
	p := &parser{file: f, path: path, list: &list, mergeLimit: mergeLimit}
	f.Unreadable = !p.parse(data)
	return f, list
}

type parser struct {
	file *File
	path string
	list *diag.List
	// merged counts the pairs `<<` merge keys have expanded to so far, and
	// mergeLimit bounds it (see MergeLimit); mergeRefused is set once the
	// bound was reported.
	merged, mergeLimit int
	mergeRefused       bool
	// pdpDefault is the default PDP of every speed controller, looked up
	// once (pdpLooked) rather than per controller.
	pdpDefault *Device
	pdpLooked  bool
	// suggested keeps suggestKey's answers.
	suggested map[suggestion]string
}

// MergeLimit bounds the work `<<` merge keys make: a file's merge keys may
// expand to at most MergeLimit pairs plus 16 per byte of the file, which a
// real robot file never nears and a "merge bomb" (a few anchors, each
// merging many copies of the one before) reaches at once.
const MergeLimit = 100_000

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
			p.syntaxError(data, err)
		}
		return false
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		p.list.Errorf(p.pos(&extra), "a second YAML document: frcd reads one document per file")
	} else if !errors.Is(err, io.EOF) {
		p.syntaxError(data, err)
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
	s := p.sections(root)
	if s.joints == nil {
		p.list.Errorf(p.pos(root), "no `joints:` list: every robot file lists its devices under `joints:`")
		return false
	}
	p.joints(s.joints)
	p.finish(s)
	return true
}

// sectionNodes are the top-level sections' values, nil when absent.
type sectionNodes struct {
	joints, controllers, loop, sim, linux, nt4, opModes, hal *yaml.Node
}

// sections finds the top-level sections of root, reporting unknown ones.
func (p *parser) sections(root *yaml.Node) (s sectionNodes) {
	p.mapping(root, func(key string, k, v *yaml.Node) {
		switch key {
		case "joints":
			s.joints = v
		case "controllers":
			s.controllers = v
		case "loop":
			s.loop = v
		case "sim":
			s.sim = v
		case "linux":
			s.linux = v
		case "nt4":
			s.nt4 = v
		case "op_modes":
			s.opModes = v
		case "hal":
			s.hal = v
		default:
			if strings.HasPrefix(key, "x-") {
				return // a place for YAML anchors, as in docker-compose files
			}
			p.list.Errorf(p.pos(k), "unknown section %q%s; known sections: %s", key, diag.DidYouMean(key, sections), strings.Join(sections, ", "))
		}
	})
	return s
}

// finish decodes the sections after `joints:` and checks the whole file.
func (p *parser) finish(s sectionNodes) {
	p.file.Loop = p.section("loop", Loop, s.loop)
	p.file.Controllers = p.listSection("controllers", s.controllers, controllerKind)
	p.simSection(s.sim)
	p.file.Linux = p.section("linux", Linux, s.linux)
	p.file.NT4 = p.section("nt4", NT4, s.nt4)
	p.file.OpModes = p.section("op_modes", OpModes, s.opModes)
	p.hal(s.hal)
	p.resolveCANBuses()
	p.checkFile()
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
	d := &Device{Name: name, TypeName: name, Type: t}
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
		if slices.Contains(skip, key) {
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
	if depth > 10 || p.mergeRefused {
		return
	}
	switch v.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(v.Content); i += 2 {
			k := v.Content[i]
			if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
				p.merge(resolve(v.Content[i+1]), fn, depth+1)
				if p.mergeRefused {
					return
				}
				continue
			}
			if p.merged++; p.merged > p.mergeLimit {
				p.mergeRefused = true
				p.list.Errorf(p.pos(k), "`<<` merge keys expand to more than %d entries (%d plus 16 per byte of the file): the file merges copies of copies; merge each anchor once", p.mergeLimit, MergeLimit)
				return
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
		// Decoded: its nodes may go (an alias to it keeps what it needs),
		// so a file at the size limit does not hold its whole node tree
		// beside its devices.
		seq.Content[i] = nil
	}
}
