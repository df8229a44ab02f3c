package urdf_test

import (
	"fmt"
	"os"

	"github.com/frcd/frcd/urdf"
)

func ExampleParse() {
	src := `<robot name="arm_bot">
  <link name="torso"/>
  <link name="arm"/>
  <joint name="shoulder_joint" type="revolute">
    <sensor name="shoulder_joint_pot" type="analog"/>
    <parent link="torso"/>
    <child link="arm"/>
    <limit lower="0" upper="1.57" effort="60" velocity="100"/>
  </joint>
  <joint name="wrist_joint" type="revolut">
    <parent link="arm"/>
    <child link="hand"/>
  </joint>
</robot>`
	robot, findings := urdf.Parse("arm.urdf", []byte(src))
	findings.WriteText(os.Stdout)

	j := robot.Joint("shoulder_joint")
	fmt.Printf("%s: %s from %s to %s, %g..%g rad, measured by %s\n",
		j.Name, j.Type, j.Parent, j.Child, j.Limit.Lower, j.Limit.Upper, j.Sensors[0].Name)
	fmt.Println("root:", robot.Root.Name)
	// Output:
	// arm.urdf:10:29: error: joint "wrist_joint": unknown type "revolut" (did you mean "revolute"?)
	// arm.urdf:12:12: error: joint "wrist_joint": child link "hand" does not exist
	// shoulder_joint: revolute from torso to arm, 0..1.57 rad, measured by shoulder_joint_pot
	// root: torso
}
