package sim

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

// canKey is a device by its bus and CAN id.
type canKey struct {
	bus string
	id  int
}

// moduleKey is a pneumatics module by its bus, type and CAN id.
type moduleKey struct {
	bus string
	rev bool
	id  int
}

// powerOf maps the YAML power distribution devices to their emulations.
type powerOf struct {
	pdp map[*config.Device]*pdp
	pdh map[*config.Device]*pdh
}

// canDevices makes the emulated CAN devices the YAML's frame-level
// devices stand for (PDPs, PDHs, PCMs and PHs), each on its can_bus,
// through their types' parts.
func (s *Sim) canDevices(c *config.File) powerOf {
	pw := powerOf{pdp: map[*config.Device]*pdp{}, pdh: map[*config.Device]*pdh{}}
	for _, d := range c.Devices {
		if d.Type == nil {
			continue
		}
		s.busFor(d.CANBus()) // every bus the YAML names, in file order
		if wire := partOf(d.Type).bus; wire != nil {
			wire(s, d, &pw)
		}
	}
	return pw
}

// moduleBus puts the pneumatics module an entry sits on (moduleOf) on its
// bus: the part of a solenoid, double solenoid or compressor.
func moduleBus(s *Sim, d *config.Device, _ *powerOf) { s.canNodes[d.Name] = &s.moduleOf(d).node }

// moduleOf is the pneumatics module a solenoid, double solenoid or
// compressor sits on.
func (s *Sim) moduleOf(d *config.Device) *pcm {
	typ, id := config.PneumaticsModule(d)
	return s.moduleFor(d.CANBus(), typ == config.ModuleREVPH, id)
}

// moduleFor returns the PCM (or, rev, PH) of that CAN id on that bus,
// adding it the first time.
func (s *Sim) moduleFor(bus string, rev bool, id int) *pcm {
	k := moduleKey{bus, rev, id}
	if p := s.modules[k]; p != nil {
		return p
	}
	b := s.busFor(bus)
	p := &pcm{bus: b, rev: rev, id: id, pressure: s.pressure0}
	p.switchState()
	if rev {
		p.slots[0], p.slots[1] = b.addSlot(uint32(phStatus0+id)), b.addSlot(uint32(phStatus1+id))
		b.pcms[uint32(phSetAll+id)] = p
		b.pcms[uint32(phCompressorCfg+id)] = p
	} else {
		p.slots[0] = b.addSlot(uint32(pcmStatus1 + id))
		b.pcms[uint32(pcmControl1+id)] = p
		if bus == "" {
			s.pcmByID[id] = p
		}
	}
	s.modules[k] = p
	s.pcms = append(s.pcms, p)
	return p
}

// channels is the module's solenoid channel count.
func (p *pcm) channels() int {
	if p.rev {
		return 16
	}
	return 8
}

// canMotorFor returns the emulated motor controller of that CAN id on
// that bus, making it (of that model) the first time.
func (s *Sim) canMotorFor(bus, model string, id int) *canMotor {
	k := canKey{bus, id}
	if m := s.canMotors[k]; m != nil {
		return m
	}
	m := &canMotor{s: s, bus: s.busFor(bus), model: model, id: id}
	if model == frc.TalonFX {
		m.fxCfg, m.drive = fxFactory, fxLimits(fxFactory)
	}
	m.addSlots()
	m.reboot = m.rebootNow
	s.canMotors[k] = m
	s.motorList = append(s.motorList, m)
	return m
}

// pigeonCAN makes a Pigeon's presence on its bus.
func (s *Sim) pigeonCAN(bus string, id int) *pigeonCAN {
	b := s.busFor(bus)
	p := &pigeonCAN{bus: b, id: id}
	p.slots[0] = b.addSlot(uint32(pigeonYPR + id))
	p.slots[1] = b.addSlot(uint32(pigeonGyro + id))
	return p
}

// pigeonOnTalon makes the presence of a Pigeon cabled to a Talon SRX: the
// Talon relays its frames, with the Talon's device type and number, and
// falls silent with the Talon.
func (s *Sim) pigeonOnTalon(bus string, talonID int) *pigeonCAN {
	b := s.busFor(bus)
	host := s.canMotorFor(bus, frc.TalonSRX, talonID)
	p := &pigeonCAN{bus: b, id: talonID, host: &host.node}
	relay := func(id uint32) uint32 { // the Talon's device type for the Pigeon's
		_, mfr, api, n := frc.SplitFRCID(id)
		return frc.FRCID(frc.DevMotorController, mfr, api, n)
	}
	p.slots[0] = b.addSlot(relay(uint32(pigeonYPR + talonID)))
	p.slots[1] = b.addSlot(relay(uint32(pigeonGyro + talonID)))
	return p
}

// CANFault silences the emulated CAN device that a YAML device stands on
// (a pdp, rev_pdh or rev_ph; a solenoid's, double solenoid's or
// compressor's PCM or PH; a talon_srx, can_victor_spx or pigeon_imu on
// CAN) from From until Until (s of sim time; Until 0: for good), as a
// cut CAN cable: it sends no frame and hears none.
type CANFault struct {
	Device string  `json:"device"`
	From   float64 `json:"from"`
	Until  float64 `json:"until,omitempty"`
}

// canFault is a CANFault bound to its device.
type canFault struct {
	CANFault
	n           *node
	from, until time.Duration
}

func (s *Sim) canNode(name string) (*node, error) {
	n := s.canNodes[name]
	if n == nil {
		return nil, fmt.Errorf("sim: %q is no CAN device of the YAML (%s; a pigeon_imu with its own CAN id): %w", name, strings.Join(config.SimCANFaultTypes(), ", "), hal.ErrNoDevice)
	}
	return n, nil
}

// SetCANSilent silences (or, false, un-silences) the emulated CAN device
// the YAML device of that name stands on, as a cut cable: it sends no
// frame and hears none, so drivers see its status go stale and what it
// drives goes neutral on its own timeout. A scheduled CANFault silences
// it too, whatever this says.
func (s *Sim) SetCANSilent(name string, silent bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.canNode(name)
	if err != nil {
		return err
	}
	n.manual = silent
	return nil
}

// RebootCAN reboots the emulated CAN device the YAML device of that
// name stands on, as a brown-out or power cycle would: what it keeps in
// RAM only is lost (each emulation's doc says what). Only some
// emulations have it; the others are an error.
func (s *Sim) RebootCAN(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.canNode(name)
	if err != nil {
		return err
	}
	if n.reboot == nil {
		return fmt.Errorf("sim: %q: its emulation has no reboot", name)
	}
	n.reboot()
	return nil
}

// CANSilent reports whether the device the YAML device of that name
// stands on is silent now.
func (s *Sim) CANSilent(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.canNodes[name]
	return n != nil && n.silent()
}

// setCANFaults binds Options.CANFaults.
func (s *Sim) setCANFaults(fs []CANFault) error {
	var errs []error
	for _, f := range fs {
		n, err := s.canNode(f.Device)
		switch {
		case err != nil:
			errs = append(errs, err)
			continue
		case math.IsNaN(f.From) || math.IsInf(f.From, 0) || f.From < 0 || math.IsNaN(f.Until) || math.IsInf(f.Until, 0) || f.Until < 0:
			errs = append(errs, fmt.Errorf("sim: CAN fault of %q: from %v s, until %v s: want times of 0 or more", f.Device, f.From, f.Until))
			continue
		case f.Until != 0 && f.Until <= f.From:
			errs = append(errs, fmt.Errorf("sim: CAN fault of %q: until %v s is not after from %v s", f.Device, f.Until, f.From))
			continue
		}
		s.canFaults = append(s.canFaults, canFault{CANFault: f, n: n,
			from: time.Duration(f.From * float64(time.Second)), until: time.Duration(f.Until * float64(time.Second))})
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	s.advanceCANFaults(s.t)
	return nil
}

// advanceCANFaults applies the schedule at time now.
func (s *Sim) advanceCANFaults(now time.Duration) {
	for i := range s.canFaults {
		s.canFaults[i].n.sched = false
	}
	for i := range s.canFaults {
		f := &s.canFaults[i]
		if now >= f.from && (f.until == 0 || now < f.until) {
			f.n.sched = true
		}
	}
}

// Pneumatics is what a pneumatics module does: its solenoid outputs, its
// compressor and its tank's pressure (psi). module is config.ModuleCTREPCM
// or ModuleREVPH; ok is false when there is no such module.
func (s *Sim) Pneumatics(bus, module string, id int) (outputs uint16, compressorOn bool, pressurePSI float64, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.modules[moduleKey{bus, module == config.ModuleREVPH, id}]
	if p == nil {
		return 0, false, 0, false
	}
	return p.out, p.compOn, p.pressure, true
}

// PDHSwitch is the state of the switchable channel of the PDH of that
// CAN id on that bus, as SetSwitch last set it.
func (s *Sim) PDHSwitch(bus string, id int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.pdhs {
		if p.bus.name == bus && p.id == id {
			return p.sw
		}
	}
	return false
}
