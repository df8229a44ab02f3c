package sim

import (
	"math"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
)

func init() { registerPart("talon_fx", part{actuator: talonFXJoint}) }

// talonFXJoint drives a motor joint from the emulated Talon FX at the
// entry's CAN id, on its bus. Its rotor turns sensor_to_mechanism_ratio
// times per distance_per_rotation of the joint when the entry says so
// (the gearing the driver reads its rotor through).
func talonFXJoint(s *Sim, d *config.Device, j *joint) {
	canMotorJoint(frc.TalonFX)(s, d, j)
	if d.Has(config.SensorRatioKey.Name) || d.Has(config.DistancePerRotationKey.Name) {
		if g := 2 * math.Pi / math.Abs(d.JointPerRotation()); g > 0 && !math.IsInf(g, 0) {
			j.gear = g
		}
	}
}
