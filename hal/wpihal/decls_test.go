package wpihal

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The layouts frcd calls: the vendor's records are keyed by year and
// commit; a layout's own functions are its year file's
// FRCD_HAL_FUNCS_<table> table and its own structs frcd_X_<suffix>.
var layouts = []struct {
	year, commit, table, suffix string
}{
	{"2026", "7ca35e5678", "", ""},
	{"2027", "878da3d54c", "ALPHA6", "alpha6"}, // v2027.0.0-alpha-6
	{"2027", "caf0fb2dcc", "MAIN", ""},         // main
}

// TestDeclarations checks frcd's own declarations of the WPILib HAL
// (each year's FRCD_HAL_FUNCS tables and structs, hal2026.c and hal2027.c)
// against the vendor's, as testdata/wpihal_decls.txt records them from the
// headers with the header and commit, for each layout frcd calls: every
// function frcd calls has the vendor's return and parameter types, every
// struct frcd passes the vendor's fields in order (types, array lengths,
// bit fields). Parameter and field names may differ; typedefs of int32_t
// (HAL_Bool, handles, enums) and frcd's struct names (frcd_X for HAL_X)
// are one type.
func TestDeclarations(t *testing.T) {
	vendor, err := readVendor("testdata/wpihal_decls.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range layouts {
		src, err := os.ReadFile("hal" + l.year + ".c")
		if err != nil {
			t.Fatal(err)
		}
		ours := readOurs(string(src), l.table, l.suffix)
		if len(ours.funcs) < 30 || len(ours.structs) < 5 {
			t.Fatalf("hal%s.c: read %d functions and %d structs: the parser lost them", l.year, len(ours.funcs), len(ours.structs))
		}
		v := vendor[l.year+" "+l.commit]
		if v == nil || len(v.funcs) < 30 {
			t.Fatalf("testdata has no declarations of %s at %s", l.year, l.commit)
		}
		for _, e := range compare(v, ours) {
			t.Errorf("%s at %s: %s", l.year, l.commit, e)
		}
	}
}

// A declaration that differs from the vendor's is caught: the check can
// fail, in each 2027 layout.
func TestDeclarationsCatchMismatches(t *testing.T) {
	vendor, err := readVendor("testdata/wpihal_decls.txt")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("hal2027.c")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ layout, from, to, want string }{
		{"MAIN", "X(HAL_Initialize, HAL_Bool, (void))", "X(HAL_Initialize, HAL_Bool, (int32_t timeout, int32_t mode))", "HAL_Initialize"},
		{"ALPHA6", "X(HAL_Initialize, HAL_Bool, (int32_t timeout, int32_t mode))", "X(HAL_Initialize, HAL_Bool, (void))", "HAL_Initialize"},
		{"MAIN", "char eventName[65];", "char eventName[64];", "HAL_MatchInfo"},
		{"ALPHA6", "char eventName[64];", "char eventName[65];", "HAL_MatchInfo"},
		{"MAIN", "uint8_t povs[8];", "int16_t povs[8];", "HAL_JoystickPOVs"},
		{"ALPHA6", "(int32_t a, int32_t b, HAL_Bool reverse, int32_t encoding, int32_t* status)", "(int32_t a, int32_t b, int32_t encoding, int32_t* status)", "HAL_InitializeEncoder"},
		{"MAIN", "X(HAL_GetGameData, int32_t, (frcd_GameData * data))", "X(HAL_GetGameDataX, int32_t, (frcd_GameData * data))", "HAL_GetGameDataX"},
	} {
		l := layouts[1]
		if c.layout == "MAIN" {
			l = layouts[2]
		}
		s := string(src)
		if !strings.Contains(s, c.from) {
			t.Fatalf("hal2027.c has no %q", c.from)
		}
		errs := compare(vendor["2027 "+l.commit], readOurs(strings.Replace(s, c.from, c.to, 1), l.table, l.suffix))
		if len(errs) == 0 || !strings.Contains(strings.Join(errs, "\n"), c.want) {
			t.Errorf("%s: %q -> %q: %q, want a mismatch of %s", c.layout, c.from, c.to, errs, c.want)
		}
	}
}

type decls struct {
	funcs   map[string]string // name -> "ret(params)", normalized
	structs map[string]string // HAL name -> fields, normalized
	defines map[string]int
}

func newDecls() *decls {
	return &decls{funcs: map[string]string{}, structs: map[string]string{}, defines: map[string]int{}}
}

var (
	vendorFunc   = regexp.MustCompile(`^(.+?)\b(HAL_\w+)\((.*)\);$`)
	vendorStruct = regexp.MustCompile(`^struct (HAL_\w+) \{(.*)\};$`)
	vendorDefine = regexp.MustCompile(`^#define (\w+) (\d+)$`)
)

// readVendor reads the data file: "YEAR HEADER COMMIT DECLARATION" lines,
// keyed by "YEAR COMMIT".
func readVendor(path string) (map[string]*decls, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]*decls{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.SplitN(line, " ", 4)
		if len(fields) != 4 {
			return nil, fmt.Errorf("%s:%d: not YEAR HEADER COMMIT DECLARATION", path, n)
		}
		key := fields[0] + " " + fields[2]
		d := out[key]
		if d == nil {
			d = newDecls()
			out[key] = d
		}
		decl := fields[3]
		switch {
		case vendorDefine.MatchString(decl):
			m := vendorDefine.FindStringSubmatch(decl)
			d.defines[m[1]], _ = strconv.Atoi(m[2])
		case vendorStruct.MatchString(decl):
			m := vendorStruct.FindStringSubmatch(decl)
			d.structs[m[1]] = m[2] // normalized once the defines are known
		case vendorFunc.MatchString(decl):
			m := vendorFunc.FindStringSubmatch(decl)
			d.funcs[m[2]] = normType(m[1]) + "(" + normParams(m[3]) + ")"
		default:
			return nil, fmt.Errorf("%s:%d: cannot read %q", path, n, decl)
		}
	}
	for _, d := range out {
		for name, body := range d.structs {
			d.structs[name] = normFields(body, d.defines)
		}
	}
	return out, sc.Err()
}

var (
	ourFunc   = regexp.MustCompile(`X\((HAL_\w+),\s*([^,]+?),\s*\(((?:[^()]|\([^()]*\))*)\)\)`)
	ourTable  = regexp.MustCompile(`#define FRCD_HAL_FUNCS(?:_(\w+))?\(X\)((?:[^\n]*\\\n)*[^\n]*)`)
	ourStruct = regexp.MustCompile(`typedef struct \{([^}]*)\} (frcd_\w+);`)
	comment   = regexp.MustCompile(`//[^\n]*`)
)

// readOurs reads a year's C file as one layout calls it: the
// X(name, ret, (params)) entries of FRCD_HAL_FUNCS and of
// FRCD_HAL_FUNCS_<table>, and the typedef structs, frcd_X_<suffix> in
// place of frcd_X (other layouts' structs, frcd_X_<other>, left out).
func readOurs(src, table, suffix string) *decls {
	d := newDecls()
	src = comment.ReplaceAllString(src, "")
	for _, t := range ourTable.FindAllStringSubmatch(src, -1) {
		if t[1] != "" && t[1] != table {
			continue
		}
		body := strings.ReplaceAll(t[2], "\\\n", " ")
		for _, m := range ourFunc.FindAllStringSubmatch(body, -1) {
			d.funcs[m[1]] = normType(m[2]) + "(" + normParams(m[3]) + ")"
		}
	}
	own := map[string]string{}
	for _, m := range ourStruct.FindAllStringSubmatch(src, -1) {
		_, layout, found := strings.Cut(strings.TrimPrefix(m[2], "frcd_"), "_")
		switch {
		case !found:
			d.structs[halName(m[2])] = normFields(m[1], nil)
		case layout == suffix:
			own[halName(m[2])] = normFields(m[1], nil)
		}
	}
	for name, fields := range own {
		d.structs[name] = fields
	}
	return d
}

// compare lists where ours differs from the vendor's.
func compare(vendor, ours *decls) []string {
	var errs []string
	for name, sig := range ours.funcs {
		v, ok := vendor.funcs[name]
		switch {
		case !ok:
			errs = append(errs, fmt.Sprintf("frcd calls %s, which the vendor's headers do not declare", name))
		case v != sig:
			errs = append(errs, fmt.Sprintf("%s: frcd declares %s, the vendor %s", name, sig, v))
		}
	}
	for name, fields := range ours.structs {
		if v, ok := vendor.structs[name]; !ok {
			errs = append(errs, fmt.Sprintf("%s: frcd declares it, the vendor's headers do not (as recorded)", name))
		} else if v != fields {
			errs = append(errs, fmt.Sprintf("%s: frcd's is {%s}, the vendor's {%s}", name, fields, v))
		}
	}
	return errs
}

// int32Types are the vendor's typedefs of int32_t (Types.h: HAL_Bool,
// HAL_Status, HAL_Handle and its handle typedefs; HAL_ENUM's enums).
var int32Types = regexp.MustCompile(`^HAL_(Bool|Status|\w*Handle|MatchType|RuntimeType|EncoderEncodingType|AnalogTriggerType|SPIPort|SPIMode|I2CPort|AccelerometerRange|AllianceStationID|AddressableLEDColorOrder)$`)

var ident = regexp.MustCompile(`[A-Za-z_]\w*|\*`)

// halName is the vendor's name of frcd's struct: HAL_X for frcd_X and for
// a layout's own frcd_X_<suffix>.
func halName(s string) string {
	if rest, ok := strings.CutPrefix(s, "frcd_"); ok {
		name, _, _ := strings.Cut(rest, "_")
		return "HAL_" + name
	}
	return s
}

// normType is a type without whitespace, its typedef resolved.
func normType(s string) string {
	var out []string
	for _, tok := range ident.FindAllString(s, -1) {
		tok = halName(tok)
		if tok == "struct" { // a struct's tag names the typedef's type
			continue
		}
		switch {
		case int32Types.MatchString(tok):
			tok = "int32_t"
		case tok == "HAL_JoystickPOV":
			tok = "uint8_t"
		}
		out = append(out, tok)
	}
	return strings.Replace(strings.Join(out, " "), " *", "*", -1)
}

// normParams is a parameter list's types, names dropped.
func normParams(s string) string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		toks := ident.FindAllString(p, -1)
		if len(toks) > 1 && toks[len(toks)-1] != "*" {
			toks = toks[:len(toks)-1] // the name
		}
		out = append(out, normType(strings.Join(toks, " ")))
	}
	return strings.Join(out, ", ")
}

var field = regexp.MustCompile(`^(.+?)\s*(\w+)\s*(?:\[(\w+)\])?\s*(?::\s*(\d+))?$`)

// normFields is a struct's fields as "type[count]:bits", in order.
func normFields(body string, defines map[string]int) string {
	var out []string
	for _, decl := range strings.Split(body, ";") {
		decl = strings.TrimSpace(decl)
		if decl == "" {
			continue
		}
		// "double w, x, y, z" declares four.
		parts := strings.Split(decl, ",")
		m := field.FindStringSubmatch(parts[0])
		if m == nil {
			out = append(out, "?"+decl)
			continue
		}
		typ := normType(m[1])
		for i, p := range parts {
			if i > 0 {
				m = field.FindStringSubmatch(typ + " " + strings.TrimSpace(p))
				if m == nil {
					out = append(out, "?"+p)
					continue
				}
			}
			f := typ
			if m[3] != "" {
				n, err := strconv.Atoi(m[3])
				if err != nil {
					n = defines[m[3]]
				}
				f += "[" + strconv.Itoa(n) + "]"
			}
			if m[4] != "" {
				f += ":" + m[4]
			}
			out = append(out, f)
		}
	}
	return strings.Join(out, "; ")
}
