package urdf

import "testing"

// wrap puts body in a robot with two links, base and arm.
func wrap(body string) string {
	return "<robot name=\"r\">\n  <link name=\"base\"/>\n  <link name=\"arm\"/>\n" + body + "\n</robot>\n"
}

// arm is a valid revolute joint from base to arm, with extra inside it.
func arm(extra string) string {
	return `  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="arm"/>
    <limit lower="-1" upper="1" effort="10" velocity="2"/>` + extra + `
  </joint>`
}

const floatingMsg = `: frcd drives and measures 1-DoF joints only (revolute, continuous, prismatic; fixed for rigid mounts)`

func TestRules(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []finding
	}{
		{"valid", wrap(arm("")), nil},
		{"valid continuous without limit", wrap(`  <joint name="spin" type="continuous"><parent link="base"/><child link="arm"/></joint>`), nil},
		{"valid fixed", wrap(`  <joint name="mount" type="fixed"><parent link="base"/><child link="arm"/></joint>`), nil},

		// <robot>
		{"robot without name", "<robot>\n  <link name=\"base\"/>\n</robot>",
			[]finding{E("<robot>", `<robot> has no "name" attribute`)}},
		{"robot with empty name", "<robot name=\" \">\n  <link name=\"base\"/>\n</robot>",
			[]finding{E(`name=" "`, `<robot> has an empty "name"`)}},
		{"no links", "<robot name=\"r\">\n  <material name=\"x\"><color rgba=\"1 0 0 1\"/></material>\n</robot>",
			[]finding{E("<robot", `robot "r" has no <link>`)}},
		{"no links, no name", "<robot/>",
			[]finding{E("<robot", `<robot> has no "name" attribute`), E("<robot", `<robot> has no <link>`)}},

		// names
		{"link without name", wrap(arm("") + "\n  <link/>"),
			[]finding{E("<link/>", `<link> has no "name" attribute`)}},
		{"link with empty name", wrap(arm("") + "\n  <link name=\"\"/>"),
			[]finding{E(`name=""`, `<link> has an empty "name"`)}},
		{"joint without name", wrap(`  <joint type="fixed"><parent link="base"/><child link="arm"/></joint>`),
			[]finding{E("<joint", `<joint> has no "name" attribute`)}},
		{"joint with empty name", wrap(`  <joint name="" type="fixed"><parent link="base"/><child link="arm"/></joint>`),
			[]finding{E(`name=""`, `<joint> has an empty "name"`)}},
		{"sensor without name", wrap(arm(`<sensor type="analog"/>`)),
			[]finding{E("<sensor", `<sensor> has no "name" attribute`)}},
		{"sensor with empty name", wrap(arm(`<sensor name=""/>`)),
			[]finding{E(`name=""`, `<sensor> has an empty "name"`)}},

		// joint types
		{"joint without type", wrap(`  <joint name="j"><parent link="base"/><child link="arm"/></joint>`),
			[]finding{E("<joint", `joint "j" has no "type" attribute`)}},
		{"floating", wrap(`  <joint name="j" type="floating"><parent link="base"/><child link="arm"/></joint>`),
			[]finding{E(`type="floating"`, `joint "j": type "floating" is not supported`+floatingMsg)}},
		{"planar", wrap(`  <joint name="j" type="planar"><parent link="base"/><child link="arm"/></joint>`),
			[]finding{E(`type="planar"`, `joint "j": type "planar" is not supported`+floatingMsg)}},
		{"misspelt type", wrap(`  <joint name="j" type="revolut"><parent link="base"/><child link="arm"/></joint>`),
			[]finding{E(`type="revolut"`, `joint "j": unknown type "revolut" (did you mean "revolute"?)`)}},
		{"unknown type", wrap(`  <joint name="j" type="banana"><parent link="base"/><child link="arm"/></joint>`),
			[]finding{E(`type="banana"`, `joint "j": unknown type "banana"`)}},
		{"type is case sensitive", wrap(`  <joint name="j" type="Fixed"><parent link="base"/><child link="arm"/></joint>`),
			[]finding{E(`type="Fixed"`, `joint "j": unknown type "Fixed" (did you mean "fixed"?)`)}},

		// parent and child
		{"no parent", wrap(`  <joint name="j" type="fixed"><child link="arm"/></joint>`),
			[]finding{E("<joint", `joint "j" has no <parent link="..."/>`)}},
		{"no child", wrap(`  <joint name="j" type="fixed"><parent link="base"/></joint>`),
			[]finding{
				E("<joint", `joint "j" has no <child link="..."/>`),
				E("<robot", `robot "r" has several root links (links that are no joint's child): "base" (line 2), "arm" (line 3); joints must connect every link into one tree`),
			}},
		{"two parents", wrap(`  <joint name="j" type="fixed"><parent link="base"/><child link="arm"/><parent link="arm"/></joint>`),
			[]finding{E(`<parent link="arm"`, `joint "j" has more than one <parent>`)}},
		{"two children", wrap(`  <joint name="j" type="fixed"><parent link="base"/><child link="arm"/><child link="base"/></joint>`),
			[]finding{E(`<child link="base"`, `joint "j" has more than one <child>`)}},
		{"parent without link", wrap(`  <joint name="j" type="fixed"><parent lnk="base"/><child link="arm"/></joint>`),
			[]finding{E(`<parent`, `joint "j": <parent> has no "link" attribute`)}},
		{"child with empty link", wrap(`  <joint name="j" type="fixed"><parent link="base"/><child link=""/></joint>`),
			[]finding{
				E(`link=""`, `joint "j": <child> has an empty "link"`),
				E("<robot", `robot "r" has several root links (links that are no joint's child): "base" (line 2), "arm" (line 3); joints must connect every link into one tree`),
			}},
		{"unknown parent link", wrap(`  <joint name="j" type="fixed"><parent link="bse"/><child link="arm"/></joint>`),
			[]finding{E(`link="bse"`, `joint "j": parent link "bse" does not exist (did you mean "base"?)`)}},
		{"unknown child link", wrap(`  <joint name="j" type="fixed"><parent link="base"/><child link="forearm"/></joint>`),
			[]finding{
				E(`link="forearm"`, `joint "j": child link "forearm" does not exist`),
				E("<robot", `robot "r" has several root links (links that are no joint's child): "base" (line 2), "arm" (line 3); joints must connect every link into one tree`),
			}},
		{"parent is child", wrap(arm("") + "\n" + `  <joint name="loop" type="fixed"><parent link="arm"/><child link="arm"/></joint>`),
			[]finding{E(`"loop" type="fixed"><parent link="arm"/><child |link="arm"`, `joint "loop": parent and child are the same link "arm"`)}},
		{"link with two parents", wrap(arm("") + "\n" + `  <joint name="again" type="fixed"><parent link="base"/><child link="arm"/></joint>`),
			[]finding{E(`"again" type="fixed"><parent link="base"/><child |link="arm"`, `joint "again": link "arm" already has parent joint "shoulder" (line 4); a link has at most one parent joint`)}},

		// tree shape
		{"several roots", "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"b\"/>\n  <link name=\"c\"/>\n</robot>",
			[]finding{E("<robot", `robot "r" has several root links (links that are no joint's child): "a" (line 2), "b" (line 3), "c" (line 4); joints must connect every link into one tree`)}},
		{"cycle, no root", `<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="ba" type="fixed"><parent link="b"/><child link="a"/></joint>
</robot>`,
			[]finding{
				E("<robot", `robot "r" has no root link: every link is a joint's child, so the joints form a cycle`),
				E(`<joint name="ba"`, `joint "ba": links form a cycle: "b" -> "a" -> "b"`),
			}},
		{"cycle beside the root", `<robot name="r">
  <link name="root"/>
  <link name="a"/>
  <link name="b"/>
  <link name="c"/>
  <link name="hangs_off_cycle"/>
  <joint name="bc" type="fixed"><parent link="b"/><child link="c"/></joint>
  <joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="c_tail" type="fixed"><parent link="c"/><child link="hangs_off_cycle"/></joint>
  <joint name="ca" type="fixed"><parent link="c"/><child link="a"/></joint>
</robot>`,
			[]finding{E(`<joint name="ca"`, `joint "ca": links form a cycle: "c" -> "a" -> "b" -> "c"`)}},

		// sensors
		{"sensor on a fixed joint", wrap(`  <joint name="mount" type="fixed"><parent link="base"/><child link="arm"/>
    <sensor name="pot" type="analog"/></joint>`),
			[]finding{W(`<sensor name="pot"`, `sensor "pot": joint "mount" is fixed; a fixed joint should carry no sensor, as nothing moves`)}},
		{"top-level sensor on a fixed joint", wrap(`  <joint name="mount" type="fixed"><parent link="base"/><child link="arm"/></joint>
  <sensor name="pot"><parent joint="mount"/></sensor>`),
			[]finding{W(`<sensor name="pot"`, `sensor "pot": joint "mount" is fixed; a fixed joint should carry no sensor, as nothing moves`)}},
		{"top-level sensor without parent", wrap(arm("") + "\n  <sensor name=\"imu\" type=\"imu\"/>"),
			[]finding{E(`<sensor name="imu"`, `sensor "imu" has no <parent link="..."/> or <parent joint="..."/>`)}},
		{"top-level sensor with both", wrap(arm("") + "\n  <sensor name=\"imu\"><parent link=\"base\" joint=\"shoulder\"/></sensor>"),
			[]finding{E(`<parent link="base" joint`, `sensor "imu": <parent> has both "link" and "joint"; a sensor sits in a link or measures a joint, not both`)}},
		{"top-level sensor with neither", wrap(arm("") + "\n  <sensor name=\"imu\"><parent frame=\"base\"/></sensor>"),
			[]finding{E(`<parent frame`, `sensor "imu": <parent> has no "link" or "joint" attribute`)}},
		{"top-level sensor with two parents", wrap(arm("") + "\n  <sensor name=\"imu\"><parent link=\"base\"/><parent link=\"arm\"/></sensor>"),
			[]finding{E(`<parent link="arm"/></sensor>`, `sensor "imu" has more than one <parent>`)}},
		{"top-level sensor in unknown link", wrap(arm("") + "\n  <sensor name=\"imu\"><parent link=\"bas\"/></sensor>"),
			[]finding{E(`link="bas"`, `sensor "imu": parent link "bas" does not exist (did you mean "base"?)`)}},
		{"top-level sensor on unknown joint", wrap(arm("") + "\n  <sensor name=\"enc\"><parent joint=\"shoulder_joint\"/></sensor>"),
			[]finding{E(`joint="shoulder_joint"`, `sensor "enc": parent joint "shoulder_joint" does not exist`)}},
		{"top-level sensor on misspelt joint", wrap(arm("") + "\n  <sensor name=\"enc\"><parent joint=\"sholder\"/></sensor>"),
			[]finding{E(`joint="sholder"`, `sensor "enc": parent joint "sholder" does not exist (did you mean "shoulder"?)`)}},
		{"top-level sensor with empty link", wrap(arm("") + "\n  <sensor name=\"imu\"><parent link=\"\"/></sensor>"),
			[]finding{E(`link=""`, `sensor "imu": <parent> has an empty "link"`)}},
		{"gazebo sensors are not frcd sensors", wrap(arm("") + `
  <gazebo reference="arm"><sensor name="shoulder" type="camera"><parent link="nowhere"/></sensor></gazebo>
  <transmission name="t"><joint name="shoulder"/></transmission>
  <material name="m"><texture filename="m.png"/></material>`), nil},
		{"unknown children are tolerated", wrap(arm(`<calibration rising="0"/><sensor_extra/><foo:bar/>`)), nil},

		// uniqueness
		{"duplicate link", wrap(arm("") + "\n  <link name=\"arm\"/>"),
			[]finding{E(`<link |name="arm"/>`+"\n</robot>", `link "arm": duplicate name, first declared at line 3`)}},
		{"duplicate joint", wrap(arm("") + "\n" + `  <link name="tool"/><joint name="shoulder" type="fixed"><parent link="arm"/><child link="tool"/></joint>`),
			[]finding{E(`<joint |name="shoulder" type="fixed"`, `joint "shoulder": duplicate name, first declared at line 4`)}},
		{"duplicate sensor across places", wrap(arm(`<sensor name="pot"/>`) + "\n  <sensor name=\"pot\"><parent link=\"arm\"/></sensor>"),
			[]finding{E(`<sensor |name="pot"><parent`, `sensor "pot": duplicate name, first declared at line 6`)}},
		{"sensor named like a joint", wrap(arm(`<sensor name="shoulder"/>`)),
			[]finding{E(`<sensor |name="shoulder"`, `sensor "shoulder": joint "shoulder" (line 4) has the same name; YAML entries name a joint or a sensor, so the names must differ`)}},
		{"sensor named like a later joint", wrap("  <link name=\"wrist\"><sensor name=\"roll\"/></link>\n" + arm("") + "\n" + `  <joint name="roll" type="continuous"><parent link="arm"/><child link="wrist"/></joint>`),
			[]finding{E(`<sensor |name="roll"`, `sensor "roll": joint "roll" (line 9) has the same name; YAML entries name a joint or a sensor, so the names must differ`)}},

		// limits
		{"revolute without limit", wrap(`  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/></joint>`),
			[]finding{E("<joint", `joint "j": a revolute joint needs a <limit> with effort and velocity`)}},
		{"prismatic without limit", wrap(`  <joint name="j" type="prismatic"><parent link="base"/><child link="arm"/></joint>`),
			[]finding{E("<joint", `joint "j": a prismatic joint needs a <limit> with effort and velocity`)}},
		{"limit without effort and velocity", wrap(`  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><limit lower="0" upper="1"/></joint>`),
			[]finding{
				E("<limit", `joint "j": <limit> has no "effort" attribute`),
				E("<limit", `joint "j": <limit> has no "velocity" attribute`),
			}},
		{"limit lower above upper", wrap(`  <joint name="j" type="prismatic"><parent link="base"/><child link="arm"/><limit lower="0.5" upper="0.1" effort="1" velocity="1"/></joint>`),
			[]finding{E(`lower=`, `joint "j": <limit> lower 0.5 is greater than upper 0.1`)}},
		{"limit upper below default lower", wrap(`  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><limit upper="-1" effort="1" velocity="1"/></joint>`),
			[]finding{E(`upper=`, `joint "j": <limit> lower 0 is greater than upper -1`)}},
		{"limits and velocity in degrees", wrap(`  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><limit lower="-17" upper="103" effort="1" velocity="230"/></joint>`),
			[]finding{
				W(`lower=`, `joint "j": <limit> lower -17, upper 103 are beyond two turns (±12.57 rad): URDF limits are in radians, so these look like degrees; in radians write lower="-0.2967" upper="1.798"`),
				W(`velocity=`, `joint "j": <limit> velocity 230 rad/s is more than 30 turns a second for a joint with limits: URDF velocities are in rad/s, so this looks like degrees a second; in rad/s write velocity="4.014"`),
			}},
		{"upper in degrees", wrap(`  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><limit lower="0" upper="90" effort="1" velocity="6"/></joint>`),
			[]finding{W(`upper=`, `joint "j": <limit> lower 0, upper 90 are beyond two turns (±12.57 rad): URDF limits are in radians, so these look like degrees; in radians write lower="0" upper="1.571"`)}},
		{"radians within a turn", wrap(`  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><limit lower="-6.2" upper="12.5" effort="1" velocity="100"/></joint>`), nil},
		{"a placeholder velocity", wrap(`  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><limit lower="-1" upper="1" effort="1" velocity="50000"/></joint>`), nil},
		{"a prismatic joint in metres", wrap(`  <joint name="j" type="prismatic"><parent link="base"/><child link="arm"/><limit lower="0" upper="12" effort="1" velocity="100"/></joint>`), nil},
		{"continuous ignores lower and upper", wrap(`  <joint name="j" type="continuous"><parent link="base"/><child link="arm"/><limit lower="1" upper="-1" effort="1" velocity="1"/></joint>`), nil},
		{"negative effort and velocity", wrap(`  <joint name="j" type="continuous"><parent link="base"/><child link="arm"/><limit effort="-1" velocity="-2.5"/></joint>`),
			[]finding{
				E(`effort=`, `joint "j": <limit> effort -1 is negative`),
				E(`velocity=`, `joint "j": <limit> velocity -2.5 is negative`),
			}},

		// axis
		{"zero axis", wrap(arm(`<axis xyz="0 0 0"/>`)),
			[]finding{E(`xyz=`, `joint "shoulder": <axis> xyz is the zero vector`)}},
		{"non-unit axis", wrap(arm(`<axis xyz="0 0 2"/>`)),
			[]finding{W(`xyz=`, `joint "shoulder": <axis> xyz "0 0 2" is not a unit vector (length 2)`)}},
		{"almost unit axis", wrap(arm(`<axis xyz="0 0.7071 0.7071"/>`)), nil},
		{"axis of a fixed joint is not checked", wrap(`  <joint name="j" type="fixed"><parent link="base"/><child link="arm"/><axis xyz="0 0 0"/></joint>`), nil},

		// mimic
		{"mimic without joint", wrap(arm(`<mimic multiplier="2"/>`)),
			[]finding{E("<mimic", `joint "shoulder": <mimic> has no "joint" attribute`)}},
		{"mimic of itself", wrap(arm(`<mimic joint="shoulder"/>`)),
			[]finding{E(`<mimic |joint=`, `joint "shoulder" mimics itself`)}},
		{"mimic of unknown joint", wrap(arm(`<mimic joint="shouldr"/>`)),
			[]finding{E(`<mimic |joint=`, `joint "shoulder": <mimic> joint "shouldr" does not exist (did you mean "shoulder"?)`)}},
		{"mimic with empty joint", wrap(arm(`<mimic joint=""/>`)),
			[]finding{E(`<mimic |joint=`, `joint "shoulder": <mimic> has an empty "joint"`)}},

		// numbers and vectors
		{"bad number", wrap(`  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><limit lower="abc" upper="1" effort="1" velocity="1"/></joint>`),
			[]finding{E(`lower=`, `joint "j": <limit> lower: "abc" is not a number`)}},
		{"NaN", wrap(arm(`<dynamics damping="NaN"/>`)),
			[]finding{E(`damping=`, `joint "shoulder": <dynamics> damping: "NaN" is not a finite number`)}},
		{"Inf", wrap(arm(`<safety_controller k_velocity="-inf"/>`)),
			[]finding{E(`k_velocity=`, `joint "shoulder": <safety_controller> k_velocity: "-inf" is not a finite number`)}},
		{"overflow", wrap(arm(`<mimic joint="shoulder2" multiplier="1e999"/>`) + "\n" + `  <link name="l2"/><joint name="shoulder2" type="continuous"><parent link="arm"/><child link="l2"/></joint>`),
			[]finding{E(`multiplier=`, `joint "shoulder": <mimic> multiplier: "1e999" is not a finite number`)}},
		{"hex is not a URDF number", wrap(arm(`<dynamics friction="0x10"/>`)),
			[]finding{E(`friction=`, `joint "shoulder": <dynamics> friction: "0x10" is not a number`)}},
		{"number forms", wrap(arm(`<dynamics damping=" +1.5e-3 " friction=".5"/><origin xyz="-0. 1E2 3" rpy="0 0 0"/>`)), nil},
		{"vector too short", wrap(arm(`<origin xyz="1 2"/>`)),
			[]finding{E(`xyz=`, `joint "shoulder": <origin> xyz: "1 2" has 2 numbers, want 3`)}},
		{"vector too long", wrap(arm(`<origin rpy="1 2 3 4"/>`)),
			[]finding{E(`rpy=`, `joint "shoulder": <origin> rpy: "1 2 3 4" has 4 numbers, want 3`)}},
		{"vector with a bad entry", wrap(arm(`<origin xyz="1 x 3"/>`)),
			[]finding{E(`xyz=`, `joint "shoulder": <origin> xyz: "x" is not a number`)}},
		{"vector with commas", wrap(arm(`<axis xyz="0,0,1"/>`)),
			[]finding{E(`xyz=`, `joint "shoulder": <axis> xyz: "0,0,1" has 1 numbers, want 3`)}},
		{"link numbers", "<robot name=\"r\">\n" + `  <link name="l">
    <inertial><mass value="-3"/><inertia ixx="1" iyy="one"/></inertial>
    <visual><geometry><box size="1 1"/></geometry></visual>
    <collision><origin xyz="0 0 nan"/><geometry><cylinder radius="r" length="1"/></geometry></collision>
  </link>
</robot>`,
			[]finding{
				E(`value=`, `link "l": <mass> value -3 is negative`),
				E(`iyy=`, `link "l": <inertia> iyy: "one" is not a number`),
				E(`<inertia `, `link "l": <inertia> has no "ixy", "ixz", "iyz", "izz" attributes`),
				E(`size=`, `link "l": <box> size: "1 1" has 2 numbers, want 3`),
				E(`xyz="0 0 nan"`, `link "l": <origin> xyz: "nan" is not a finite number`),
				E(`radius=`, `link "l": <cylinder> radius: "r" is not a number`),
			}},

		// repeated single elements
		{"two origins", wrap(arm(`<origin xyz="0 0 1"/><origin xyz="0 0 2"/>`)),
			[]finding{W(`<origin xyz="0 0 2"`, `joint "shoulder": more than one <origin>; only the first is used`)}},
		{"two limits", wrap(arm(`<limit effort="1" velocity="1"/>`)),
			[]finding{W(`<limit effort="1"`, `joint "shoulder": more than one <limit>; only the first is used`)}},
		{"two inertials", "<robot name=\"r\">\n  <link name=\"l\"><inertial/><inertial/></link>\n</robot>",
			[]finding{
				W(`<inertial/>|<inertial/>`, `link "l": more than one <inertial>; only the first is used`),
				E(`<inertial/><`, `link "l": <inertial> has no <mass>`),
				E(`<inertial/><`, `link "l": <inertial> has no <inertia>`),
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expect(t, tt.src, tt.want...)
		})
	}
}
