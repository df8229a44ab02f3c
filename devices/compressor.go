package devices

import (
	"github.com/frcd/frcd/hal"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(compressorDriver) }

// compressorDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var compressorDriver = Driver{Type: compressorType, New: newCompressor, CAN: &CANTraffic{Of: pneumaticsCAN}, Needs: hal.CapCAN}

var compressorType = &config.Type{
	Name: "compressor", Class: "Compressor", Group: "special",
	Summary: "The compressor output of a PCM or PH, run closed-loop on its pressure switch.",
	Doc: "State: whether closed-loop control is on, the pressure switch and the compressor's current. " +
		"Command: a BinaryCommand enabling or disabling closed-loop control.",
	Place: config.YAMLOnly,
	Keys:  []config.Key{config.PCMIDKey, config.ModuleTypeKey, config.CANBusKey, config.RequiredKey},
	Check: func(d *config.Device, c *config.Checker) {
		pos := d.Pos
		if d.Has("pcm_id") {
			pos = d.ValuePos("pcm_id")
		}
		c.Claim(d, config.PCMCompressor, config.ModuleLabel(d), 0, pos)
	},
	Facts: config.Facts{CAN: true, Roles: []config.Role{config.CompressorController}},
}

// compressor is the compressor output of its pneumatics module
// (module_type, pcm_id, can_bus; shared: see pcm and ph). Its name/binary
// BinaryCommand enables closed-loop control (the module runs the
// compressor until the pressure switch reads full: a PCM's closed loop, a
// PH's digital configuration); with no command closed loop is on, as
// WPILib's Compressor starts. (The module itself stops the compressor
// while the robot is disabled.) Halt turns it off.
//
// Its name/binary BinaryState is whether closed loop is enabled and its
// name/compressor CompressorState what the PCM reports (closed loop,
// running, pressure switch, current), both from the PCM's status. While
// that is stale, Read returns the PCM's stale error (wrapping
// hal.ErrTimeout); the BinaryState and CompressorState.ClosedLoop then
// hold the value commanded, the rest their last reported values.
//
// A module with no compressor entry has closed-loop control off.
type compressor struct {
	name      string
	pcm       *pneumatics
	commanded bool

	cmd   interfaces.BinaryCommand
	on    interfaces.BinaryState
	state interfaces.CompressorState
}

var _ Device = (*compressor)(nil)

func newCompressor(d *config.Device, env *Env) (Device, error) {
	p, err := sharedPneumatics(env, d)
	if err != nil {
		return nil, err
	}
	c := &compressor{name: d.Name, pcm: p, commanded: true}
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.Binary, &c.on); err != nil {
		return nil, err
	}
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.Compressor, &c.state); err != nil {
		return nil, err
	}
	if err := interfaces.RegisterCommand(env.Handles, d.Name, d.Name, interfaces.Binary, &c.cmd); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *compressor) Name() string { return c.name }

func (c *compressor) Read(now, dt time.Duration) error {
	if !c.pcm.fresh {
		c.on.Value, c.state.ClosedLoop = c.commanded, c.commanded
		return c.pcm.errStale
	}
	c.on.Value = c.pcm.status.ClosedLoop
	c.state = c.pcm.compressorState()
	return nil
}

// Write sets closed-loop control for the PCM to send.
func (c *compressor) Write(now, dt time.Duration) error {
	c.commanded = !c.cmd.Set || c.cmd.Value
	c.pcm.closedLoop = c.commanded
	return nil
}

// Halt turns closed-loop control off; the PCM's Halt, after it, sends.
func (c *compressor) Halt() error {
	c.commanded, c.pcm.closedLoop = false, false
	c.on.Value = false
	c.state.ClosedLoop, c.state.Running, c.state.Current = false, false, 0
	return nil
}
