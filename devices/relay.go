package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(Driver{Type: relayType, New: newRelay, Needs: hal.CapRelay}) }

var relayType = &config.Type{
	Name: "relay", Class: "Relay", Group: "actuator",
	Summary: "A Spike relay on a roboRIO relay channel.",
	Doc: "State: the last commanded value as a TernaryState; command: a TernaryCommand. Named after a URDF joint, forward " +
		"puts the joint at its upper limit and reverse at its lower. A relay driving two separate actuators is not supported.",
	Place: config.Output, Provides: config.Position | config.Velocity | config.Effort,
	Keys: []config.Key{
		{Name: "relay_id", Kind: config.Int, Required: true, Resource: config.RelayChannel, Doc: "The relay channel."},
		{Name: "direction", Kind: config.String, Required: true, Enum: []string{"both", "forward", "reverse"}, Doc: "Which directions the relay may drive."},
	},
	Facts: config.Facts{Joint: config.TernarySource, Roles: []config.Role{config.RelayController}},
}

// relay drives a Spike on `relay_id` from the name/ternary TernaryCommand:
// forward closes the forward contact, reverse the reverse one, off
// neither. A value `direction` does not allow (reverse on a forward-only
// relay), an invalid one, no command and Halt are all off. Its
// name/ternary TernaryState is the value written.
type relay struct {
	name               string
	out                hal.Relay
	allowFwd, allowRev bool

	cmd   interfaces.TernaryCommand
	state interfaces.TernaryState

	wErr, hErr opError
}

var _ Device = (*relay)(nil)

func newRelay(d *config.Device, env *Env) (Device, error) {
	r := &relay{name: d.Name, wErr: newOpError(d, "write"), hErr: newOpError(d, "halt")}
	switch dir := d.Str("direction"); dir {
	case "both":
		r.allowFwd, r.allowRev = true, true
	case "forward":
		r.allowFwd = true
	case "reverse":
		r.allowRev = true
	default:
		return nil, fmt.Errorf("direction %q: want both, forward or reverse", dir)
	}
	out, err := hal.OpenRelay(env.HAL, d.Int("relay_id"))
	if err != nil {
		return nil, fmt.Errorf("relay %d: %w", d.Int("relay_id"), err)
	}
	r.out = out
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.Ternary, &r.state); err != nil {
		return nil, err
	}
	if err := interfaces.RegisterCommand(env.Handles, d.Name, d.Name, interfaces.Ternary, &r.cmd); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *relay) Name() string { return r.name }

// Read does nothing: the state is set when written.
func (r *relay) Read(now, dt time.Duration) error { return nil }

func (r *relay) Write(now, dt time.Duration) error {
	v := interfaces.Off
	if r.cmd.Set {
		switch r.cmd.Value {
		case interfaces.Forward:
			if r.allowFwd {
				v = interfaces.Forward
			}
		case interfaces.Reverse:
			if r.allowRev {
				v = interfaces.Reverse
			}
		}
	}
	r.state.Value = v
	return r.wErr.wrap(r.out.Set(v == interfaces.Forward, v == interfaces.Reverse))
}

func (r *relay) Halt() error {
	r.state.Value = interfaces.Off
	return r.hErr.wrap(r.out.Set(false, false))
}
