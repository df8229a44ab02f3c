package robot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/urdf"
)

// bigRobot makes an n-joint robot that validates clean: a tree of revolute
// and prismatic joints with origins, axes, limits and inertials; the first
// 60 driven by Talon SRXs on CAN with PDP channels (over four PDPs), the
// rest by solenoids spread over PCMs; encoders and pots on the first joints.
func bigRobot(n int) (urdfSrc, yamlSrc []byte) {
	var u, y strings.Builder
	u.WriteString("<?xml version=\"1.0\"?>\n<robot name=\"big\">\n  <link name=\"base_link\"/>\n")
	y.WriteString("joints:\n")
	for p := 0; p < 4; p++ {
		fmt.Fprintf(&y, "  - {name: pdp%d, type: pdp, id: %d}\n", p, p)
	}
	for i := 0; i < n; i++ {
		parent := "base_link"
		if i > 0 {
			parent = fmt.Sprintf("link%d", (i-1)/2)
		}
		typ, lim := "revolute", `<limit lower="-1.5" upper="1.5" effort="50" velocity="3"/>`
		if i >= 60 {
			typ, lim = "prismatic", `<limit lower="0" upper="0.3" effort="300" velocity="1"/>`
		}
		fmt.Fprintf(&u, "  <link name=\"link%d\">\n    <inertial><mass value=\"1.5\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial>\n    <visual><geometry><box size=\"0.1 0.05 0.3\"/></geometry></visual>\n  </link>\n", i)
		fmt.Fprintf(&u, "  <joint name=\"joint%d\" type=\"%s\">\n    <sensor name=\"sensor%d\" type=\"encoder\"/>\n    <parent link=\"%s\"/>\n    <child link=\"link%d\"/>\n    <origin xyz=\"0.1 0 0.2\" rpy=\"0 0 1.57\"/>\n    <axis xyz=\"0 1 0\"/>\n    %s\n    <dynamics damping=\"0.1\" friction=\"0.05\"/>\n  </joint>\n", i, typ, i, parent, i, lim)
		switch {
		case i < 60:
			fmt.Fprintf(&y, "  - {name: joint%d, type: talon_srx, id: %d, pdp: pdp%d, pdp_ch: %d, k_eff: 1.2}\n", i, i, i/16, i%16)
		default:
			k := i - 60
			fmt.Fprintf(&y, "  - {name: joint%d, type: solenoid, id: %d, pcm_id: %d}\n", i, k%8, k/8)
		}
		switch {
		case i < 12:
			fmt.Fprintf(&y, "  - {name: sensor%d, type: encoder, ch_a: %d, ch_b: %d, dist_per_pulse: 0.001}\n", i, 2*i, 2*i+1)
		case i < 20:
			fmt.Fprintf(&y, "  - {name: sensor%d, type: analog_input, ain_channel: %d, scale: 3, offset: -1.5}\n", i, i-12)
		default:
			// the rest have no device: make the URDF sensor a plain link element
		}
	}
	u.WriteString("</robot>\n")
	// Sensors without a device would each warn; drop them after the 20th.
	out := u.String()
	for i := 20; i < n; i++ {
		out = strings.Replace(out, fmt.Sprintf("<sensor name=\"sensor%d\" type=\"encoder\"/>", i), "", 1)
	}
	return []byte(out), []byte(y.String())
}

func TestBigRobotIsClean(t *testing.T) {
	u, y := bigRobot(300)
	ur, ul := urdf.Parse("big.urdf", u)
	cf, cl := config.Parse("big.yaml", y)
	r, xl := Check(ur, cf)
	all := append(append(ul, cl...), xl...)
	if len(all) != 0 {
		t.Fatalf("%d findings, first: %v", len(all), all[0])
	}
	if len(r.Joints) != 300 || len(cf.Devices) != 324 {
		t.Fatalf("%d joints, %d devices", len(r.Joints), len(cf.Devices))
	}
}

// BenchmarkValidate300 parses and cross-checks a 300-joint robot, as
// `frcd validate` does (less reading the files).
func BenchmarkValidate300(b *testing.B) {
	u, y := bigRobot(300)
	b.SetBytes(int64(len(u) + len(y)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ur, ul := urdf.Parse("big.urdf", u)
		cf, cl := config.Parse("big.yaml", y)
		_, xl := Check(ur, cf)
		if len(ul)+len(cl)+len(xl) != 0 {
			b.Fatal("findings")
		}
	}
}
