package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(Driver{Type: digitalOutputType, New: newDigitalOutput, Needs: hal.CapDIO}) }

var digitalOutputType = &config.Type{
	Name: "digital_output", Class: "DigitalOutput", Group: "actuator",
	Summary: "A roboRIO DIO channel used as an output.",
	Doc: "State: the last commanded value as a BinaryState; command: a BinaryCommand. Named after a URDF joint, it sets " +
		"that joint's position to its upper limit when on and lower when off; named otherwise (an LED), it gets no joint state.",
	Place: config.Output, Provides: config.Position | config.Velocity | config.Effort,
	Keys: []config.Key{
		{Name: "dio_channel", Kind: config.Int, Required: true, Resource: config.DIO, Doc: "The DIO channel of the output."},
		{Name: "inverted", Kind: config.Bool, Default: false, Doc: "Whether the output should be inverted."},
	},
	Facts: config.Facts{Joint: config.BinarySource, ZeroEffort: true, Roles: []config.Role{config.DigitalOutputController}},
}

// digitalOutput drives `dio_channel` from the name/binary BinaryCommand:
// the level is the value XOR `inverted`. Its name/binary BinaryState is
// the value written, before inversion. Neutral (no command) and Halt write
// the value false (a high level when inverted).
type digitalOutput struct {
	name     string
	out      hal.DigitalOut
	inverted bool

	cmd   interfaces.BinaryCommand
	state interfaces.BinaryState

	wErr, hErr opError
}

var _ Device = (*digitalOutput)(nil)

func newDigitalOutput(d *config.Device, env *Env) (Device, error) {
	out, err := hal.OpenDigitalOut(env.HAL, d.Int("dio_channel"))
	if err != nil {
		return nil, fmt.Errorf("DIO %d: %w", d.Int("dio_channel"), err)
	}
	o := &digitalOutput{name: d.Name, out: out, inverted: d.Bool("inverted"), wErr: newOpError(d, "write"), hErr: newOpError(d, "halt")}
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.Binary, &o.state); err != nil {
		return nil, err
	}
	if err := interfaces.RegisterCommand(env.Handles, d.Name, d.Name, interfaces.Binary, &o.cmd); err != nil {
		return nil, err
	}
	return o, nil
}

func (o *digitalOutput) Name() string { return o.name }

// Read does nothing: the state is set when written.
func (o *digitalOutput) Read(now, dt time.Duration) error { return nil }

func (o *digitalOutput) Write(now, dt time.Duration) error {
	v := o.cmd.Set && o.cmd.Value
	o.state.Value = v
	return o.wErr.wrap(o.out.Set(v != o.inverted))
}

func (o *digitalOutput) Halt() error {
	o.state.Value = false
	return o.hErr.wrap(o.out.Set(o.inverted))
}
