package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(pdpDriver) }

// pdpDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var pdpDriver = Driver{Type: pdpType, New: newPDP, CAN: &CANTraffic{Kind: canPDP, NumberKey: "id"}, Needs: hal.CapCAN}

var pdpType = &config.Type{
	Name: "pdp", Class: "PowerDistribution", Group: "special",
	Summary: "A CTRE Power Distribution Panel on the CAN bus.",
	Doc: "State: a PDPState: bus voltage, temperature, total current, power and energy, and the current of each of the " +
		"16 channels. Speed controllers with pdp_ch take their joint's effort from it. Several PDPs are allowed for " +
		"robots outside FRC rules.",
	Place:   config.YAMLOnly,
	Example: "{name: pdp, type: pdp, id: 0}",
	Keys: []config.Key{
		{Name: "id", Kind: config.Int, Required: true, Resource: config.CANPower, Scope: "can_bus", Doc: "The CAN id of the PDP (usually 0)."},
		config.CANBusKey, config.RequiredKey,
	},
	Facts: config.Facts{Power: &config.Power{What: "PDP", Channels: 16, DefaultID: 0}, CAN: true},
}

// CTRE Power Distribution Panel frames (PROTOCOLS.md, "CTRE PDP"); add the
// PDP's CAN id to each.
const (
	pdpStatus1ID = 0x08041400 // API 0x50: channels 1-6
	pdpStatus2ID = 0x08041440 // API 0x51: channels 7-12
	pdpStatus3ID = 0x08041480 // API 0x52: channels 13-16, voltage, temperature
	pdpEnergyID  = 0x08041740 // API 0x5D: total current, power, energy

	pdpCurrentLSB = 0.125 // A per unit of a channel's or the total current
	pdpPowerLSB   = 0.125 // W per unit
)

// decodePDPCurrents decodes the six 10-bit channel currents packed high
// bits first in a status frame (Status3 uses the first four), in A, 0 to
// 127.875.
func decodePDPCurrents(b [8]byte) [6]float64 {
	raw := [6]uint16{
		uint16(b[0])<<2 | uint16(b[1]>>6),
		uint16(b[1]&0x3F)<<4 | uint16(b[2]>>4),
		uint16(b[2]&0x0F)<<6 | uint16(b[3]>>2),
		uint16(b[3]&0x03)<<8 | uint16(b[4]),
		uint16(b[5])<<2 | uint16(b[6]>>6),
		uint16(b[6]&0x3F)<<4 | uint16(b[7]>>4),
	}
	var a [6]float64
	for i, r := range raw {
		a[i] = float64(r) * pdpCurrentLSB
	}
	return a
}

// decodePDPStatus3 decodes Status3's voltage (b6 × 0.05 + 4.0 V, 4 to
// 16.75 V) and temperature (b7 × 1.03250836957542 − 67.8564500484966 °C);
// its channels are the first four of decodePDPCurrents, b5 the battery's
// resistance (unused).
func decodePDPStatus3(b [8]byte) (volts, celsius float64) {
	return float64(b[6])*0.05 + 4.0, float64(b[7])*1.03250836957542 - 67.8564500484966
}

// decodePDPEnergy decodes the Energy frame: b0 Tmeas, the measuring
// period (ms); total current = (b1 << 4 | b2 >> 4) × 0.125 A; power =
// ((b2 & 0xF) << 12 | b3 << 4 | b4 >> 4) × 0.125 W; energy = the 28 bits
// (b4 & 0xF) << 24 | b5 << 16 | b6 << 8 | b7, × 0.125 × 0.001 × Tmeas J.
// The PDP accumulates the energy itself (its sum of power samples), so it
// is the energy since the PDP last reset it: Control1's 0x40, or power-on.
func decodePDPEnergy(b [8]byte) (amps, watts, joules float64) {
	tmeas := float64(b[0])
	iRaw := uint32(b[1])<<4 | uint32(b[2]>>4)
	pRaw := uint32(b[2]&0x0F)<<12 | uint32(b[3])<<4 | uint32(b[4]>>4)
	eRaw := uint32(b[4]&0x0F)<<24 | uint32(b[5])<<16 | uint32(b[6])<<8 | uint32(b[7])
	return float64(iRaw) * pdpCurrentLSB, float64(pRaw) * pdpPowerLSB, float64(eRaw) * 0.125 * 0.001 * tmeas
}

// pdp reads a CTRE PDP at CAN id `id` on `can_bus` from the four frames it sends
// (Status1-3 and Energy; all four are needed) into its name/pdp PDPState.
// Channels are numbered from 0: PROTOCOLS.md's channels 1-16 (the PDP's
// labels 0-15) are Current[0..15]. TotalEnergy is the Energy frame's
// figure, the PDP's own running sum since it was last reset. Each frame
// older than statusTimeout, or never received, leaves its part of the
// state as it was and makes Read return errStale (wrapping
// hal.ErrTimeout).
type pdp struct {
	name  string
	can   hal.CANBus
	ids   [4]uint32 // Status1, Status2, Status3, Energy
	state interfaces.PDPState

	errStale error
}

var _ Device = (*pdp)(nil)

func newPDP(d *config.Device, env *Env) (Device, error) {
	id := d.Int("id")
	if id < 0 || id > 62 {
		return nil, fmt.Errorf("CAN id %d: want 0-62", id)
	}
	can, err := openBus(env, d.CANBus())
	if err != nil {
		return nil, err
	}
	n := uint32(id)
	p := &pdp{
		name: d.Name, can: can,
		ids:      [4]uint32{pdpStatus1ID + n, pdpStatus2ID + n, pdpStatus3ID + n, pdpEnergyID + n},
		errStale: fmt.Errorf("%s: status frames: %w", d, hal.ErrTimeout),
	}
	p.state.Channels = 16
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.PDP, &p.state); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *pdp) Name() string { return p.name }

func (p *pdp) Read(now, dt time.Duration) error {
	stale := false
	for i, id := range p.ids {
		f, at, ok := p.can.Latest(id)
		if !ok || now-at > statusTimeout {
			stale = true
			continue
		}
		switch i {
		case 0, 1:
			c := decodePDPCurrents(f.Data)
			copy(p.state.Current[6*i:6*i+6], c[:])
		case 2:
			c := decodePDPCurrents(f.Data)
			copy(p.state.Current[12:16], c[:4])
			p.state.Voltage, p.state.Temperature = decodePDPStatus3(f.Data)
		case 3:
			p.state.TotalCurrent, p.state.TotalPower, p.state.TotalEnergy = decodePDPEnergy(f.Data)
		}
	}
	if stale {
		return p.errStale
	}
	return nil
}

// Write does nothing: the PDP takes no commands.
func (p *pdp) Write(now, dt time.Duration) error { return nil }

// Halt does nothing: the PDP has no outputs.
func (p *pdp) Halt() error { return nil }
