package sim

import "github.com/frcd/frcd/config"

func init() { registerPart("rev_pdh", part{bus: pdhBus}) }

// pdhBus puts a REV PDH on its bus: its five status frames and its
// switchable channel's frame.
func pdhBus(s *Sim, d *config.Device, pw *powerOf) {
	bus := s.busFor(d.CANBus())
	p := &pdh{bus: bus, id: d.Int("id")}
	for k := range p.slots {
		p.slots[k] = bus.addSlot(uint32(pdhStatus0 + 0x40*k + p.id))
	}
	bus.pdhs[uint32(pdhSetSwitch+p.id)] = p
	s.pdhs = append(s.pdhs, p)
	pw.pdh[d] = p
	s.canNodes[d.Name] = &p.node
}
