package ros2node

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// describe is a resolved parameter list as "name=type:value@line:col".
func describe(ps []FileParam) string {
	var out []string
	for _, p := range ps {
		v := p.Value
		var val string
		switch v.Type {
		case 1:
			val = fmt.Sprint(v.B)
		case 2:
			val = fmt.Sprint(v.I)
		case 3:
			val = fmt.Sprint(v.F)
		case 4:
			val = fmt.Sprintf("%q", v.S)
		default:
			val = "array"
		}
		at := p.At[strings.LastIndex(p.At[:strings.LastIndex(p.At, ":")], ":")+1:]
		out = append(out, fmt.Sprintf("%s=%d:%s@%s", p.Name, v.Type, val, at))
	}
	return strings.Join(out, " ")
}

// TestParamsFile: a parameters file as rcl_yaml_param_parser reads it and
// rclcpp resolves it for a node: namespaces nested or written in the
// name, /** and /* wildcards, nested parameter names joined with '.',
// values typed as rcl types them, a later entry's value replacing an
// earlier's, a second file merged into the first's entries.
func TestParamsFile(t *testing.T) {
	var o ParamsOverrides
	err := o.Parse("a.yaml", []byte(`/**:
  ros__parameters:
    use_sim_time: false
    gains.turret_joint.p: 1.0
turret_position:
  ros__parameters:
    gains:
      turret_joint:
        p: 41.0
        i: 0x10
        d: 010
    on: on
    quoted: "true"
    tagged: !!str 12
    inf: -.inf
    e: 1e3
    word: hello
    list: [1, 2, 3]
r1:
  turret_position:
    ros__parameters:
      gains.turret_joint.p: 7.5
/r1/*:
  ros__parameters:
    x: 1
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Parse("b.yaml", []byte("turret_position:\n  ros__parameters:\n    word: again\n")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ fqn, want string }{
		{"/turret_position", `use_sim_time=1:false@3:19 gains.turret_joint.p=3:41@9:12 gains.turret_joint.i=2:16@10:12 gains.turret_joint.d=2:8@11:12 ` +
			`on=1:true@12:9 quoted=4:"true"@13:13 tagged=4:"12"@14:13 inf=3:-Inf@15:10 e=3:1000@16:8 word=4:"again"@3:11 list=7:array@18:11`},
		{"/r1/turret_position", `use_sim_time=1:false@3:19 gains.turret_joint.p=3:7.5@22:29 x=2:1@25:8`},
		{"/frcd", `use_sim_time=1:false@3:19 gains.turret_joint.p=3:1@4:27`},
		{"/r1/a/b", `use_sim_time=1:false@3:19 gains.turret_joint.p=3:1@4:27`},
	} {
		if got := describe(o.Resolve(c.fqn)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.fqn, got, c.want)
		}
	}
	// Entry order decides, as in rclcpp: /** after the node's own entry
	// wins over it.
	var late ParamsOverrides
	if err := late.Parse("c.yaml", []byte("frcd:\n  ros__parameters: {p: 1.0}\n/**:\n  ros__parameters: {p: 2.0}\n")); err != nil {
		t.Fatal(err)
	}
	if ps := late.Resolve("/frcd"); len(ps) != 1 || ps[0].Value.F != 2 {
		t.Errorf("/** after frcd's entry: %s, want p 2", describe(ps))
	}
	var nan ParamsOverrides
	if err := nan.Parse("n.yaml", []byte("n:\n  ros__parameters: {x: .NaN}\n")); err != nil || !math.IsNaN(nan.Resolve("/n")[0].Value.F) {
		t.Errorf(".NaN: %v %+v", err, nan.Entries)
	}
}

// TestNodePatternMatch: rclcpp's wildcards: /* one name's part, /** any
// number of them.
func TestNodePatternMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, fqn string
		want         bool
	}{
		{"/**", "/frcd", true}, {"/**", "/r1/frcd", true}, {"/*", "/frcd", true}, {"/*", "/r1/frcd", false},
		{"/r1/*", "/r1/frcd", true}, {"/r1/*", "/frcd", false}, {"/r1/**", "/r1/a/b", true}, {"/frcd", "/frcd", true},
		{"/frcd", "/frcd2", false}, {"/**/frcd", "/r1/frcd", true}, {"/**/frcd", "/frcd", true},
	} {
		if got := NodePatternMatch(c.pattern, c.fqn); got != c.want {
			t.Errorf("%s %s: %v, want %v", c.pattern, c.fqn, got, c.want)
		}
	}
}

// TestParamsFileErrors: a mistake is refused with FILE:LINE:COL; a file
// past the bound is not read.
func TestParamsFileErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"ros__parameters:\n  p: 1\n", "f.yaml:1:1: no node name before ros__parameters"},
		{"frcd:\n  ros__parameters:\n    p:\n", "f.yaml:3:7: p: no value"},
		{"frcd:\n  ros__parameters:\n    l: [1, a]\n", "f.yaml:3:8: l: a sequence of mixed types"},
		{"frcd:\n  ros__parameters:\n    l: []\n", "f.yaml:3:8: l: an empty sequence"},
		{"frcd:\n  ros__parameters: 3\n", "f.yaml:2:20: want a mapping of parameters"},
		{"- a\n", "f.yaml:1:1: want a mapping of node names"},
		{"fr cd:\n  ros__parameters: {}\n", `f.yaml:1:1: "fr cd" is not a node name`},
		{"frcd:\n  ros__parameters:\n    a: &x 1\n    b: *x\n", "f.yaml:4:8: b: an alias"},
		{"frcd:\n  ros__parameters:\n    p: 1\n   q: 2\n", "f.yaml"},
		{"frcd: 3\n", "f.yaml:1:7: want a mapping of node names (or ros__parameters)"},
		{deepYAML(maxParamsDepth + 2), "nested more than"},
	} {
		var o ParamsOverrides
		err := o.Parse("f.yaml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error with %q", c.text, err, c.want)
		}
	}
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("#"+strings.Repeat("x", MaxParamsFileBytes)), 0o644); err != nil {
		t.Fatal(err)
	}
	var o ParamsOverrides
	if err := o.ReadParamsFile(big); err == nil || !strings.Contains(err.Error(), "longer than the 1048576 bytes read") {
		t.Errorf("a file past the bound: %v", err)
	}
	if err := o.ReadParamsFile(filepath.Join(dir, "none.yaml")); err == nil || !strings.Contains(err.Error(), "--params-file: open") {
		t.Errorf("a missing file: %v", err)
	}
}

// deepYAML is node names nested n deep.
func deepYAML(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i) + "a:\n")
	}
	b.WriteString(strings.Repeat(" ", n) + "b: 1\n")
	return b.String()
}

// FuzzParamsFile: any file is read or refused, never a panic.
func FuzzParamsFile(f *testing.F) {
	f.Add("/**:\n  ros__parameters:\n    a: {b: 1.0}\n")
	f.Add("ns:\n  n:\n    ros__parameters: {x: [1, 2], y: !!str 3}\n")
	f.Fuzz(func(t *testing.T, text string) {
		var o ParamsOverrides
		if o.Parse("f.yaml", []byte(text)) == nil {
			for _, e := range o.Entries {
				_ = o.Resolve(e.Node)
			}
		}
	})
}

// TestParamsFileLinear: a parameters file of many parameters (up to
// MaxParamsFileBytes of them), and one setting them again, are merged
// and resolved in time linear in their number: each parameter set is
// found by name, not by a walk along those before it (a 1 MiB file took
// 7 s to read and 7 s more for each of frcd's nodes).
func TestParamsFileLinear(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString("/**:\n  ros__parameters:\n")
	for i := range n {
		fmt.Fprintf(&b, "    p%d: %d\n", i, i)
	}
	b.WriteString("/frcd:\n  ros__parameters:\n    p7: 7.5\n")
	steps := 0
	paramsSteps = &steps
	defer func() { paramsSteps = nil }()
	var o ParamsOverrides
	if err := o.Parse("big.yaml", []byte(b.String())); err != nil {
		t.Fatal(err)
	}
	if err := o.Parse("again.yaml", []byte("/**:\n  ros__parameters:\n    p3: 33\n")); err != nil {
		t.Fatal(err)
	}
	got := o.Resolve("/frcd")
	if len(got) != n || got[3].Value.I != 33 || got[7].Value.F != 7.5 || got[n-1].Name != fmt.Sprintf("p%d", n-1) {
		t.Fatalf("resolved %d parameters, p3 %+v, p7 %+v, last %s", len(got), got[3], got[7], got[len(got)-1].Name)
	}
	if steps > 3*n {
		t.Errorf("%d steps merging and resolving %d parameters: not linear", steps, n)
	}
}
