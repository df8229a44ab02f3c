package devices

import (
	"fmt"
	"strings"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

// pneuStatus is what a pneumatics module (CTRE PCM or REV PH) reports.
type pneuStatus struct {
	Solenoids    uint16  // bit n: channel n's output is on
	CompressorOn bool    // the compressor is running
	ClosedLoop   bool    // closed-loop (pressure switch) control is enabled
	PressureFull bool    // the pressure switch reads full
	Current      float64 // compressor current, A
}

// pneumatics is the part of a pneumatics module its users share: the
// solenoids, double solenoids and compressor on it read its status and
// set their bits and closed-loop enable in it; the module's own Read and
// Write (pcm, ph) decode its status frames and send its control frames.
type pneumatics struct {
	name     string // "pcm 0", "ph 1 on CAN bus \"can1\"": its Device name
	label    string // "PCM 0", "PH 1 on CAN bus \"can1\"", for messages
	channels int    // 8 (PCM) or 16 (PH)

	status pneuStatus
	fresh  bool // status is no older than statusTimeout

	// What the users ask for this cycle.
	solenoids  uint16
	closedLoop bool

	errStale error
}

// set turns the bits of mask on or off.
func (p *pneumatics) set(mask uint16, on bool) {
	if on {
		p.solenoids |= mask
	} else {
		p.solenoids &^= mask
	}
}

// moduleBus is what a module's own Read and Write (pcm, ph) share: its
// CAN id and bus, and its control frame (PCM Control1, PH SetAll), sent
// when it changes and every control period.
type moduleBus struct {
	id  int
	can hal.CANBus

	last   hal.Frame
	lastAt time.Duration
	sent   bool

	wErr opError
}

func newModuleBus(id int, can hal.CANBus, name string) moduleBus {
	return moduleBus{id: id, can: can, wErr: opError{op: name + ": send control frame"}}
}

// sendEvery sends the control frame f unless it is the one sent less
// than period ago.
func (m *moduleBus) sendEvery(f hal.Frame, now, period time.Duration) error {
	if m.sent && f == m.last && now-m.lastAt < period {
		return nil
	}
	return m.send(f, now)
}

// send sends the control frame f at once, as sent at now.
func (m *moduleBus) send(f hal.Frame, now time.Duration) error {
	if err := m.can.Send(f); err != nil {
		return m.wErr.wrap(err)
	}
	m.last, m.lastAt, m.sent = f, now, true
	return nil
}

// pneumaticsDevice is a shared module: a Device with its pneumatics.
type pneumaticsDevice interface {
	Device
	module() *pneumatics
}

// sharedPneumatics returns the module a solenoid, double solenoid or
// compressor sits on (module_type, pcm_id, can_bus), binding it the first
// time (Env.Shared key "pcm/<id>" or "ph/<id>", "@<bus>" appended on a
// named bus).
func sharedPneumatics(env *Env, d *config.Device) (*pneumatics, error) {
	typ, id := config.PneumaticsModule(d)
	return sharedModule(env, typ, id, d.CANBus())
}

// sharedModule returns the pneumatics module of that type
// (config.ModuleCTREPCM or ModuleREVPH) and CAN id on that bus.
func sharedModule(env *Env, typ string, id int, bus string) (*pneumatics, error) {
	kind := "pcm"
	if typ == config.ModuleREVPH {
		kind = "ph"
	}
	key, suffix := fmt.Sprintf("%s/%d", kind, id), ""
	if bus != "" {
		key += "@" + bus
		suffix = fmt.Sprintf(" on CAN bus %q", bus)
	}
	m := pneumatics{name: fmt.Sprintf("%s %d%s", kind, id, suffix), label: fmt.Sprintf("%s %d%s", strings.ToUpper(kind), id, suffix)}
	dev, err := env.Shared(key, func() (Device, error) {
		can, err := openBus(env, bus)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.label, err)
		}
		if typ == config.ModuleREVPH {
			return newPH(id, m, can), nil
		}
		return newPCM(id, m, can), nil
	})
	if err != nil {
		return nil, err
	}
	pd, ok := dev.(pneumaticsDevice)
	if !ok {
		return nil, fmt.Errorf("shared device %s is a %T", key, dev)
	}
	return pd.module(), nil
}

// channelMask is the bit of a module channel, or an error naming the
// channels the module has.
func channelMask(p *pneumatics, ch int) (uint16, error) {
	if ch < 0 || ch >= p.channels {
		return 0, fmt.Errorf("%s channel %d: want 0-%d", p.label, ch, p.channels-1)
	}
	return 1 << ch, nil
}

// compressorState is the compressor as the module reports it.
func (p *pneumatics) compressorState() interfaces.CompressorState {
	st := &p.status
	return interfaces.CompressorState{ClosedLoop: st.ClosedLoop, Running: st.CompressorOn, Full: st.PressureFull, Current: st.Current}
}
