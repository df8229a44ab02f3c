package sim

import "github.com/frcd/frcd/frc"

func init() { registerPart("spark_max", part{actuator: sparkJoint(frc.SparkModelMax), motor: "neo"}) }
