package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(revPdhDriver) }

// revPdhDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var revPdhDriver = Driver{Type: revPdhType, New: newREVPDH, CAN: &CANTraffic{Kind: canREVPDH, NumberKey: "id"}, Needs: hal.CapCAN}

var revPdhType = &config.Type{
	Name: "rev_pdh", Class: "PowerDistribution", Group: "special",
	Summary: "A REV Power Distribution Hub on the CAN bus (WPILib's PowerDistribution, ModuleType.kRev).",
	Doc: "State: a PDPState: bus voltage, total current and the current of each of the 24 channels (no temperature, " +
		"power or energy: the PDH does not report them). Speed controllers with pdp_ch take their joint's effort from it, " +
		"as from a PDP. Its switchable channel is a BinaryCommand (on or off) with the PDH's reported state as a BinaryState.",
	Place:   config.YAMLOnly,
	Example: "{name: pdh, type: rev_pdh, id: 1}",
	Keys: []config.Key{
		{Name: "id", Kind: config.Int, Required: true, Resource: config.CANPower, Scope: "can_bus", Doc: "The CAN id of the PDH (usually 1; REV devices take 1-62)."},
		config.CANBusKey, config.RequiredKey,
	},
	Check: checkREVID,
	Facts: config.Facts{Power: &config.Power{What: "PDH", Channels: 24, DefaultID: 1}, CAN: true, Roles: []config.Role{config.DigitalOutputController}},
}

// REV Power Distribution Hub frames (PROTOCOLS.md "REV PDH"; bit layouts
// checked against allwpilib's rev/PDHFrames); add the hub's CAN id.
const (
	pdhSetSwitchID = 0x08050840 // 1 byte: bit 0 the switchable channel's output
	pdhStatus0ID   = 0x08051800 // channels 0-5
	pdhStatus4ID   = 0x08051900 // bus voltage, switchable channel state, total current
	pdhFramePitch  = 0x40       // Status0-4 are consecutive API indices

	pdhVoltsLSB      = 0.0078125 // Status4 bus voltage, V per unit (12 bits)
	pdhSmallLSB      = 0.0625    // channels 20-23, A per unit (8 bits)
	pdhTotalLSB      = 2.0       // Status4 b4 total current, A per unit
	pdhChannels      = 24
	pdhSwitchPeriod  = 20 * time.Millisecond // SetSwitch is re-sent this often while the hub reports otherwise
	pdhSwitchOnState = 0x10                  // Status4 b2 bit 4: the switchable channel is on
)

// decodePDHSix decodes the six 10-bit channel currents of Status0-2, in
// A: each half of the frame packs three little-endian (a = b0 | (b1 & 3)
// << 8, b = b1 >> 2 | (b2 & 0xF) << 6, c = b2 >> 4 | (b3 & 0x3F) << 4) and
// two breaker-fault bits (b3 bits 6-7).
func decodePDHSix(b [8]byte) [6]float64 {
	var a [6]float64
	for h := 0; h < 2; h++ {
		x := b[4*h : 4*h+4]
		a[3*h] = float64(uint16(x[0])|uint16(x[1]&0x03)<<8) * pdpCurrentLSB
		a[3*h+1] = float64(uint16(x[1]>>2)|uint16(x[2]&0x0F)<<6) * pdpCurrentLSB
		a[3*h+2] = float64(uint16(x[2]>>4)|uint16(x[3]&0x3F)<<4) * pdpCurrentLSB
	}
	return a
}

// decodePDHStatus3 decodes channels 18-23: 18 and 19 10-bit as the
// first two of decodePDHSix, 20-23 one byte each (b3-b6) × 0.0625 A.
func decodePDHStatus3(b [8]byte) [6]float64 {
	c := decodePDHSix(b)
	return [6]float64{c[0], c[1], float64(b[3]) * pdhSmallLSB, float64(b[4]) * pdhSmallLSB, float64(b[5]) * pdhSmallLSB, float64(b[6]) * pdhSmallLSB}
}

// decodePDHStatus4 decodes the bus voltage (b0 | (b1 & 0xF) << 8, ×
// 0.0078125 V), the switchable channel's state (b2 bit 4) and the total
// current (b4 × 2 A).
func decodePDHStatus4(b [8]byte) (volts float64, switchOn bool, amps float64) {
	return float64(uint16(b[0])|uint16(b[1]&0x0F)<<8) * pdhVoltsLSB, b[2]&pdhSwitchOnState != 0, float64(b[4]) * pdhTotalLSB
}

// revPDH reads a REV PDH at CAN id `id` on `can_bus` from its five status
// frames into its name/pdp PDPState (24 channels; no temperature, power
// or energy), as pdp does a PDP: each frame older than statusTimeout, or
// never received, leaves its part as it was and makes Read return
// errStale (wrapping hal.ErrTimeout). Its switchable channel follows the
// name/binary BinaryCommand (off when unset), sent in SetSwitch on change
// and every pdhSwitchPeriod while the hub reports otherwise; its
// name/binary BinaryState is the state the hub reports (the command
// while Status4 is stale). Halt switches it off.
type revPDH struct {
	name  string
	can   hal.CANBus
	id    int
	state interfaces.PDPState

	cmd       interfaces.BinaryCommand
	sw        interfaces.BinaryState
	swFresh   bool
	reported  bool // the hub's switch state, when swFresh
	commanded bool
	sent      bool
	sentAt    time.Duration

	errStale error
	wErr     opError
}

var _ Device = (*revPDH)(nil)

func newREVPDH(d *config.Device, env *Env) (Device, error) {
	id := d.Int("id")
	if id < 1 || id > 62 {
		return nil, fmt.Errorf("CAN id %d: want 1-62", id)
	}
	can, err := openBus(env, d.CANBus())
	if err != nil {
		return nil, err
	}
	p := &revPDH{name: d.Name, can: can, id: id,
		errStale: fmt.Errorf("%s: status frames: %w", d, hal.ErrTimeout), wErr: newOpError(d, "set the switchable channel")}
	p.state.Channels = pdhChannels
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.PDP, &p.state); err != nil {
		return nil, err
	}
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.Binary, &p.sw); err != nil {
		return nil, err
	}
	if err := interfaces.RegisterCommand(env.Handles, d.Name, d.Name, interfaces.Binary, &p.cmd); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *revPDH) Name() string { return p.name }

func (p *revPDH) Read(now, dt time.Duration) error {
	stale := false
	p.swFresh = false
	for k := 0; k < 5; k++ {
		f, at, ok := p.can.Latest(uint32(pdhStatus0ID + pdhFramePitch*k + p.id))
		if !ok || now-at > statusTimeout {
			stale = true
			continue
		}
		switch k {
		case 0, 1, 2:
			c := decodePDHSix(f.Data)
			copy(p.state.Current[6*k:6*k+6], c[:])
		case 3:
			c := decodePDHStatus3(f.Data)
			copy(p.state.Current[18:24], c[:])
		case 4:
			p.state.Voltage, p.reported, p.state.TotalCurrent = decodePDHStatus4(f.Data)
			p.swFresh = true
		}
	}
	if p.swFresh {
		p.sw.Value = p.reported
	} else {
		p.sw.Value = p.commanded
	}
	if stale {
		return p.errStale
	}
	return nil
}

func (p *revPDH) Write(now, dt time.Duration) error {
	on := p.cmd.Set && p.cmd.Value
	if p.sent && on == p.commanded && (!p.swFresh || p.reported == on || now-p.sentAt < pdhSwitchPeriod) {
		return nil
	}
	return p.send(on, now)
}

func (p *revPDH) send(on bool, now time.Duration) error {
	f := hal.Frame{ID: pdhSetSwitchID + uint32(p.id), Len: 1}
	if on {
		f.Data[0] = 1
	}
	p.commanded = on
	if err := p.can.Send(f); err != nil {
		return p.wErr.wrap(err)
	}
	p.sent, p.sentAt = true, now
	return nil
}

// Halt switches the switchable channel off.
func (p *revPDH) Halt() error {
	p.sw.Value = false
	return p.send(false, p.sentAt)
}

// checkREVID refuses CAN id 0, which REV devices do not take.
func checkREVID(d *config.Device, c *config.Checker) {
	if d.Has("id") && d.Int("id") == 0 {
		c.Errorf(d.ValuePos("id"), "%s: REV devices take CAN ids 1-62, not 0", d)
	}
}
