package sim

import "github.com/frcd/frcd/frc"

func init() {
	registerPart("spark_flex", part{actuator: sparkJoint(frc.SparkModelFlex), motor: "neo_vortex"})
}
