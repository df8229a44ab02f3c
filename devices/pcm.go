package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/hal"
)

// CTRE Pneumatics Control Module frames (PROTOCOLS.md, "CTRE PCM"); add
// the PCM's CAN id to each.
const (
	pcmStatus1ID  = 0x09041400 // Status1, API 0x50: solenoid outputs, compressor, current
	pcmControl1ID = 0x09041C00 // Control1, API 0x70: solenoid bits, closed-loop enable
	// pcmControlPeriod is how often Control1 is re-sent when unchanged.
	pcmControlPeriod = 20 * time.Millisecond
	// statusTimeout is the age past which a status frame is stale, as the
	// WPILib HAL has it.
	statusTimeout = 100 * time.Millisecond
	// pcmCurrentLSB is the compressor current's unit, A.
	pcmCurrentLSB = 0.03125
)

// decodePCMStatus decodes Status1's bytes: b0 the solenoid outputs; b1
// bit 0 compressor on, bit 6 closed loop enabled, bit 7 pressure switch;
// current = ((b4 & 0x3F) << 4 | b5 >> 4) × 0.03125 A.
func decodePCMStatus(b [8]byte) pneuStatus {
	raw := uint16(b[4]&0x3F)<<4 | uint16(b[5]>>4)
	return pneuStatus{
		Solenoids:    uint16(b[0]),
		CompressorOn: b[1]&0x01 != 0,
		ClosedLoop:   b[1]&0x40 != 0,
		PressureFull: b[1]&0x80 != 0,
		Current:      float64(raw) * pcmCurrentLSB,
	}
}

// encodePCMControl builds Control1 for the PCM at CAN id id: token bytes
// b0-1 zero, b2 one bit per solenoid channel, b3 bit 6 closedLoopEnable,
// the one-shot bytes zero.
func encodePCMControl(id int, solenoids uint8, closedLoop bool) hal.Frame {
	f := hal.Frame{ID: pcmControl1ID + uint32(id), Len: 8}
	f.Data[2] = solenoids
	if closedLoop {
		f.Data[3] = 0x40
	}
	return f
}

// pcm is a CTRE PCM shared by the solenoids, double solenoids and the
// compressor with its module_type ctre_pcm, pcm_id and can_bus (see
// sharedPneumatics). It registers no handles. Read, which the loop runs
// before its users', decodes Status1; a status older than statusTimeout
// is stale, Read returns errStale (wrapping hal.ErrTimeout) and the users
// fall back to their commanded values. The users set their bits in their
// Write; the PCM's Write, which runs after theirs, sends Control1 when the
// bits change and every pcmControlPeriod. Halt clears every bit and
// closed-loop control and sends at once.
type pcm struct {
	pneumatics
	moduleBus
}

var _ Device = (*pcm)(nil)

// newPCM makes the PCM at CAN id id on a bus; m holds its names.
func newPCM(id int, m pneumatics, can hal.CANBus) *pcm {
	m.channels = 8
	m.errStale = fmt.Errorf("%s: status frame 0x%08X: %w", m.name, pcmStatus1ID+id, hal.ErrTimeout)
	return &pcm{pneumatics: m, moduleBus: newModuleBus(id, can, m.name)}
}

func (p *pcm) module() *pneumatics { return &p.pneumatics }

func (p *pcm) Name() string { return p.name }

func (p *pcm) Read(now, dt time.Duration) error {
	f, at, ok := p.can.Latest(pcmStatus1ID + uint32(p.id))
	if !ok || now-at > statusTimeout {
		p.fresh = false
		return p.errStale
	}
	p.status, p.fresh = decodePCMStatus(f.Data), true
	return nil
}

func (p *pcm) Write(now, dt time.Duration) error {
	return p.sendEvery(encodePCMControl(p.id, uint8(p.solenoids), p.closedLoop), now, pcmControlPeriod)
}

func (p *pcm) Halt() error {
	p.solenoids, p.closedLoop = 0, false
	return p.send(encodePCMControl(p.id, 0, false), p.lastAt)
}
