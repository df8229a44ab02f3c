package config

// The spec's "Supported special WPILib objects": YAML only, no URDF element.

var compressor = &Type{
	Name: "compressor", Class: "Compressor", Group: "special",
	Summary: "The compressor output of a PCM, run closed-loop on its pressure switch.",
	Doc: "State: whether closed-loop control is on, the pressure switch and the compressor's current. " +
		"Command: a BinaryCommand enabling or disabling closed-loop control.",
	Place: YAMLOnly,
	Keys:  []Key{pcmIDKey, canBusKey, requiredKey},
	Check: func(d *Device, c *Checker) {
		c.Claim(d, PCMCompressor, "", d.Int("pcm_id"), d.ValuePos("pcm_id"))
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
		{Name: "id", Kind: Int, Required: true, Resource: CANPower, Doc: "The CAN id of the PDP (usually 0)."},
		canBusKey, requiredKey,
	},
}

var specialTypes = []*Type{compressor, pdp}
