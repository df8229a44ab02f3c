package devices

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
)

// The keys, docs and checks the speed controllers share: the spec's
// "Simple Speed Controller (PWM & no-feedback CAN)", the Nidec Brushless
// and the Talon SRX. Each one's type is in its own file.

func speedControllerKeys(id config.Key, extra ...config.Key) []config.Key {
	keys := []config.Key{
		id,
		{Name: "inverted", Kind: config.Bool, Default: false, Doc: "Whether to invert the direction of the motor."},
		{Name: "pdp", Kind: config.String, Ref: []config.Role{config.PowerRole}, DefaultDoc: "the PDP with id 0, else the PDH with id 1", Doc: "The name of the PDP or REV PDH powering this motor controller."},
		{Name: "pdp_ch", Kind: config.Int, Resource: config.PDPChannel, Scope: "pdp", Doc: "The channel of the PDP (0-15) or PDH (0-23) powering this motor controller; its current × k_eff is the joint's effort."},
		{Name: "k_eff", Kind: config.Float, Default: 1.0, Unit: "N·m/A or N/A", Doc: "The current to effort scaling: motor torque per amp times the gear reduction."},
	}
	return append(keys, extra...)
}

// powerChannel are the keys of a speed controller's effort.
var powerChannel = config.EffortKeys{Power: "pdp", Channel: "pdp_ch", Scale: "k_eff"}

var pwmID = config.Key{Name: "id", Kind: config.Int, Required: true, Resource: config.PWM, Doc: "The PWM channel of the motor controller (10-19 are on the MXP)."}
var canID = config.Key{Name: "id", Kind: config.Int, Required: true, Resource: config.CANMotor, Scope: "can_bus", Doc: "The CAN id of the motor controller."}

const speedDoc = "State: a JointState that the controller itself does not fill: sensors on its joint do (an encoder's position " +
	"and velocity, the PDP channel's current × k_eff as effort). Command: a JointHandle on the Voltage, Position, " +
	"Velocity and Effort interfaces; position, velocity and effort commands run through a PID on the roboRIO."

// pwmNeutralDoc says where a PWM controller's neutral mode is set.
const pwmNeutralDoc = "Its neutral mode (brake or coast at zero output) and any current limit are set on the controller itself " +
	"(its brake/coast jumper or button): a PWM signal cannot carry them, so there is no key for them; the sim coasts it unless its sim joint says jumper: brake."

// pwmSpeedType is the type of a PWM speed controller: its keys, and its
// calibration (how it reads pulse widths) as a fact.
func pwmSpeedType(name, class, summary string, cal frc.PWMCalibration) *config.Type {
	return &config.Type{Name: name, Class: class, Group: "speed controller", Summary: summary, Doc: speedDoc + " " + pwmNeutralDoc,
		Place: config.DrivesJoint, Provides: config.Effort, Keys: speedControllerKeys(pwmID), Check: checkSpeedController,
		Facts: config.Facts{Speed: true, PWM: &cal, Effort: &powerChannel}}
}

// canSpeedType is the type of a CAN speed controller.
func canSpeedType(name, class, summary string, roles ...config.Role) *config.Type {
	return &config.Type{Name: name, Class: class, Group: "speed controller", Summary: summary, Doc: speedDoc,
		Place: config.DrivesJoint, Provides: config.Effort, Keys: speedControllerKeys(canID, config.CANBusKey, config.RequiredKey),
		Check: checkSpeedController, Facts: config.Facts{Speed: true, CAN: true, Roles: roles, Effort: &powerChannel}}
}

// checkSpeedController warns about effort keys that cannot take effect and
// refuses a CTRE PDP channel past 15.
func checkSpeedController(d *config.Device, c *config.Checker) {
	if p := d.Ref("pdp"); p != nil && p.Type.Power != nil && d.Has("pdp_ch") && d.Int("pdp_ch") >= p.Type.Power.Channels {
		c.Errorf(d.ValuePos("pdp_ch"), "%s: pdp_ch: channel %d is out of range 0-%d of the %s %q (a REV PDH has 0-23)", d, d.Int("pdp_ch"), p.Type.Power.Channels-1, p.Type.Power.What, p.Name)
	}
	if !d.Has("pdp_ch") {
		for _, k := range []string{"pdp", "k_eff"} {
			// A controller that measures its own current (EffortState)
			// takes its effort from k_eff without a PDP channel.
			if d.Has(k) && !(k == "k_eff" && d.Type.EffortState) {
				c.Warnf(d.KeyPos(k), "%s: %s has no effect without pdp_ch", d, k)
			}
		}
	}
}

// withKeys adds keys to a type and a sentence about them to its doc.
func withKeys(t *config.Type, doc string, keys ...config.Key) *config.Type {
	t.Keys = append(t.Keys, keys...)
	t.Doc += " " + doc
	return t
}
