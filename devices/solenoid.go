package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister("solenoid", newSolenoid) }

// solenoid drives a single-acting valve on channel `id` of the PCM
// `pcm_id` (shared: see pcm) from the name/binary BinaryCommand. Its
// name/binary BinaryState is the PCM's reported output while the PCM's
// status is fresh, else the value last commanded. No command and Halt are
// off.
type solenoid struct {
	name      string
	pcm       *pcm
	bit       uint8
	commanded bool

	cmd   interfaces.BinaryCommand
	state interfaces.BinaryState
}

var _ Device = (*solenoid)(nil)

func newSolenoid(d *config.Device, env *Env) (Device, error) {
	ch := d.Int("id")
	if ch < 0 || ch > 7 {
		return nil, fmt.Errorf("PCM channel %d: want 0-7", ch)
	}
	p, err := sharedPCM(env, d.Int("pcm_id"))
	if err != nil {
		return nil, err
	}
	s := &solenoid{name: d.Name, pcm: p, bit: 1 << ch}
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
