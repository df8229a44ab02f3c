package urdf

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/diag"
)

// dump writes a tree with everything Parse's builder reads from it.
func dump(b *strings.Builder, n *node, depth int) {
	fmt.Fprintf(b, "%*s<%s> at %d xacro=%v/%v\n", 2*depth, "", n.name, n.off, n.xacro, n.inXacro)
	for _, a := range n.attrs {
		fmt.Fprintf(b, "%*s  @%s=%q at %d\n", 2*depth, "", a.name, a.value, a.off)
	}
	for _, k := range n.kids {
		dump(b, k, depth+1)
	}
}

// checkFastRead fails when the fast reader takes a file that encoding/xml
// reads differently, or finds a problem in.
func checkFastRead(t *testing.T, data []byte) (taken bool) {
	t.Helper()
	fast, ok := fastRead(newPositions("f.urdf", data), data)
	if !ok {
		return false
	}
	var l diag.List
	p := newPositions("f.urdf", data)
	if good, ascii := checkText(p, data, &l); !good || !ascii {
		t.Fatalf("the fast reader took a file that is not ASCII text: %q", data)
	}
	rd := &reader{p: p, data: data, l: &l}
	slow, wellFormed := rd.read(true)
	if !wellFormed || len(l) > 0 || rd.xacro || slow == nil {
		t.Fatalf("the fast reader took a file encoding/xml finds fault with (well formed %v, xacro %v): %v\n%q", wellFormed, rd.xacro, l, data)
	}
	var a, b strings.Builder
	dump(&a, fast, 0)
	dump(&b, slow, 0)
	if a.String() != b.String() {
		t.Fatalf("trees differ on %q\nfast:\n%s\nencoding/xml:\n%s", data, a.String(), b.String())
	}
	return true
}

// TestFastReadCorpus checks the fast reader on every URDF of the repository
// and the corpus: the same tree as encoding/xml's, and it takes the plain
// ones (so that validation is fast on real files).
func TestFastReadCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/corpus/*.urdf")
	files = append(files, "testdata/arm.urdf", "../examples/competition/robot.urdf")
	taken := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if checkFastRead(t, data) {
			taken++
		}
	}
	if taken < len(files)/2 {
		t.Errorf("the fast reader took %d of %d real files", taken, len(files))
	}
	for _, must := range []string{"testdata/corpus/icub_genova04.urdf", "testdata/corpus/pal_talos_all_zero.urdf", "testdata/arm.urdf"} {
		data, _ := os.ReadFile(must)
		if !checkFastRead(t, data) {
			t.Errorf("the fast reader gave up on %s", must)
		}
	}
	if !checkFastRead(t, bigRobot(300)) {
		t.Error("the fast reader gave up on the 300-joint robot")
	}
}

func TestFastReadGivesUp(t *testing.T) {
	for _, src := range []string{
		"<robot name=\"r\"><link name=\"a\"></robot>",
		"<robot name=\"r\"><link name=\"a\" name=\"b\"/></robot>",
		"<robot name=\"r\"/><robot/>",
		"<robot name=\"r\"/>text",
		"<!DOCTYPE robot><robot/>",
		"<robot><![CDATA[x]]></robot>",
		"<robot a=\"&#65;\"/>",
		"<robot a=\"&nbsp;\"/>",
		"<robot a=\"x<y\"/>",
		"<robot a=x/>",
		"<robot a/>",
		"<robot a=\"1\"b=\"2\"/>",
		"<robot><!-- a -- b --></robot>",
		"<?xml version=\"1.1\"?><robot/>",
		"<?php x ?><robot/>",
		"<robot><?pi x?></robot>",
		"<robot xmlns:x=\"http://www.ros.org/wiki/xacro\"><x:include/></robot>",
		"<robot xmlns:x=\"http://www.ros.org/wiki/xacro\" x:if=\"1\"/>",
		"<robot><xacro:macro/></robot>",
		"<robot a=\"${x}\"/>",
		"<robot name=\"é\"/>",
		"\ufeff<robot/>",
		"<robot a=\"1\r\n2\"/>",
		"<:robot/>",
		"<a:b:c/>",
		"<robot></robot >x",
		"< robot/>",
		"",
	} {
		if _, ok := fastRead(newPositions("f.urdf", []byte(src)), []byte(src)); ok {
			t.Errorf("the fast reader took %q", src)
		}
	}
}

func FuzzFastRead(f *testing.F) {
	for _, s := range []string{
		wrap(arm(`<sensor name="pot"/><origin xyz="0 0 1" rpy="0 0 0"/>`)),
		"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- c -->\n<robot name='r'>\r\n <link name=\"a&amp;b&lt;&gt;&quot;&apos;\"/>\n</robot >\n<!-- after -->\n",
		"<robot name=\"r\"><a:b c:d=\"1\"/>text &amp; more</robot>",
		"<robot\tname=\"r\"\n/>",
		"<robot xmlns:xacro=\"http://www.ros.org/wiki/xacro\" name=\"r\"><link name=\"a\"/></robot>",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastRead(t, data)
	})
}

func TestFields(t *testing.T) {
	for _, s := range []string{"", " ", "1 2 3", " 1\t2\n3 ", "1\v2\f3\r4", "a  b", "1\u00a02 3", "x\u20003"} {
		var buf [2]string
		if got, want := fields(buf[:], s), strings.Fields(s); strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("fields(%q) = %q, want %q", s, got, want)
		}
	}
}
