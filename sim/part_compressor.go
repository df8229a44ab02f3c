package sim

func init() { registerPart("compressor", part{bus: moduleBus}) }

// A compressor is its pneumatics module's (moduleBus): the PCM or PH runs
// it closed loop on its pressure switch, which the module's tank model
// drives.
