package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(Driver{Type: digitalInputType, New: newDigitalInput, Needs: hal.CapDIO}) }

var digitalInputType = &config.Type{
	Name: "digital_input", Class: "DigitalInput", Group: "sensor",
	Summary: "A switch, limit switch or beam break on a roboRIO DIO channel.",
	Doc: "State: a BinaryState. Linked to a joint, it sets the JointState's position to the joint's upper limit when active " +
		"and the lower limit when not; velocity and effort are 0. With `limit`, it is a limit switch: when active the joint is " +
		"at that limit and motion past it is blocked, and when inactive it leaves the position to the joint's other sensors.",
	Place: config.JointSensor, Provides: config.Position | config.Velocity | config.Effort,
	Keys: []config.Key{
		{Name: "dio_channel", Kind: config.Int, Required: true, Resource: config.DIO, Doc: "The DIO channel of the sensor (10-25 are on the MXP)."},
		{Name: "inverted", Kind: config.Bool, Default: false, Doc: "Whether the input signal should be inverted."},
		{Name: "limit", Kind: config.String, Enum: []string{"lower", "upper"}, Doc: "Marks a limit switch at that end of its joint."},
		config.JointKey,
	},
	Facts: config.Facts{Joint: config.SwitchSource, ZeroEffort: true},
}

// digitalInput reads a switch on `dio_channel`: name/binary is the level
// (true = high) XOR `inverted`, so that a normally open switch to ground
// reads true when pressed with inverted set.
type digitalInput struct {
	name     string
	in       hal.DigitalIn
	inverted bool
	state    interfaces.BinaryState
	rErr     opError
}

var _ Device = (*digitalInput)(nil)

func newDigitalInput(d *config.Device, env *Env) (Device, error) {
	in, err := hal.OpenDigitalIn(env.HAL, d.Int("dio_channel"))
	if err != nil {
		return nil, fmt.Errorf("DIO %d: %w", d.Int("dio_channel"), err)
	}
	i := &digitalInput{name: d.Name, in: in, inverted: d.Bool("inverted"), rErr: newOpError(d, "read")}
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.Binary, &i.state); err != nil {
		return nil, err
	}
	return i, nil
}

func (i *digitalInput) Name() string { return i.name }

func (i *digitalInput) Read(now, dt time.Duration) error {
	high, err := i.in.Get()
	if err != nil {
		return i.rErr.wrap(err)
	}
	i.state.Value = high != i.inverted
	return nil
}

// Write does nothing: a digital input is a sensor.
func (i *digitalInput) Write(now, dt time.Duration) error { return nil }

// Halt does nothing: a digital input has no outputs.
func (i *digitalInput) Halt() error { return nil }
