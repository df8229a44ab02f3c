package devices

import (
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
)

func init() { MustRegister("rev_ph", newREVPH) }

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
