package devices

import (
	"github.com/frcd/frcd/hal"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister(revPhDriver) }

// revPhDriver declares the type: its keys and facts, driver, CAN traffic and
// HAL needs.
var revPhDriver = Driver{Type: revPhType, New: newREVPH, CAN: &CANTraffic{Kind: canREVPH, NumberKey: "id"}, Needs: hal.CapCAN}

var revPhType = &config.Type{
	Name: "rev_ph", Class: "PneumaticHub", Group: "special",
	Summary: "A REV Pneumatic Hub on the CAN bus: 16 solenoid channels and a compressor.",
	Doc: "Solenoids, double solenoids and a compressor sit on it with module_type: rev_ph and pcm_id its id. The entry " +
		"itself is optional (a hub the solenoids use exists without it); it gives the hub a name, a bus and `required`, " +
		"and its state: a CompressorState (closed loop, running, pressure switch, current) as the hub reports it.",
	Place:   config.YAMLOnly,
	Example: "{name: hub, type: rev_ph, id: 1}",
	Keys: []config.Key{
		{Name: "id", Kind: config.Int, Required: true, Resource: config.CANPneumatics, Scope: "can_bus", Doc: "The CAN id of the hub (usually 1; REV devices take 1-62)."},
		config.CANBusKey, config.RequiredKey,
	},
	Check: checkREVID,
	Facts: config.Facts{CAN: true},
}

// revPH is a rev_ph entry: the REV Pneumatic Hub `id` on `can_bus` (the
// hub the solenoids with module_type rev_ph and that pcm_id use; shared,
// see ph). Its name/compressor CompressorState is the hub's compressor as
// the hub reports it; while the hub's status is stale Read returns its
// stale error (wrapping hal.ErrTimeout) and the state keeps its last
// values. It takes no commands: the solenoids and compressor entries do.
type revPH struct {
	name  string
	m     *pneumatics
	state interfaces.CompressorState
}

var _ Device = (*revPH)(nil)

func newREVPH(d *config.Device, env *Env) (Device, error) {
	m, err := sharedModule(env, config.ModuleREVPH, d.Int("id"), d.CANBus())
	if err != nil {
		return nil, err
	}
	h := &revPH{name: d.Name, m: m}
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.Compressor, &h.state); err != nil {
		return nil, err
	}
	return h, nil
}

func (h *revPH) Name() string { return h.name }

func (h *revPH) Read(now, dt time.Duration) error {
	if !h.m.fresh {
		return h.m.errStale
	}
	h.state = h.m.compressorState()
	return nil
}

// Write does nothing: the hub's users command it.
func (h *revPH) Write(now, dt time.Duration) error { return nil }

// Halt does nothing: the hub's own Halt clears its outputs.
func (h *revPH) Halt() error { return nil }
