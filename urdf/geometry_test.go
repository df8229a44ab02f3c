package urdf

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/frcd/frcd/internal/tooltest"
)

// A file whose geometry urdfdom cannot read is one ROS accepts (it drops
// that visual or collision): frcd, which reads no geometry, accepts it
// with a warning per element, and Debian's check_urdf agrees.
func TestBrokenGeometryWarns(t *testing.T) {
	const text = `<robot name="g">
  <link name="a"><visual><geometry><box/></geometry></visual></link>
  <link name="b"><collision><geometry><cylinder radius="1"/></geometry></collision></link>
  <link name="c"><visual><geometry><mesh/></geometry></visual></link>
  <link name="d"><visual><geometry><cone radius="1"/></geometry></visual></link>
  <link name="e"><visual/><collision><geometry/></collision></link>
  <link name="f"><visual><geometry><sphere radius="1"/></geometry><material/></visual></link>
  <joint name="j1" type="revolute"><parent link="a"/><child link="b"/><limit lower="0" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j2" type="fixed"><parent link="a"/><child link="c"/></joint>
  <joint name="j3" type="fixed"><parent link="a"/><child link="d"/></joint>
  <joint name="j4" type="fixed"><parent link="a"/><child link="e"/></joint>
  <joint name="j5" type="fixed"><parent link="a"/><child link="f"/></joint>
</robot>
`
	_, l := Parse("g.urdf", []byte(text))
	if l.Errors() != 0 || l.Warnings() != 7 {
		t.Errorf("%d errors, %d warnings, want 0 and 7:\n%v", l.Errors(), l.Warnings(), l)
	}
	t.Run("check_urdf", func(t *testing.T) {
		tooltest.Require(t, tooltest.CheckURDF)
		path := filepath.Join(t.TempDir(), "g.urdf")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if ok, out := checkURDF(t, path); !ok {
			t.Errorf("check_urdf refuses it: %s", out)
		}
	})
	// a file check_urdf refuses is still refused: no link at all
	if _, l := Parse("n.urdf", []byte(`<robot name="n"><joint name="j" type="fixed"/></robot>`)); l.Errors() == 0 {
		t.Error("a robot without links accepted")
	}
}
