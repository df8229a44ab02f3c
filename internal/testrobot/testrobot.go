// Package testrobot writes robots for benchmarks and tests: big ones, to
// time validation and the control loop on something the size of a real
// robot.
package testrobot

import (
	"fmt"
	"strings"
)

// Big writes an n-joint robot whose URDF and YAML check clean (only the CAN
// load estimate finds its one bus too busy): a binary tree of revolute and
// prismatic joints with inertials, visuals, origins, axes, limits and
// dynamics; the first 60 driven by Talon SRXs on CAN (with PDP channels),
// the rest by solenoids on PCMs; encoders and pots on the first 20.
func Big(n int) (urdfSrc, yamlSrc string) {
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
		sensor := ""
		if i < 20 {
			sensor = fmt.Sprintf("\n    <sensor name=\"sensor%d\" type=\"encoder\"/>", i)
		}
		fmt.Fprintf(&u, "  <joint name=\"joint%d\" type=\"%s\">%s\n    <parent link=\"%s\"/>\n    <child link=\"link%d\"/>\n    <origin xyz=\"0.1 0 0.2\" rpy=\"0 0 1.57\"/>\n    <axis xyz=\"0 1 0\"/>\n    %s\n    <dynamics damping=\"0.1\" friction=\"0.05\"/>\n  </joint>\n", i, typ, sensor, parent, i, lim)
		if i < 60 {
			fmt.Fprintf(&y, "  - {name: joint%d, type: talon_srx, id: %d, pdp: pdp%d, pdp_ch: %d, k_eff: 1.2}\n", i, i, i/16, i%16)
		} else {
			k := i - 60
			fmt.Fprintf(&y, "  - {name: joint%d, type: solenoid, id: %d, pcm_id: %d}\n", i, k%8, k/8)
		}
		switch {
		case i < 12:
			fmt.Fprintf(&y, "  - {name: sensor%d, type: encoder, ch_a: %d, ch_b: %d, dist_per_pulse: 0.001}\n", i, 2*i, 2*i+1)
		case i < 20:
			fmt.Fprintf(&y, "  - {name: sensor%d, type: analog_input, ain_channel: %d, scale: 3, offset: -1.5}\n", i, i-12)
		}
	}
	u.WriteString("</robot>\n")
	return u.String(), y.String()
}
