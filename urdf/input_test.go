package urdf

import (
	"strings"
	"testing"
)

// TestInputProblems pins whole-file problems to exact file:line:col strings.
func TestInputProblems(t *testing.T) {
	const xacroErr = "error: xacro is not expanded: run `xacro` first"
	const xacroWarn = "warning: " + xacroSkipped
	tests := []struct {
		name  string
		src   string
		want  []string
		links []string // what Parse still read
	}{
		{"empty", "", []string{"r.urdf:1:1: error: empty file"}, nil},
		{"blank", " \n\t\n", []string{"r.urdf:1:1: error: empty file"}, nil},
		{"NUL byte", "<robot name=\"r\">\n  <li\x00nk/>", []string{"r.urdf:2:6: error: not a text file (NUL byte)"}, nil},
		{"UTF-16", "\xff\xfe<\x00r\x00", []string{"r.urdf:1:1: error: not a text file (invalid UTF-8)"}, nil},
		{"UTF-16 without BOM", "<\x00r\x00", []string{"r.urdf:1:2: error: not a text file (NUL byte)"}, nil},
		{"invalid UTF-8", "<robot name=\"r\">\n  <link name=\"é\xe9\"/>", []string{"r.urdf:2:16: error: not a text file (invalid UTF-8)"}, nil},
		{"unclosed element", "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"b\">\n</robot>\n",
			[]string{"r.urdf:4:1: error: malformed XML: element <link> closed by </robot>"}, []string{"a"}},
		{"stray end tag", "<robot name=\"r\"><link name=\"a\"/></link></robot>",
			[]string{"r.urdf:1:33: error: malformed XML: element <robot> closed by </link>"}, []string{"a"}},
		{"truncated", "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link",
			[]string{"r.urdf:3:8: error: malformed XML: unexpected EOF"}, []string{"a"}},
		{"unquoted attribute", "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=b/>\n</robot>",
			[]string{"r.urdf:3:15: error: malformed XML: unquoted or missing attribute value in element"}, []string{"a"}},
		{"unknown entity", "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"b&nbsp;\"/>\n</robot>",
			[]string{"r.urdf:3:16: error: malformed XML: invalid character entity &nbsp;"}, []string{"a"}},
		{"only a comment", "<?xml version=\"1.0\"?>\n<!-- nothing -->\n", []string{"r.urdf:1:1: error: no <robot> element"}, nil},
		{"not a robot", "<?xml version=\"1.0\"?>\n<sdf version=\"1.6\"><model/></sdf>",
			[]string{"r.urdf:2:1: error: root element is <sdf>, want <robot>"}, nil},
		{"second root", "<robot name=\"r\">\n  <link name=\"a\"/>\n</robot>\n<robot name=\"s\"/>\n",
			[]string{"r.urdf:4:1: error: malformed XML: element <robot> after the root element"}, []string{"a"}},
		{"trailing text", "<robot name=\"r\">\n  <link name=\"a\"/>\n</robot>\n  trailing\n",
			[]string{"r.urdf:4:3: error: malformed XML: text outside the root element"}, []string{"a"}},
		{"duplicate attribute", "<robot name=\"r\">\n  <link name=\"a\" name=\"b\"/>\n</robot>",
			[]string{`r.urdf:2:18: error: malformed XML: <link> has attribute "name" twice`}, []string{"a"}},
		{"latin-1 declared, ASCII content", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<robot name=\"r\"><link name=\"a\"/></robot>", nil, []string{"a"}},
		{"latin-1 declared, other content", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<robot name=\"r\"><link name=\"é\"/></robot>",
			[]string{`r.urdf:1:1: error: malformed XML: the file declares encoding "ISO-8859-1" but is not ASCII; save it as UTF-8`}, nil},
		{"byte order mark", "\ufeff<robot name=\"r\"><link name=\"a\"/><link/></robot>",
			[]string{`r.urdf:1:33: error: <link> has no "name" attribute`}, []string{"a", ""}},
		{"byte order mark and declaration", "\ufeff<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<robot name=\"r\"><link name=\"a\"/></robot>", nil, []string{"a"}},
		{"CRLF", "<robot name=\"r\">\r\n  <link name=\"a\"/>\r\n  <link/>\r\n</robot>\r\n",
			[]string{`r.urdf:3:3: error: <link> has no "name" attribute`}, []string{"a", ""}},

		// xacro: reported once, at the first xacro construct; the other
		// findings stay, but not what the macros would have written (the
		// tree, the names referred to, missing parts of an element that
		// holds xacro).
		{"xacro element", "<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n  <xacro:property name=\"w\" value=\"1\"/>\n  <link name=\"a\"/>\n  <link name=\"${w}\"/>\n</robot>",
			[]string{"r.urdf:2:3: " + xacroErr}, []string{"a", "${w}"}},
		{"xacro element, undeclared prefix", "<robot name=\"r\">\n  <xacro:macro name=\"m\"><link name=\"x\"/></xacro:macro>\n</robot>",
			[]string{"r.urdf:2:3: " + xacroErr}, nil},
		{"xacro attribute", "<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n  <link name=\"a\" xacro:if=\"1\"/>\n</robot>",
			[]string{"r.urdf:2:18: " + xacroErr}, []string{"a"}},
		{"xacro namespace under another prefix", "<robot name=\"r\" xmlns:x=\"http://ros.org/wiki/xacro\">\n  <link name=\"a\"/>\n  <x:include filename=\"arm.xacro\"/>\n</robot>",
			[]string{"r.urdf:3:3: " + xacroWarn}, []string{"a"}},
		{"xacro expression", "<robot name=\"r\">\n  <link name=\"a\"><visual><origin xyz=\"${w} 0 0\"/><geometry><box size=\"1 1 1\"/></geometry></visual></link>\n</robot>",
			[]string{"r.urdf:2:34: " + xacroErr}, []string{"a"}},
		{"xacro does not hide other findings", "<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n  <xacro:include filename=\"arm.xacro\"/>\n  <link name=\"a\"/>\n  <joint name=\"j\" type=\"revolut\"><parent link=\"a\"/><child link=\"b\"/><limit effort=\"${e}\" velocity=\"1\"/></joint>\n  <link name=\"b\"><inertial><mass value=\"x\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial></link>\n</robot>",
			[]string{
				"r.urdf:2:3: " + xacroErr,
				`r.urdf:4:19: error: joint "j": unknown type "revolut" (did you mean "revolute"?)`,
				`r.urdf:5:34: error: link "b": <mass> value: "x" is not a number`,
			}, []string{"a", "b"}},
		{"xacro substitution", "<robot name=\"r\">\n  <link name=\"a\"><visual><geometry><mesh filename=\"$(find arm)/a.stl\"/></geometry></visual></link>\n</robot>",
			[]string{"r.urdf:2:42: " + xacroErr}, []string{"a"}},
		{"expanded xacro keeps its namespace declaration", "<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n  <link name=\"a\"/>\n</robot>", nil, []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, l := Parse(testFile, []byte(tt.src))
			if r == nil {
				t.Fatal("nil Robot")
			}
			if got := lines(l); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("findings:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
			}
			var names []string
			for _, lk := range r.Links {
				names = append(names, lk.Name)
			}
			if strings.Join(names, ",") != strings.Join(tt.links, ",") {
				t.Errorf("links %q, want %q", names, tt.links)
			}
		})
	}
}

// TestRuneColumns checks that columns count characters, not bytes, for
// elements and for attributes after multi-byte text on the same line.
func TestRuneColumns(t *testing.T) {
	src := "<robot name=\"r\">\n" +
		"  <!-- é→ü 机器人 🤖 --><link name=\"a\"/><link name=\"b\" nom=\"ü\" x=\"é\"/><joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"zz\"/></joint>\n" +
		"</robot>"
	r, l := Parse(testFile, []byte(src))
	// "  <!-- é→ü 机器人 🤖 -->" is 20 characters but 33 bytes.
	if got, want := r.Link("a").Pos.String(), "r.urdf:2:21"; got != want {
		t.Errorf("link a at %s, want %s", got, want)
	}
	got := lines(l)
	want := []string{
		`r.urdf:1:1: error: robot "r" has several root links (links that are no joint's child): "a" (line 2), "b" (line 2); joints must connect every link into one tree`,
		`r.urdf:2:121: error: joint "j": child link "zz" does not exist`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	// The same positions, found by the independent locator.
	if p, w := r.Joint("j").ChildPos, at(t, src, `<child |link="zz"`); p != w {
		t.Errorf("child attribute at %s, want %s", p, w)
	}
	if p, w := r.Link("b").Pos, at(t, src, `<link name="b"`); p != w {
		t.Errorf("link b at %s, want %s", p, w)
	}
}

// Leftover xacro elements urdfdom skips (check_urdf accepts both files
// below as they are) are a warning when the rest is a whole robot: the
// file is readable and its joints are there. When the rest is not whole
// (a joint's child only the macro would make: check_urdf refuses it too),
// or xacro sits in an attribute urdfdom reads, it stays an error and the
// file unreadable.
func TestLeftoverXacroElements(t *testing.T) {
	const decl = `<robot name="r" xmlns:xacro="http://ros.org/wiki/xacro">` + "\n"
	const joint = `  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/><limit lower="0" upper="1" effort="1" velocity="1"/></joint>` + "\n"
	for _, tt := range []struct {
		name, src  string
		unreadable bool
		want       string
	}{
		{"include, property and an uncalled macro", decl + `  <xacro:include filename="$(find arm)/arm.xacro"/>` + "\n" + `  <xacro:property name="w" value="1"/>` + "\n" +
			`  <xacro:macro name="m" params="p"><link name="${p}_x"/></xacro:macro>` + "\n" + `  <link name="a"/>` + "\n" + `  <link name="b"/>` + "\n" + joint + "</robot>",
			false, "r.urdf:2:3: warning: " + xacroSkipped},
		{"a macro call that would add a link", decl + `  <link name="a"/>` + "\n" + `  <xacro:arm parent="a"/>` + "\n" + joint + "</robot>",
			true, "r.urdf:3:3: error: xacro is not expanded: run `xacro` first"},
		{"an element urdfdom reads holds xacro", decl + `  <xacro:property name="w" value="1"/>` + "\n" + `  <link name="a"/>` + "\n" + `  <link name="b"/>` + "\n" +
			`  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/><limit lower="0" upper="${w}" effort="1" velocity="1"/></joint>` + "\n</robot>",
			true, "r.urdf:2:3: error: xacro is not expanded: run `xacro` first"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, l := Parse(testFile, []byte(tt.src))
			got := strings.Join(lines(l), "\n")
			if got != tt.want || r.Unreadable != tt.unreadable {
				t.Errorf("unreadable %v, findings:\n\t%s\nwant unreadable %v:\n\t%s", r.Unreadable, got, tt.unreadable, tt.want)
			}
			if !tt.unreadable && (r.Joint("j") == nil || len(r.Links) != 2) {
				t.Errorf("joint j %v, %d links: want the file read without the xacro", r.Joint("j"), len(r.Links))
			}
		})
	}
}
