package devices

import (
	"fmt"
	"strconv"
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

// pcmStatus is a PCM's Status1 frame, decoded.
type pcmStatus struct {
	Solenoids    uint8   // bit n: channel n's output is on
	CompressorOn bool    // the compressor is running
	ClosedLoop   bool    // closed-loop control is enabled
	PressureFull bool    // the pressure switch is open: the tanks are full
	Current      float64 // compressor current, A, 0 to 31.97
}

// decodePCMStatus decodes Status1's bytes: b0 the solenoid outputs; b1
// bit 0 compressor on, bit 6 closed loop enabled, bit 7 pressure switch;
// current = ((b4 & 0x3F) << 4 | b5 >> 4) × 0.03125 A.
func decodePCMStatus(b [8]byte) pcmStatus {
	raw := uint16(b[4]&0x3F)<<4 | uint16(b[5]>>4)
	return pcmStatus{
		Solenoids:    b[0],
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
// compressor with its pcm_id (Env.Shared key "pcm/<id>"). It registers no
// handles. Read, which the loop runs before its users', decodes Status1;
// a status older than statusTimeout is stale, Read returns errStale
// (wrapping hal.ErrTimeout) and the users fall back to their commanded
// values. The users set their bits in their Write; the PCM's Write, which
// runs after theirs, sends Control1 when the bits change and every
// pcmControlPeriod. Halt clears every bit and closed-loop control and
// sends at once.
type pcm struct {
	id  int
	can hal.CANBus

	status pcmStatus
	fresh  bool // status is no older than statusTimeout

	// What the users ask for this cycle.
	solenoids  uint8
	closedLoop bool

	last   hal.Frame
	lastAt time.Duration
	sent   bool

	errStale error
	wErr     opError
}

var _ Device = (*pcm)(nil)

// sharedPCM returns the PCM of that CAN id, binding it the first time.
func sharedPCM(env *Env, id int) (*pcm, error) {
	d, err := env.Shared("pcm/"+strconv.Itoa(id), func() (Device, error) {
		can := env.HAL.CAN()
		if can == nil {
			return nil, fmt.Errorf("pcm %d: no CAN bus: %w", id, hal.ErrNoDevice)
		}
		return &pcm{
			id: id, can: can,
			errStale: fmt.Errorf("pcm %d: status frame 0x%08X: %w", id, pcmStatus1ID+id, hal.ErrTimeout),
			wErr:     opError{op: fmt.Sprintf("pcm %d: send control frame", id)},
		}, nil
	})
	if err != nil {
		return nil, err
	}
	p, ok := d.(*pcm)
	if !ok {
		return nil, fmt.Errorf("shared device pcm/%d is a %T", id, d)
	}
	return p, nil
}

func (p *pcm) Name() string { return "pcm " + strconv.Itoa(p.id) }

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
	f := encodePCMControl(p.id, p.solenoids, p.closedLoop)
	if p.sent && f == p.last && now-p.lastAt < pcmControlPeriod {
		return nil
	}
	return p.send(f, now)
}

func (p *pcm) send(f hal.Frame, now time.Duration) error {
	if err := p.can.Send(f); err != nil {
		return p.wErr.wrap(err)
	}
	p.last, p.lastAt, p.sent = f, now, true
	return nil
}

func (p *pcm) Halt() error {
	p.solenoids, p.closedLoop = 0, false
	return p.send(encodePCMControl(p.id, 0, false), p.lastAt)
}

// set turns the bits of mask on or off.
func (p *pcm) set(mask uint8, on bool) {
	if on {
		p.solenoids |= mask
	} else {
		p.solenoids &^= mask
	}
}
