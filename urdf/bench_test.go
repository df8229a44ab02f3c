package urdf

import (
	"fmt"
	"strings"
	"testing"
)

// bigRobot writes a robot of n revolute joints, each with an origin, an
// axis, a limit and a sensor; link i hangs off link (i-1)/2, a binary tree.
func bigRobot(n int) []byte {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n<robot name=\"big\">\n  <link name=\"link0\"/>\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `  <link name="link%d">
    <inertial><mass value="1.5"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
    <visual><origin xyz="0 0 0.1"/><geometry><cylinder radius="0.02" length="0.2"/></geometry></visual>
  </link>
  <joint name="joint%d" type="revolute">
    <parent link="link%d"/>
    <child link="link%d"/>
    <origin xyz="0 0.05 0.2" rpy="0 0 %d"/>
    <axis xyz="0 1 0"/>
    <limit lower="-1.57" upper="1.57" effort="30" velocity="2.5"/>
    <sensor name="joint%d_encoder" type="encoder"/>
  </joint>
`, i, i, (i-1)/2, i, i%4, i)
	}
	b.WriteString("</robot>\n")
	return []byte(b.String())
}

func BenchmarkParse(b *testing.B) {
	data := bigRobot(300)
	r, l := Parse("big.urdf", data)
	if len(l) != 0 || len(r.Joints) != 300 || r.Root == nil {
		b.Fatalf("bad benchmark robot: %d joints, findings:\n%s", len(r.Joints), strings.Join(lines(l), "\n"))
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Parse("big.urdf", data)
	}
}
