package ctre

import (
	"bufio"
	"os"
	"regexp"
	"strings"
	"testing"
)

// vendorDecl is one line of testdata/vendor-decls.txt: a function (or,
// with struct, a structure's fields) as CTRE declares it.
type vendorDecl struct {
	name, ret, source string
	params            []string
	line              int
}

func readVendorDecls(t *testing.T) (funcs, structs map[string]vendorDecl) {
	t.Helper()
	f, err := os.Open("testdata/vendor-decls.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	funcs, structs = map[string]vendorDecl{}, map[string]vendorDecl{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		c := strings.Split(l, "|")
		for i := range c {
			c[i] = strings.TrimSpace(c[i])
		}
		if name, ok := strings.CutPrefix(c[0], "struct "); ok && len(c) == 4 {
			structs[name] = vendorDecl{name: name, params: splitTypes(c[1]), source: c[2], line: n}
			continue
		}
		if len(c) != 5 {
			t.Fatalf("vendor-decls.txt:%d: %d fields, want 5", n, len(c))
		}
		funcs[c[0]] = vendorDecl{name: c[0], ret: c[1], params: splitTypes(c[2]), source: c[3], line: n}
	}
	return funcs, structs
}

func splitTypes(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" && p != "void" {
			out = append(out, p)
		}
	}
	return out
}

// canon is a type as the C ABI of every target frcd builds for (x86-64,
// arm64, armv7 softfp) passes it: C and ctypes spellings of one type
// agree; const, array bounds (a pointer in a parameter) and the name of
// an int-sized enum do not matter; frcd's and CTRE's names of the two
// signal structures are the same structures (checked field by field).
func canon(t string) string {
	t = strings.TrimSpace(t)
	if in, ok := strings.CutPrefix(t, "POINTER("); ok {
		return canon(strings.TrimSuffix(in, ")")) + "*"
	}
	t = strings.ReplaceAll(t, "const ", "")
	if i := strings.Index(t, "["); i >= 0 { // double wxyz[4]: double*
		t = t[:i] + "*"
	}
	t = strings.Join(strings.Fields(strings.ReplaceAll(t, "*", " * ")), " ")
	t = strings.ReplaceAll(t, " *", "*")
	base, stars := strings.TrimRight(t, "*"), t[len(strings.TrimRight(t, "*")):]
	switch base {
	case "ctre::phoenix::ErrorCode", "ErrorCode", "Context", "c_int", "int32_t", "c_int32":
		base = "int"
	case "c_uint", "c_uint32", "unsigned int", "unsigned":
		base = "uint32_t"
	case "c_uint16":
		base = "uint16_t"
	case "short", "c_short":
		base = "int16_t"
	case "c_size_t":
		base = "size_t"
	case "c_double":
		base = "double"
	case "c_bool":
		base = "bool"
	case "c_char_p":
		base = "char*"
	case "frcd_p6_signal":
		base = "SignalValues"
	case "frcd_p6_return":
		base = "ReturnValues"
	}
	return base + stars
}

// paramType drops a C parameter's name: "const char* canbus" is
// "const char*", "double wxyz[4]" "double[4]".
var paramName = regexp.MustCompile(`^(.*?[\s\*])\s*[A-Za-z_]\w*\s*(\[\d*\])?$`)

func paramTypes(params string) []string {
	var out []string
	for _, p := range splitTypes(strings.Join(strings.Fields(params), " ")) {
		if m := paramName.FindStringSubmatch(p); m != nil {
			p = m[1] + m[2]
		}
		out = append(out, p)
	}
	return out
}

func sameTypes(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if canon(a[i]) != canon(b[i]) {
			return false
		}
	}
	return true
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// phoenix.h's X(name, return, (parameters), family) entries.
var xEntry = regexp.MustCompile(`X\((c_\w+),\s*([^,]+?),\s*\(([^)]*)\),\s*[56]\)`)

// The fake's definitions: a return type, the name, the parameters, a body.
var cDef = regexp.MustCompile(`(?m)^([A-Za-z_][\w ]*\**)\s*\b(c_\w+)\(([^)]*)\)\s*\{`)

// cStruct: typedef struct { fields } name;
var cStruct = regexp.MustCompile(`typedef struct \{([^}]*)\}\s*(\w+);`)

// Every function frcd declares (and so calls) is one of CTRE's, declared
// as CTRE declares it; so is every one the fake library defines.
func TestDeclarationsAreCTREs(t *testing.T) {
	funcs, structs := readVendorDecls(t)
	h := readFile(t, "phoenix.h")
	ours := xEntry.FindAllStringSubmatch(strings.ReplaceAll(h, "\\\n", " "), -1)
	if len(ours) < 20 {
		t.Fatalf("%d functions found in phoenix.h: the pattern no longer reads it", len(ours))
	}
	for _, m := range ours {
		v, ok := funcs[m[1]]
		if !ok {
			t.Errorf("phoenix.h declares %s, which testdata/vendor-decls.txt does not hold: add CTRE's declaration with its source", m[1])
			continue
		}
		if canon(m[2]) != canon(v.ret) || !sameTypes(paramTypes(m[3]), v.params) {
			t.Errorf("phoenix.h: %s %s(%s); CTRE (%s, vendor-decls.txt:%d): %s(%s)", m[2], m[1], strings.Join(paramTypes(m[3]), ", "), v.source, v.line, v.ret, strings.Join(v.params, ", "))
		}
	}
	fake := cDef.FindAllStringSubmatch(readFile(t, "testdata/fakectre.c"), -1)
	seen := map[string]bool{}
	for _, m := range fake {
		v, ok := funcs[m[2]]
		if !ok {
			t.Errorf("the fake defines %s, which testdata/vendor-decls.txt does not hold", m[2])
			continue
		}
		seen[m[2]] = true
		if canon(m[1]) != canon(v.ret) || !sameTypes(paramTypes(m[3]), v.params) {
			t.Errorf("fakectre.c: %s %s(%s); CTRE (%s): %s(%s)", m[1], m[2], strings.Join(paramTypes(m[3]), ", "), v.source, v.ret, strings.Join(v.params, ", "))
		}
	}
	for _, m := range ours {
		if !seen[m[1]] {
			t.Errorf("the fake does not define %s, which frcd calls", m[1])
		}
	}
	// The structures get_signal takes, field by field, in phoenix.h and
	// in the fake.
	for _, src := range []string{h, readFile(t, "testdata/fakectre.c")} {
		found := 0
		for _, m := range cStruct.FindAllStringSubmatch(src, -1) {
			v, ok := structs[canon(m[2])]
			if !ok {
				continue
			}
			found++
			var fields []string
			for _, f := range strings.Split(m[1], ";") {
				if f = strings.TrimSpace(f); f != "" {
					fields = append(fields, paramTypes(f)...)
				}
			}
			if !sameTypes(fields, v.params) {
				t.Errorf("struct %s: fields %v; CTRE (%s): %v", m[2], fields, v.source, v.params)
			}
		}
		if found != len(structs) {
			t.Errorf("%d of the %d signal structures found", found, len(structs))
		}
	}
}

// The check catches what it is for: the declarations frcd had before it
// was checked against CTRE's (Pigeon creators without their strings),
// and a control request with one bool less (Phoenix 6 25's).
func TestDeclarationCheckCatches(t *testing.T) {
	funcs, _ := readVendorDecls(t)
	for _, bad := range []struct{ name, params string }{
		{"c_PigeonIMU_Create1", "int deviceNumber"},
		{"c_PigeonIMU_Create2", "int talonDeviceID"},
		{"c_ctre_phoenix6_RequestControlVoltageOut", "const char* canbus, uint32_t ecu, double freq, double output, bool foc, bool brake, bool limFwd, bool limRev, bool ignHard, bool ignSoft"},
	} {
		if sameTypes(paramTypes(bad.params), funcs[bad.name].params) {
			t.Errorf("%s(%s) passes as CTRE's", bad.name, bad.params)
		}
	}
	for _, good := range []struct{ a, b string }{
		{"int16_t ba_xyz[3]", "short[3]"}, {"uint32_t ecu", "c_uint"}, {"char** out", "POINTER(c_char_p)"}, {"frcd_p6_signal* s", "POINTER(SignalValues)"},
	} {
		if !sameTypes(paramTypes(good.a), []string{good.b}) {
			t.Errorf("%q is not %q: canon %q, %q", good.a, good.b, canon(paramTypes(good.a)[0]), canon(good.b))
		}
	}
}
