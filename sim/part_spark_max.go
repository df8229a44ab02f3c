package sim

func init() { registerPart("spark_max", part{actuator: sparkJoint, motor: "neo"}) }
