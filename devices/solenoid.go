package devices

import (
	"github.com/frcd/frcd/hal"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(solenoidDriver) }

// solenoidDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var solenoidDriver = Driver{Type: solenoidType, New: newSolenoid, CAN: &CANTraffic{Of: pneumaticsCAN}, Needs: hal.CapCAN}

var solenoidType = &config.Type{
	Name: "solenoid", Class: "Solenoid", Group: "actuator",
	Summary: "A single-acting solenoid valve on one channel of a PCM or PH.",
	Doc: "State: the last commanded value as a BinaryState; command: a BinaryCommand. The joint's position is its " +
		"upper limit when on and its lower limit when off.",
	Place: config.DrivesJoint, Provides: config.Position | config.Velocity | config.Effort,
	Keys: []config.Key{
		{Name: "id", Kind: config.Int, Required: true, Resource: config.PCMChannel, Scope: "pcm_id", Doc: "The module channel of the solenoid."},
		config.PCMIDKey, config.ModuleTypeKey, config.CANBusKey, config.RequiredKey,
	},
	Check: func(d *config.Device, c *config.Checker) { config.CheckModuleChannels(d, c, "id") },
	Facts: config.Facts{Joint: config.BinarySource, CAN: true, Roles: []config.Role{config.SolenoidController}},
}

// solenoid drives a single-acting valve on channel `id` of its
// pneumatics module (module_type, pcm_id, can_bus; shared: see pcm and ph)
// from the name/binary BinaryCommand. Its name/binary BinaryState is the
// module's reported output while the module's status is fresh, else the
// value last commanded. No command and Halt are off.
type solenoid struct {
	name      string
	pcm       *pneumatics
	bit       uint16
	commanded bool

	cmd   interfaces.BinaryCommand
	state interfaces.BinaryState
}

var _ Device = (*solenoid)(nil)

func newSolenoid(d *config.Device, env *Env) (Device, error) {
	p, err := sharedPneumatics(env, d)
	if err != nil {
		return nil, err
	}
	bit, err := channelMask(p, d.Int("id"))
	if err != nil {
		return nil, err
	}
	s := &solenoid{name: d.Name, pcm: p, bit: bit}
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.Binary, &s.state); err != nil {
		return nil, err
	}
	if err := interfaces.RegisterCommand(env.Handles, d.Name, d.Name, interfaces.Binary, &s.cmd); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *solenoid) Name() string { return s.name }

// Read takes the output from the PCM's status when it is fresh.
func (s *solenoid) Read(now, dt time.Duration) error {
	if s.pcm.fresh {
		s.state.Value = s.pcm.status.Solenoids&s.bit != 0
	} else {
		s.state.Value = s.commanded
	}
	return nil
}

// Write sets the channel's bit for the PCM to send.
func (s *solenoid) Write(now, dt time.Duration) error {
	s.commanded = s.cmd.Set && s.cmd.Value
	s.pcm.set(s.bit, s.commanded)
	return nil
}

// Halt clears the channel's bit; the PCM's Halt, after it, sends.
func (s *solenoid) Halt() error {
	s.commanded, s.state.Value = false, false
	s.pcm.set(s.bit, false)
	return nil
}
