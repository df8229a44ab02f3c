package sim

import "github.com/frcd/frcd/config"

func init() { registerPart("rev_ph", part{bus: phBus}) }

// phBus puts a REV Pneumatic Hub on its bus (moduleFor): the same one the
// solenoids and compressor with module_type rev_ph and its id sit on.
func phBus(s *Sim, d *config.Device, _ *powerOf) {
	s.canNodes[d.Name] = &s.moduleFor(d.CANBus(), true, d.Int("id")).node
}
