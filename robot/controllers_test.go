package robot_test

// The controller checks, here rather than in package robot's own tests:
// the controller types register when control loads, and control imports
// robot.

import (
	"strings"
	"testing"

	_ "github.com/frcd/frcd/control"
	_ "github.com/frcd/frcd/devices"
	"github.com/frcd/frcd/robot"
)

func TestControllersAndSimJoints(t *testing.T) {
	urdfSrc := `<robot name="r">
  <link name="base"/><link name="a"/><link name="b"/>
  <joint name="arm" type="revolute"><parent link="base"/><child link="a"/><limit lower="0" upper="1" effort="1" velocity="1"/></joint>
  <joint name="lift" type="prismatic"><parent link="base"/><child link="b"/><limit lower="0" upper="1" effort="1" velocity="1"/>
    <sensor name="lift_enc" type="encoder"/></joint>
</robot>
`
	yamlSrc := `joints:
  - {name: pdp, type: pdp, id: 0}
  - {name: arm, type: talon, id: 0}
  - {name: lift, type: spark, id: 1, pdp_ch: 3}
  - {name: lift_enc, type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 0.001}
controllers:
  - {name: arm_pos, type: effort_controllers/JointPositionController, joint: arm, pid: {p: 1}}
  - {name: arm_eff, type: effort_controllers/JointEffortController, joint: arm, pid: {p: 1}}
  - {name: lift_vel, type: effort_controllers/JointVelocityController, joint: lift, pid: {p: 1}}
sim:
  joints:
    - {name: lift}
    - {name: lfit}
`
	got := robot.LoadFindings(t, urdfSrc, yamlSrc)
	want := []string{
		`r.yaml:7:78: error: controller "arm_pos": joint "arm" has no encoder or analog input, so a position PID has nothing to measure`,
		`r.yaml:8:76: error: controller "arm_eff": joint "arm" is already claimed by controller "arm_pos" (line 7); a joint takes commands from one controller`,
		`r.yaml:8:76: error: controller "arm_eff": joint "arm"'s talon "arm" has no pdp_ch, so an effort PID has nothing to measure (effort = PDP current × k_eff)`,
		`r.yaml:13:14: error: sim joint "lfit": no movable URDF joint of that name (did you mean "lift"?)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestProfiledControllerChecks: a profiled controller needs a position
// sensor and a velocity limit, from the URDF or its own max_velocity.
func TestProfiledControllerChecks(t *testing.T) {
	urdfSrc := `<robot name="r">
  <link name="base"/><link name="a"/><link name="b"/><link name="c"/>
  <joint name="arm" type="revolute"><parent link="base"/><child link="a"/><limit lower="0" upper="1" effort="1" velocity="2"/></joint>
  <joint name="spin" type="continuous"><parent link="base"/><child link="b"/><sensor name="spin_enc" type="encoder"/></joint>
  <joint name="turn" type="continuous"><parent link="base"/><child link="c"/><sensor name="turn_enc" type="encoder"/></joint>
</robot>
`
	yamlSrc := `joints:
  - {name: arm, type: talon, id: 0}
  - {name: spin, type: spark, id: 1}
  - {name: spin_enc, type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 0.001}
  - {name: turn, type: spark, id: 2}
  - {name: turn_enc, type: encoder, ch_a: 2, ch_b: 3, dist_per_pulse: 0.001}
controllers:
  arm_p: {type: frcd_controllers/ProfiledPositionController, joint: arm, pid: {p: 1}, max_acceleration: 1}
  spin_p: {type: frcd_controllers/ProfiledPositionController, joint: spin, pid: {p: 1}, max_acceleration: 1}
  turn_p: {type: frcd_controllers/ProfiledPositionController, joint: turn, pid: {p: 1}, max_acceleration: 1, max_velocity: 3}
`
	got := robot.LoadFindings(t, urdfSrc, yamlSrc)
	want := []string{
		`r.yaml:8:69: error: controller "arm_p": joint "arm" has no encoder or analog input, so a position PID has nothing to measure`,
		`r.yaml:9:70: error: controller "spin_p": joint "spin" has no velocity limit in the URDF (line 4), so the profile has none: set max_velocity`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A position controller handed to a device's own loop is refused where
// the device cannot hold the joint's position: another sensor gives the
// joint's position (the zeros differ), or the joint is continuous (the
// device's loop does not wrap). A velocity controller is fine there, and
// a position one on a revolute joint the device alone measures.
func TestDeviceLoopPositionChecks(t *testing.T) {
	const u = `<robot name="r"><link name="base"/><link name="a"/><link name="b"/><link name="c"/>
  <joint name="steer" type="continuous"><parent link="base"/><child link="a"/><sensor name="steer_cc"/></joint>
  <joint name="arm" type="revolute"><parent link="base"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="lift" type="revolute"><parent link="base"/><child link="c"/><limit lower="-1" upper="1" effort="1" velocity="1"/><sensor name="lift_enc"/></joint>
</robot>`
	const y = `joints:
  - {name: steer, type: talon_fx, id: 1, closed_loop: device, kp: 1}
  - {name: steer_cc, type: cancoder, id: 2}
  - {name: arm, type: talon_fx, id: 3, closed_loop: device, kp: 1}
  - {name: lift, type: talon_fx, id: 4, closed_loop: device, kv: 0.1}
  - {name: lift_enc, type: encoder, ch_a: 0, ch_b: 1, dist_per_pulse: 0.01}
controllers:
  - {name: steer_pos, type: effort_controllers/JointPositionController, joint: steer}
  - {name: arm_pos, type: effort_controllers/JointPositionController, joint: arm}
  - {name: lift_vel, type: effort_controllers/JointVelocityController, joint: lift}
`
	_, got := robot.CheckFindings(t, u, y)
	want := []string{
		`r.yaml:8:80: error: controller "steer_pos": joint "steer" is continuous and talon_fx "steer"'s own position loop (closed_loop: device) does not wrap; use closed_loop: roborio`,
		`r.yaml:8:80: error: controller "steer_pos": talon_fx "steer" closes its position loop on its own sensor (closed_loop: device), but joint "steer"'s position comes from cancoder "steer_cc": their zeros differ; use closed_loop: roborio`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
