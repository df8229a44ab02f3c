package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/frcd/frcd/diag"
)

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
	d := &Device{Pos: p.pos(n)}
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
			if s := p.suggestKey(t, e.key); s != "" {
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

// decimal reads a plain decimal integer (no leading zero, which yaml.v3
// reads as octal), as yaml.v3 would, without starting a decoder for it.
func decimal(s string) (int64, error) {
	digits := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if digits == "" || len(digits) > 1 && digits[0] == '0' || strings.Trim(digits, "0123456789") != "" {
		return 0, strconv.ErrSyntax
	}
	return strconv.ParseInt(s, 10, 64)
}

// suggestKey is the key of t that an unknown key is likely a misspelling
// of, or "". Its answers are kept: a large file repeats its mistakes.
func (p *parser) suggestKey(t *Type, key string) string {
	sk := suggestion{t, key}
	if s, ok := p.suggested[sk]; ok {
		return s
	}
	cands := t.KeyNames()
	if t.Group == "section" {
		cands = cands[2:] // sections have no type key, loop and sim no name
	}
	s := diag.Suggest(key, cands)
	if p.suggested == nil {
		p.suggested = map[suggestion]string{}
	}
	p.suggested[sk] = s
	return s
}

type suggestion struct {
	t   *Type
	key string
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
		d.set(key.Name, v)
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

// defaults reports missing required keys. The other keys take their
// defaults from the type (Device.Value), except those written but not
// decoded, which take none.
func (p *parser) defaults(d *Device, label string, written map[string]bool) {
	for _, key := range d.Type.Keys {
		if _, ok := d.written(key.Name); ok {
			continue
		}
		if written[key.Name] {
			if key.Default != nil {
				if d.noDefault == nil {
					d.noDefault = map[string]bool{}
				}
				d.noDefault[key.Name] = true
			}
			continue
		}
		if key.Required {
			p.list.Errorf(d.Pos, "%s: missing required key %q (%s)", label, key.Name, key.Kind)
			continue
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
		i, err := decimal(n.Value)
		if err != nil {
			err = n.Decode(&i) // 0x10, 0o17, 1_000: yaml.v3's forms
		}
		if err != nil || i < math.MinInt32 || i > math.MaxInt32 {
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
