package devices

import (
	"fmt"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister("digital_input", newDigitalInput) }

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
	in, err := env.HAL.OpenDigitalIn(d.Int("dio_channel"))
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
