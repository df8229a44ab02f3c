package sim

func init() { registerPart("spark_flex", part{actuator: sparkJoint, motor: "neo_vortex"}) }
