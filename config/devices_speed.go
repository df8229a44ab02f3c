package config

// The spec's speed controllers: "Simple Speed Controller (PWM & no-feedback
// CAN)", the Nidec Brushless, and the Talon SRX its "Smart Speed
// Controller (CAN)" TODO leaves open.

func speedControllerKeys(id Key, extra ...Key) []Key {
	keys := []Key{
		id,
		{Name: "inverted", Kind: Bool, Default: false, Doc: "Whether to invert the direction of the motor."},
		{Name: "pdp", Kind: String, Ref: []string{"pdp", "rev_pdh"}, DefaultDoc: "the PDP with id 0, else the PDH with id 1", Doc: "The name of the PDP or REV PDH powering this motor controller."},
		{Name: "pdp_ch", Kind: Int, Resource: PDPChannel, Scope: "pdp", Doc: "The channel of the PDP (0-15) or PDH (0-23) powering this motor controller; its current × k_eff is the joint's effort."},
		{Name: "k_eff", Kind: Float, Default: 1.0, Unit: "N·m/A or N/A", Doc: "The current to effort scaling: motor torque per amp times the gear reduction."},
	}
	return append(keys, extra...)
}

var pwmID = Key{Name: "id", Kind: Int, Required: true, Resource: PWM, Doc: "The PWM channel of the motor controller (10-19 are on the MXP)."}
var canID = Key{Name: "id", Kind: Int, Required: true, Resource: CANMotor, Scope: "can_bus", Doc: "The CAN id of the motor controller."}

const speedDoc = "State: a JointState that the controller itself does not fill: sensors on its joint do (an encoder's position " +
	"and velocity, the PDP channel's current × k_eff as effort). Command: a JointHandle on the Voltage, Position, " +
	"Velocity and Effort interfaces; position, velocity and effort commands run through a PID on the roboRIO."

func simpleController(name, class, summary string) *Type {
	return &Type{Name: name, Class: class, Group: "speed controller", Summary: summary, Doc: speedDoc,
		Place: DrivesJoint, Provides: Effort, Keys: speedControllerKeys(pwmID), Check: checkSpeedController}
}

// checkSpeedController warns about effort keys that cannot take effect and
// refuses a CTRE PDP channel past 15.
func checkSpeedController(d *Device, c *Checker) {
	if p := d.Ref("pdp"); p != nil && p.Type == pdp && d.Has("pdp_ch") && d.Int("pdp_ch") > 15 {
		c.Errorf(d.ValuePos("pdp_ch"), "%s: pdp_ch: channel %d is out of range 0-15 of the PDP %q (a REV PDH has 0-23)", d, d.Int("pdp_ch"), p.Name)
	}
	if !d.Has("pdp_ch") {
		for _, k := range []string{"pdp", "k_eff"} {
			if d.Has(k) {
				c.Warnf(d.KeyPos(k), "%s: %s has no effect without pdp_ch", d, k)
			}
		}
	}
}

var speedControllerTypes = []*Type{
	simpleController("dmc60", "DMC60", "A Digilent DMC 60 on PWM."),
	simpleController("jaguar", "Jaguar", "A Texas Instruments Jaguar on PWM."),
	simpleController("pwm_talon_srx", "PWMTalonSRX", "A CTRE Talon SRX driven by PWM."),
	simpleController("pwm_victor_spx", "PWMVictorSPX", "A CTRE Victor SPX driven by PWM."),
	simpleController("sd540", "SD540", "A Mindsensors SD540 on PWM."),
	simpleController("spark", "Spark", "A REV Spark on PWM."),
	simpleController("talon", "Talon", "A CTRE Talon (the PWM one; see talon_srx for CAN)."),
	simpleController("victor", "Victor", "A VEX Victor 888 on PWM."),
	simpleController("victor_sp", "VictorSP", "A VEX Victor SP on PWM."),
	{Name: "nidec", Class: "NidecBrushless", Group: "speed controller",
		Summary: "A Nidec Brushless motor: PWM for speed plus a DIO channel for enable.",
		Doc:     speedDoc, Place: DrivesJoint, Provides: Effort, Check: checkSpeedController,
		Keys: speedControllerKeys(pwmID,
			Key{Name: "dio_channel", Kind: Int, Required: true, Resource: DIO, Doc: "The digital channel of the Nidec."})},
	{Name: "can_victor_spx", Class: "VictorSPX", Group: "speed controller",
		Summary: "A CTRE Victor SPX on the CAN bus (no feedback).", Doc: speedDoc,
		Place: DrivesJoint, Provides: Effort, Keys: speedControllerKeys(canID, canBusKey, requiredKey), Check: checkSpeedController},
	{Name: "talon_srx", Class: "TalonSRX", Group: "speed controller",
		Summary: "A CTRE Talon SRX on the CAN bus; a Pigeon IMU may ride on it.", Doc: speedDoc,
		Place: DrivesJoint, Provides: Effort, Keys: speedControllerKeys(canID, canBusKey, requiredKey), Check: checkSpeedController},
}
