package devices

import (
	"fmt"
	"github.com/frcd/frcd/hal"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(doubleSolenoidDriver) }

// doubleSolenoidDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var doubleSolenoidDriver = Driver{Type: doubleSolenoidType, New: newDoubleSolenoid, CAN: &CANTraffic{Of: pneumaticsCAN}, Needs: hal.CapCAN}

var doubleSolenoidType = &config.Type{
	Name: "double_solenoid", Class: "DoubleSolenoid", Group: "actuator",
	Summary: "A double-acting solenoid valve on two channels of one PCM or PH.",
	Doc: "State: the last commanded value as a TernaryState (reverse, off, forward); command: a TernaryCommand. " +
		"The joint's position is its upper limit after forward, its lower limit after reverse, unchanged after off.",
	Place: config.DrivesJoint, Provides: config.Position | config.Velocity | config.Effort,
	Keys: []config.Key{
		{Name: "forward_id", Kind: config.Int, Required: true, Resource: config.PCMChannel, Scope: "pcm_id", Doc: "The module channel of the forward direction."},
		{Name: "reverse_id", Kind: config.Int, Required: true, Resource: config.PCMChannel, Scope: "pcm_id", Doc: "The module channel of the reverse direction."},
		config.PCMIDKey, config.ModuleTypeKey, config.CANBusKey, config.RequiredKey,
	},
	Check: func(d *config.Device, c *config.Checker) {
		config.CheckModuleChannels(d, c, "forward_id", "reverse_id")
		if d.Has("forward_id") && d.Has("reverse_id") && d.Int("forward_id") == d.Int("reverse_id") {
			c.Errorf(d.ValuePos("reverse_id"), "%s: forward_id and reverse_id are both PCM channel %d", d, d.Int("forward_id"))
		}
	},
	Facts: config.Facts{Joint: config.TernarySource, CAN: true, Roles: []config.Role{config.DoubleSolenoidController}},
}

// doubleSolenoid drives a double-acting valve on channels `forward_id` and
// `reverse_id` of its pneumatics module (shared: see pcm and ph) from the
// name/ternary TernaryCommand: forward turns the forward channel on and
// the reverse one off, reverse the other way round, off both off. No
// command, an invalid value and Halt are off. Its name/ternary
// TernaryState is read from the PCM's reported outputs while its status is
// fresh (forward when the forward channel is on, else reverse when the
// reverse one is, else off, as WPILib's DoubleSolenoid.get reads them),
// else the value last commanded.
type doubleSolenoid struct {
	name      string
	pcm       *pneumatics
	fwd, rev  uint16
	commanded interfaces.Tri

	cmd   interfaces.TernaryCommand
	state interfaces.TernaryState
}

var _ Device = (*doubleSolenoid)(nil)

func newDoubleSolenoid(d *config.Device, env *Env) (Device, error) {
	p, err := sharedPneumatics(env, d)
	if err != nil {
		return nil, err
	}
	f, err := channelMask(p, d.Int("forward_id"))
	if err != nil {
		return nil, err
	}
	r, err := channelMask(p, d.Int("reverse_id"))
	if err != nil {
		return nil, err
	}
	if f == r {
		return nil, fmt.Errorf("%s channels %d and %d: want two different channels", p.label, d.Int("forward_id"), d.Int("reverse_id"))
	}
	s := &doubleSolenoid{name: d.Name, pcm: p, fwd: f, rev: r}
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.Ternary, &s.state); err != nil {
		return nil, err
	}
	if err := interfaces.RegisterCommand(env.Handles, d.Name, d.Name, interfaces.Ternary, &s.cmd); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *doubleSolenoid) Name() string { return s.name }

// Read takes the outputs from the PCM's status when it is fresh.
func (s *doubleSolenoid) Read(now, dt time.Duration) error {
	if !s.pcm.fresh {
		s.state.Value = s.commanded
		return nil
	}
	switch bits := s.pcm.status.Solenoids; {
	case bits&s.fwd != 0:
		s.state.Value = interfaces.Forward
	case bits&s.rev != 0:
		s.state.Value = interfaces.Reverse
	default:
		s.state.Value = interfaces.Off
	}
	return nil
}

// Write sets the channels' bits for the PCM to send.
func (s *doubleSolenoid) Write(now, dt time.Duration) error {
	v := interfaces.Off
	if s.cmd.Set && s.cmd.Value.Valid() {
		v = s.cmd.Value
	}
	s.commanded = v
	s.pcm.set(s.fwd, v == interfaces.Forward)
	s.pcm.set(s.rev, v == interfaces.Reverse)
	return nil
}

// Halt clears both bits; the PCM's Halt, after it, sends.
func (s *doubleSolenoid) Halt() error {
	s.commanded, s.state.Value = interfaces.Off, interfaces.Off
	s.pcm.set(s.fwd|s.rev, false)
	return nil
}
