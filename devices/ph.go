package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/hal"
)

// REV Pneumatic Hub frames (PROTOCOLS.md "REV PH"; bit layouts checked
// against allwpilib's rev/PHFrames); add the hub's CAN id to each.
const (
	phCompressorConfigID = 0x09050840 // 5 bytes: min, max pressure (analog V × 1000, LE), b4 bit 0 force disable, bit 1 use digital
	phSetAllID           = 0x09050C00 // 4 bytes: 2 bits per channel, 0 off, 1 on, 2 pulse
	phStatus0ID          = 0x09051800 // solenoid outputs, pressure switch, compressor on, compressor config
	phStatus1ID          = 0x09051840 // bus voltage, solenoid voltage, compressor and solenoid currents

	phControlPeriod = 20 * time.Millisecond // SetAll is re-sent this often (WPILib's default control period)
	phVoltsLSB      = 0.0625                // Status1 b0: V per unit, above 4 V
	phCurrentLSB    = 0.125                 // Status1 b4, b5: A per unit
)

// PH compressor configurations, as Status0 b7 bits 3-4 report them.
const (
	phConfigDisabled = 0
	phConfigDigital  = 1
)

// decodePHStatus decodes Status0 and Status1: Status0 b0-1 the solenoid
// outputs (channel n at bit n of b0 | b1 << 8), b4 bit 0 the digital
// pressure switch (set: full), b7 bit 0 compressor on, bits 3-4 the
// compressor configuration (0 disabled, 1 digital, 2 analog, 3 hybrid);
// Status1 b0 bus voltage × 0.0625 + 4 V, b4 compressor current × 0.125 A.
func decodePHStatus(s0, s1 [8]byte) (st pneuStatus, volts float64) {
	return pneuStatus{
		Solenoids:    uint16(s0[0]) | uint16(s0[1])<<8,
		PressureFull: s0[4]&0x01 != 0,
		CompressorOn: s0[7]&0x01 != 0,
		ClosedLoop:   (s0[7]>>3)&3 != phConfigDisabled,
		Current:      float64(s1[4]) * phCurrentLSB,
	}, float64(s1[0])*phVoltsLSB + 4
}

// encodePHSetAll builds SetAll for the hub at CAN id id: channel n's two
// bits at bit 2(n mod 4) of byte n/4, 1 for on.
func encodePHSetAll(id int, solenoids uint16) hal.Frame {
	f := hal.Frame{ID: phSetAllID + uint32(id), Len: 4}
	for ch := 0; ch < 16; ch++ {
		if solenoids&(1<<ch) != 0 {
			f.Data[ch/4] |= 1 << (2 * (ch % 4))
		}
	}
	return f
}

// encodePHCompressorConfig builds CompressorConfig: closed loop on the
// digital pressure switch (use digital, min and max pressure 0), or force
// disabled.
func encodePHCompressorConfig(id int, closedLoop bool) hal.Frame {
	f := hal.Frame{ID: phCompressorConfigID + uint32(id), Len: 5}
	if closedLoop {
		f.Data[4] = 0x02
	} else {
		f.Data[4] = 0x01
	}
	return f
}

// ph is a REV Pneumatic Hub shared by the solenoids, double solenoids and
// compressor with its module_type rev_ph, pcm_id and can_bus (see
// sharedPneumatics), and by a rev_ph entry. It works as pcm does: Read
// decodes Status0 and Status1 (stale after statusTimeout: Read returns
// errStale, wrapping hal.ErrTimeout), Write sends SetAll on change and
// every phControlPeriod, and CompressorConfig (digital closed loop, or
// disabled) when the users' closed-loop enable changes or, every
// phControlPeriod, while the hub reports otherwise. Halt clears every
// channel and disables the compressor at once.
type ph struct {
	pneumatics
	moduleBus // its control frame is SetAll

	cfgClosed bool
	cfgAt     time.Duration
	cfgSent   bool
}

var _ Device = (*ph)(nil)

// newPH makes the hub at CAN id id on a bus; m holds its names.
func newPH(id int, m pneumatics, can hal.CANBus) *ph {
	m.channels = 16
	m.errStale = fmt.Errorf("%s: status frames 0x%08X, 0x%08X: %w", m.name, phStatus0ID+id, phStatus1ID+id, hal.ErrTimeout)
	return &ph{pneumatics: m, moduleBus: newModuleBus(id, can, m.name)}
}

func (p *ph) module() *pneumatics { return &p.pneumatics }

func (p *ph) Name() string { return p.name }

func (p *ph) Read(now, dt time.Duration) error {
	s0, at0, ok0 := p.can.Latest(phStatus0ID + uint32(p.id))
	s1, at1, ok1 := p.can.Latest(phStatus1ID + uint32(p.id))
	if !ok0 || !ok1 || now-at0 > statusTimeout || now-at1 > statusTimeout {
		p.fresh = false
		return p.errStale
	}
	p.status, _ = decodePHStatus(s0.Data, s1.Data) // the bus voltage has no handle
	p.fresh = true
	return nil
}

func (p *ph) Write(now, dt time.Duration) error {
	if err := p.sendEvery(encodePHSetAll(p.id, p.solenoids), now, phControlPeriod); err != nil {
		return err
	}
	disagrees := p.fresh && p.status.ClosedLoop != p.closedLoop && now-p.cfgAt >= phControlPeriod
	if !p.cfgSent || p.cfgClosed != p.closedLoop || disagrees {
		return p.sendConfig(now)
	}
	return nil
}

func (p *ph) sendConfig(now time.Duration) error {
	if err := p.can.Send(encodePHCompressorConfig(p.id, p.closedLoop)); err != nil {
		return p.wErr.wrap(err)
	}
	p.cfgClosed, p.cfgAt, p.cfgSent = p.closedLoop, now, true
	return nil
}

func (p *ph) Halt() error {
	p.solenoids, p.closedLoop = 0, false
	if err := p.send(encodePHSetAll(p.id, 0), p.lastAt); err != nil {
		return err
	}
	return p.sendConfig(p.cfgAt)
}
