package sim

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

func init() { registerPart("cancoder", part{sensor: cancoderSensor}) }

// cancoderSensor puts an emulated CANcoder on the joint it measures, at
// its id on its bus, sending a stand-in status frame (FRC encoder type,
// CTRE's manufacturer: Phoenix 6's frames are closed) every 20 ms so that
// `frcd can scan` and the inventory find it.
func cancoderSensor(s *Sim, d *config.Device, j *joint) {
	per := d.JointPerRotation()
	b := s.busFor(d.CANBus())
	c := &cancoder{s: s, bus: d.CANBus(), id: d.Int("id"), j: j, perRot: per,
		cb: b, slot: b.addSlot(frc.FRCID(frc.DevEncoder, frc.MfrCTRE, 0x50, d.Int("id")))}
	s.cancoders = append(s.cancoders, c)
	s.canNodes[d.Name] = &c.node
	s.addSender(c)
}

// send puts the CANcoder's position (int32, 1/4096 rotation) on its bus
// every 20 ms, unless silenced.
func (c *cancoder) send(s *Sim, at time.Duration, tick int) {
	if tick%2 != 0 || c.silent() || c.cb == nil {
		return
	}
	f := hal.Frame{Len: 8}
	if c.j != nil {
		binary.LittleEndian.PutUint32(f.Data[0:], uint32(int32(max(math.MinInt32, min(math.MaxInt32, math.Round(c.j.pos/c.perRot*4096))))))
	}
	c.cb.put(c.slot, f, at)
}
