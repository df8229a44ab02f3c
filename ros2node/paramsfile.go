package ros2node

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// MaxParamsFileBytes bounds a --params-file (ros2_control's parameter
// files are a few kB).
const MaxParamsFileBytes = 1 << 20

// maxParamsDepth bounds the nesting of a parameters file's mappings.
const maxParamsDepth = 64

// ParamValue is a parameter's value from a parameters file, typed as
// rcl_yaml_param_parser types it: Type is rcl_interfaces/msg/
// ParameterType's (1 bool, 2 integer, 3 double, 4 string, 6..9 arrays of
// bool, integer, double, string).
type ParamValue struct {
	Type uint8
	B    bool
	I    int64
	F    float64
	S    string
}

// FileParam is one parameter of a node in a parameters file, and where
// it is (FILE:LINE:COL).
type FileParam struct {
	Name  string
	Value ParamValue
	Text  string // as written
	At    string
}

// ParamsEntry is a node's parameters from parameters files: Node is its
// name as written there, with a leading / (a pattern: /** and /* are
// wildcards), Params in the order first set, each with its last value.
type ParamsEntry struct {
	Node   string
	Params []FileParam
	At     string // where it first appears: its ros__parameters key's FILE:LINE:COL
}

// ParamsOverrides are the parameters of every --params-file, merged as
// rcl merges them into one rcl_params_t (rcl 9.2.0 (Jazzy) and Humble
// rcl/src/rcl/arguments.c, rcl_yaml_param_parser/src/parse.c): a node's
// entry where it first appears, a parameter set again taking its last
// value.
type ParamsOverrides struct {
	Entries []ParamsEntry
	// index is each entry's parameters' places in its Params, by node
	// and name (paramIndex): a parameter set again is found at once.
	index map[string]map[string]int
	// Locate places a YAML syntax error at its line and column
	// (config.LocateYAML); nil: yaml.v3's line.
	Locate func(data []byte, err error) (line, col int, msg string)
}

// ReadParamsFile reads the parameters file name (at most
// MaxParamsFileBytes) into o.
func (o *ParamsOverrides) ReadParamsFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("--params-file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxParamsFileBytes+1))
	if err != nil {
		return fmt.Errorf("--params-file %s: %w", name, err)
	}
	if len(data) > MaxParamsFileBytes {
		return fmt.Errorf("--params-file %s: longer than the %d bytes read", name, MaxParamsFileBytes)
	}
	return o.Parse(name, data)
}

// Parse reads a parameters file's text, as rcl_yaml_param_parser reads
// one: a mapping whose keys, nested, are node namespaces and names down to
// a ros__parameters mapping ("ns: {node: {ros__parameters: ...}}" is the
// node /ns/node); under it, nested keys join with '.' into parameter
// names, and a scalar or a sequence of scalars is a value. A mistake
// stops the reading with FILE:LINE:COL.
func (o *ParamsOverrides) Parse(file string, data []byte) error {
	var doc yaml.Node
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // empty: nothing set
		}
		if o.Locate != nil {
			line, col, msg := o.Locate(data, err)
			return fmt.Errorf("%s:%d:%d: invalid YAML: %s", file, line, col, msg)
		}
		return fmt.Errorf("%s: invalid YAML: %s", file, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	p := &paramsParser{file: file, o: o}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return p.fail(root, "want a mapping of node names to their ros__parameters")
	}
	return p.nodes(root, nil, 0)
}

type paramsParser struct {
	file string
	o    *ParamsOverrides
}

func (p *paramsParser) fail(n *yaml.Node, format string, a ...any) error {
	return fmt.Errorf("%s:%d:%d: %s", p.file, n.Line, n.Column, fmt.Sprintf(format, a...))
}

// nodeNameRE is a node name (or namespace) a parameters file may give,
// with rcl's wildcards: letters, digits, '_', '/', '*'.
var nodeNameRE = regexp.MustCompile(`^[A-Za-z0-9_/*]+$`)

// nodes reads the node-name level: keys add to the node's name until
// ros__parameters.
func (p *paramsParser) nodes(m *yaml.Node, ns []string, depth int) error {
	if depth > maxParamsDepth {
		return p.fail(m, "mappings nested more than %d deep", maxParamsDepth)
	}
	if m.Kind != yaml.MappingNode {
		return p.fail(m, "want a mapping of node names (or ros__parameters) here")
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value == "" {
			return p.fail(k, "want a node name")
		}
		if k.Value == "ros__parameters" {
			if len(ns) == 0 {
				return p.fail(k, "no node name before ros__parameters")
			}
			node := "/" + strings.TrimPrefix(strings.Join(ns, "/"), "/")
			if strings.Contains(node, "//") || (len(node) > 1 && strings.HasSuffix(node, "/")) {
				return p.fail(k, "node name %q is not valid", node)
			}
			e := p.o.entry(node, fmt.Sprintf("%s:%d:%d", p.file, k.Line, k.Column))
			if v.Kind == yaml.ScalarNode && (v.Tag == "!!null") {
				continue // ros__parameters: with nothing under it
			}
			if v.Kind != yaml.MappingNode {
				return p.fail(v, "want a mapping of parameters under ros__parameters")
			}
			if err := p.params(e, v, "", depth+1); err != nil {
				return err
			}
			continue
		}
		if !nodeNameRE.MatchString(k.Value) {
			return p.fail(k, "%q is not a node name or namespace (letters, digits, _, / and the wildcards * and **)", k.Value)
		}
		if err := p.nodes(v, append(ns, strings.Trim(k.Value, "/")), depth+1); err != nil {
			return err
		}
	}
	return nil
}

// entry is the node's entry, made at the end where it is new.
func (o *ParamsOverrides) entry(node, at string) *ParamsEntry {
	for i := range o.Entries {
		if o.Entries[i].Node == node {
			return &o.Entries[i]
		}
	}
	o.Entries = append(o.Entries, ParamsEntry{Node: node, At: at})
	return &o.Entries[len(o.Entries)-1]
}

// params reads a ros__parameters mapping; prefix is the parameter
// namespace ("gains.joint.").
func (p *paramsParser) params(e *ParamsEntry, m *yaml.Node, prefix string, depth int) error {
	if depth > maxParamsDepth {
		return p.fail(m, "mappings nested more than %d deep", maxParamsDepth)
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value == "" {
			return p.fail(k, "want a parameter name")
		}
		name := prefix + k.Value
		switch v.Kind {
		case yaml.MappingNode:
			if err := p.params(e, v, name+".", depth+1); err != nil {
				return err
			}
			continue
		case yaml.AliasNode:
			return p.fail(v, "%s: an alias (*name) is not read", name)
		}
		val, err := p.value(v)
		if err != nil {
			return p.fail(v, "%s: %v", name, err)
		}
		fp := FileParam{Name: name, Value: val, Text: v.Value, At: fmt.Sprintf("%s:%d:%d", p.file, v.Line, v.Column)}
		if v.Kind == yaml.SequenceNode {
			fp.Text = "[...]"
		}
		idx := p.o.paramIndex(e)
		countParamsStep()
		if j, ok := idx[name]; ok {
			e.Params[j] = fp
		} else {
			idx[name] = len(e.Params)
			e.Params = append(e.Params, fp)
		}
	}
	return nil
}

// paramIndex is e's parameters' places in e.Params by name, made again
// when e.Params has changed length other than through it.
func (o *ParamsOverrides) paramIndex(e *ParamsEntry) map[string]int {
	if o.index == nil {
		o.index = map[string]map[string]int{}
	}
	m := o.index[e.Node]
	if m == nil || len(m) != len(e.Params) {
		m = make(map[string]int, len(e.Params))
		for j := range e.Params {
			m[e.Params[j].Name] = j
		}
		o.index[e.Node] = m
	}
	return m
}

// paramsSteps, when a test sets it, counts the steps taken merging
// parameters into a node's list (Parse and Resolve: one a parameter).
var paramsSteps *int

func countParamsStep() {
	if paramsSteps != nil {
		*paramsSteps++
	}
}

// value types a scalar, or a sequence of scalars of one type, as
// rcl_yaml_param_parser's get_value does (rcl 9.2.0 parse.c; Humble's the
// same but for !!str): a quoted scalar or one tagged !!str is a string;
// else y/yes/true/on and n/no/false/off (as written, in lower, Title or
// UPPER case, Y and N) a bool; what strtoll reads whole (base 0: 0x1f,
// 017) an integer; .nan, .inf, -.inf (and .NaN, .Inf ...) or what strtod
// reads whole a double; anything else a string.
func (p *paramsParser) value(v *yaml.Node) (ParamValue, error) {
	if v.Kind == yaml.SequenceNode {
		if len(v.Content) == 0 {
			return ParamValue{}, fmt.Errorf("an empty sequence has no type (rcl refuses it)")
		}
		var t uint8
		for _, it := range v.Content {
			if it.Kind != yaml.ScalarNode {
				return ParamValue{}, fmt.Errorf("a sequence of other than scalars")
			}
			iv := scalarValue(it)
			if t != 0 && iv.Type != t {
				return ParamValue{}, fmt.Errorf("a sequence of mixed types (%q)", it.Value)
			}
			t = iv.Type
		}
		return ParamValue{Type: t + 5}, nil // bool 1 -> bool array 6 ...
	}
	if v.Kind != yaml.ScalarNode {
		return ParamValue{}, fmt.Errorf("want a value")
	}
	if v.Value == "" && v.Style == 0 {
		return ParamValue{}, fmt.Errorf("no value")
	}
	return scalarValue(v), nil
}

// ParseParamValue types a command line's -p NAME:=VALUE as rcl does,
// through the parameters file's YAML typing (rcl_parse_yaml_value): a
// YAML bool, an integer, a double, else a string (so 1e400, which strtod
// overflows, is the string "1e400", and abc the string "abc"). A flow
// sequence ([1, 2]) is an array; one of mixed types or anything else
// YAML cannot read is a string.
func ParseParamValue(s string) ParamValue {
	var doc yaml.Node
	if len(s) > MaxParamsFileBytes || yaml.Unmarshal([]byte(s), &doc) != nil || len(doc.Content) != 1 {
		return ParamValue{Type: 4, S: s}
	}
	if v, err := (&paramsParser{}).value(doc.Content[0]); err == nil {
		return v
	}
	return ParamValue{Type: 4, S: s}
}

// scalarValue is value's typing of one scalar.
func scalarValue(v *yaml.Node) ParamValue {
	s := v.Value
	if v.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 || v.Tag == "!!str" && v.Style&yaml.TaggedStyle != 0 {
		return ParamValue{Type: 4, S: s}
	}
	switch s {
	case "Y", "y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return ParamValue{Type: 1, B: true}
	case "N", "n", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return ParamValue{Type: 1}
	}
	if i, err := strconv.ParseInt(s, 0, 64); err == nil && !strings.Contains(s, "_") {
		return ParamValue{Type: 2, I: i}
	}
	if i, ok := cOctal(s); ok {
		return ParamValue{Type: 2, I: i}
	}
	switch strings.TrimPrefix(strings.TrimPrefix(s, "+"), "-") {
	case ".nan", ".NaN", ".NAN":
		return ParamValue{Type: 3, F: math.NaN()}
	case ".inf", ".Inf", ".INF":
		f := math.Inf(1)
		if strings.HasPrefix(s, "-") {
			f = math.Inf(-1)
		}
		return ParamValue{Type: 3, F: f}
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !strings.Contains(s, "_") {
		return ParamValue{Type: 3, F: f}
	}
	return ParamValue{Type: 4, S: s}
}

// cOctal reads strtoll's base-0 octal (017), which Go's base 0 reads only
// as 0o17.
func cOctal(s string) (int64, bool) {
	t := strings.TrimLeft(s, "+-")
	if len(t) < 2 || t[0] != '0' || strings.ContainsAny(t, "xXoObB_") {
		return 0, false
	}
	i, err := strconv.ParseInt(t[1:], 8, 64)
	if err != nil {
		return 0, false
	}
	if strings.HasPrefix(s, "-") {
		i = -i
	}
	return i, true
}

// Resolve is the parameters for the node fqn, as rclcpp resolves them
// (rclcpp humble and jazzy parameter_map.cpp parameter_map_from,
// detail/resolve_parameter_overrides.cpp): every entry whose name matches
// fqn (its "/*" a name's part, "/**" any number of parts), in the order
// of the entries, a later one's value replacing an earlier one's.
func (o *ParamsOverrides) Resolve(fqn string) []FileParam {
	var out []FileParam
	at := map[string]int{} // out's places by name
	for _, e := range o.Entries {
		if !NodePatternMatch(e.Node, fqn) {
			continue
		}
		for _, fp := range e.Params {
			countParamsStep()
			if j, ok := at[fp.Name]; ok {
				out[j] = fp
			} else {
				at[fp.Name] = len(out)
				out = append(out, fp)
			}
		}
	}
	return out
}

// NodePatternMatch says whether a parameters file's node name matches
// the node fqn, as rclcpp's regular expression does: "/*" becomes
// "(/\w+)", so "/**" is "(/\w+)*".
func NodePatternMatch(pattern, fqn string) bool {
	var re strings.Builder
	re.WriteString("^")
	for i := 0; i < len(pattern); i++ {
		switch {
		case strings.HasPrefix(pattern[i:], "/*"):
			re.WriteString(`(/\w+)`)
			i++
		case pattern[i] == '*':
			re.WriteString("*")
		default:
			re.WriteString(regexp.QuoteMeta(pattern[i : i+1]))
		}
	}
	re.WriteString("$")
	r, err := regexp.Compile(re.String())
	return err == nil && r.MatchString(fqn)
}
