package sim

import "github.com/frcd/frcd/config"

func init() { registerPart("pdp", part{bus: pdpBus}) }

// pdpBus puts a CTRE PDP on its bus: its four status frames, its control
// frame (sticky fault clearing), and its place among the power devices.
func pdpBus(s *Sim, d *config.Device, pw *powerOf) {
	bus := s.busFor(d.CANBus())
	p := &pdp{bus: bus, id: d.Int("id")}
	for k, base := range []uint32{pdpStatus1, pdpStatus2, pdpStatus3, pdpEnergy} {
		p.slots[k] = bus.addSlot(base + uint32(p.id))
	}
	bus.pdps[pdpControl1+uint32(p.id)] = p
	s.pdps = append(s.pdps, p)
	pw.pdp[d] = p
	s.canNodes[d.Name] = &p.node
}
