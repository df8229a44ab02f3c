package config

// The spec's "Supported special WPILib objects": YAML only, no URDF element.

var compressor = &Type{
	Name: "compressor", Class: "Compressor", Group: "special",
	Summary: "The compressor output of a PCM or PH, run closed-loop on its pressure switch.",
	Doc: "State: whether closed-loop control is on, the pressure switch and the compressor's current. " +
		"Command: a BinaryCommand enabling or disabling closed-loop control.",
	Place: YAMLOnly,
	Keys:  []Key{pcmIDKey, moduleTypeKey, canBusKey, requiredKey},
	Check: func(d *Device, c *Checker) {
		pos := d.Pos
		if d.Has("pcm_id") {
			pos = d.ValuePos("pcm_id")
		}
		c.Claim(d, PCMCompressor, moduleLabel(d), 0, pos)
	},
}

var pdp = &Type{
	Name: "pdp", Class: "PowerDistribution", Group: "special",
	Summary: "A CTRE Power Distribution Panel on the CAN bus.",
	Doc: "State: a PDPState: bus voltage, temperature, total current, power and energy, and the current of each of the " +
		"16 channels. Speed controllers with pdp_ch take their joint's effort from it. Several PDPs are allowed for " +
		"robots outside FRC rules.",
	Place: YAMLOnly,
	Keys: []Key{
		{Name: "id", Kind: Int, Required: true, Resource: CANPower, Scope: "can_bus", Doc: "The CAN id of the PDP (usually 0)."},
		canBusKey, requiredKey,
	},
}

var revPDH = &Type{
	Name: "rev_pdh", Class: "PowerDistribution", Group: "special",
	Summary: "A REV Power Distribution Hub on the CAN bus (WPILib's PowerDistribution, ModuleType.kRev).",
	Doc: "State: a PDPState: bus voltage, total current and the current of each of the 24 channels (no temperature, " +
		"power or energy: the PDH does not report them). Speed controllers with pdp_ch take their joint's effort from it, " +
		"as from a PDP. Its switchable channel is a BinaryCommand (on or off) with the PDH's reported state as a BinaryState.",
	Place:   YAMLOnly,
	Example: "{name: pdh, type: rev_pdh, id: 1}",
	Keys: []Key{
		{Name: "id", Kind: Int, Required: true, Resource: CANPower, Scope: "can_bus", Doc: "The CAN id of the PDH (usually 1; REV devices take 1-62)."},
		canBusKey, requiredKey,
	},
	Check: checkREVID,
}

var revPH = &Type{
	Name: "rev_ph", Class: "PneumaticHub", Group: "special",
	Summary: "A REV Pneumatic Hub on the CAN bus: 16 solenoid channels and a compressor.",
	Doc: "Solenoids, double solenoids and a compressor sit on it with module_type: rev_ph and pcm_id its id. The entry " +
		"itself is optional (a hub the solenoids use exists without it); it gives the hub a name, a bus and `required`, " +
		"and its state: a CompressorState (closed loop, running, pressure switch, current) as the hub reports it.",
	Place:   YAMLOnly,
	Example: "{name: hub, type: rev_ph, id: 1}",
	Keys: []Key{
		{Name: "id", Kind: Int, Required: true, Resource: CANPneumatics, Scope: "can_bus", Doc: "The CAN id of the hub (usually 1; REV devices take 1-62)."},
		canBusKey, requiredKey,
	},
	Check: checkREVID,
}

// checkREVID refuses CAN id 0, which REV devices do not take.
func checkREVID(d *Device, c *Checker) {
	if d.Has("id") && d.Int("id") == 0 {
		c.Errorf(d.ValuePos("id"), "%s: REV devices take CAN ids 1-62, not 0", d)
	}
}

var specialTypes = []*Type{compressor, pdp, revPDH, revPH, builtInAccel}
