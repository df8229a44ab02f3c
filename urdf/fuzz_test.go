package urdf

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/frcd/frcd/diag"
	"github.com/frcd/frcd/internal/bounds"
)

func FuzzParse(f *testing.F) {
	armFile, err := os.ReadFile("testdata/arm.urdf")
	if err != nil {
		f.Fatal(err)
	}
	seeds := []string{
		string(armFile),
		wrap(arm("")),
		wrap(arm(`<sensor name="pot"/><mimic joint="shoulder" multiplier="2"/><axis xyz="0 0 2"/>`)),
		wrap(`  <joint name="j" type="floating"><parent link="base"/><child link="arm"/></joint>`),
		wrap(`  <joint name="ab" type="fixed"><parent link="base"/><child link="arm"/></joint>
  <joint name="ba" type="fixed"><parent link="arm"/><child link="base"/></joint>`),
		wrap(`  <sensor name="imu"><parent link="base" joint="x"/></sensor><sensor name="imu"/>`),
		wrap(`  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><limit lower="abc" upper="NaN" effort="-1"/></joint>`),
		"<robot name=\"r\">\n  <link name=\"a\">\n</robot>\n",
		"<robot name=\"r\"><link name=\"a\"/></robot",
		"<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\"><xacro:macro name=\"m\"/></robot>",
		"\ufeff<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><robot name=\"é\"><link name=\"ü\"/></robot>",
		"<robot name=\"r\"><link name=\"a\" name=\"b\"/></robot><robot/>text",
		"<sdf/>",
		"",
		"\x00",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer bounds.Slow(t)()
		const path = "fuzz.urdf"
		r, l := Parse(path, data)
		if r == nil {
			t.Fatal("nil Robot")
		}
		maxLine := 1 + bytes.Count(data, []byte("\n"))
		for _, f := range l {
			if f.File != path || f.Line < 1 || f.Col < 1 || f.Line > maxLine || f.Message == "" {
				t.Fatalf("bad finding %q (file %q, line %d, col %d)", f.String(), f.File, f.Line, f.Col)
			}
		}
		if l.Errors() == 0 {
			for _, j := range r.Joints {
				if r.Link(j.Parent) == nil || r.Link(j.Child) == nil {
					t.Fatalf("no errors, but joint %q connects %q to %q:\n%s", j.Name, j.Parent, j.Child, strings.Join(lines(l), "\n"))
				}
			}
			if len(r.Links) > 0 && r.Root == nil {
				t.Fatalf("no errors, but no root")
			}
			for _, s := range r.Sensors {
				if (s.Joint == "") == (s.Link == "") {
					t.Fatalf("no errors, but sensor %q has joint %q and link %q", s.Name, s.Joint, s.Link)
				}
			}
		}
		checkPos := func(what string, p diag.Pos) {
			if p.File != path || p.Line < 1 || p.Col < 1 || p.Line > maxLine {
				t.Fatalf("%s at bad position %v", what, p)
			}
		}
		for _, lk := range r.Links {
			checkPos("link", lk.Pos)
		}
		for _, j := range r.Joints {
			checkPos("joint", j.Pos)
			checkPos("joint type", j.TypePos)
			checkPos("joint parent", j.ParentPos)
			checkPos("joint child", j.ChildPos)
		}
		for _, s := range r.Sensors {
			checkPos("sensor", s.Pos)
		}
		// Parsing is deterministic.
		_, l2 := Parse(path, data)
		if strings.Join(lines(l), "\n") != strings.Join(lines(l2), "\n") {
			t.Fatal("two parses disagree")
		}
	})
}
