package devices

import (
	"errors"
	"fmt"
	"github.com/frcd/frcd/diag"
	"sort"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

// Device is one configured device bound to its HAL resources and handles.
//
// Read pulls from the HAL into the device's state handles; Write pushes
// its command handles to the HAL; Halt makes its outputs neutral (0 V,
// solenoids off, relays off, PWM disabled) and writes them. The loop calls
// Read in the order Build returns, and Write and Halt in the reverse
// order, so that a shared device (a PCM) reads its status before the
// devices using it and sends its frame after they have set their bits.
//
// All three run on the loop's goroutine, take time from their arguments
// and must not allocate in steady state. An error from Read or Write is
// the device's trouble only: the loop counts it, marks the device's state
// stale and carries on with the others.
type Device interface {
	Name() string
	Read(now, dt time.Duration) error
	Write(now, dt time.Duration) error
	Halt() error
}

// Eventer is a device with something to log now and then (a SPARK's
// position carried over a reboot): Events appends the messages since the
// last call to dst. Safe from any goroutine; the daemon logs them.
type Eventer interface {
	Events(dst []string) []string
}

// Constructor binds a device: it opens its HAL channels and registers its
// handles. It does no I/O beyond opening channels.
type Constructor func(d *config.Device, env *Env) (Device, error)

// Driver is one device type as its file declares it: the YAML type with
// its keys, docs and facts (registered with config, so that `frcd
// validate`, `describe`, `schema` and docs/devices.md know it), the
// constructor that binds it, and the CAN traffic it puts on its bus.
type Driver struct {
	Type *config.Type
	New  Constructor
	// CAN is the CAN device an entry of the type puts on its bus, for the
	// bus load estimate and the inventory; nil when it puts none.
	CAN *CANTraffic
	// Needs are the HAL providers the constructor opens, so that a
	// backend without them is known not to run the type before the robot
	// is built (`frcd validate --hal`); NeedsOf, when set, decides per
	// entry instead (a navX on a roboRIO port or a Linux bus).
	Needs   hal.Caps
	NeedsOf func(d *config.Device) hal.Caps
}

var registry = map[string]*Driver{}

// MustRegister adds a device type and registers its config.Type. It is
// called from a one-line init in the type's file; a duplicate name, or a
// driver without a type or constructor, panics.
func MustRegister(d Driver) {
	if d.Type == nil || d.New == nil {
		panic("devices: a driver needs a type and a constructor")
	}
	if _, dup := registry[d.Type.Name]; dup {
		panic(fmt.Sprintf("devices: type %q registered twice", d.Type.Name))
	}
	config.Register(d.Type)
	registry[d.Type.Name] = &d
}

// Types returns the registered type names, sorted.
func Types() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NeedsOf returns the HAL providers an entry needs (Driver.Needs), 0 for
// a type without a driver.
func NeedsOf(d *config.Device) hal.Caps {
	if d.Type == nil {
		return 0
	}
	drv := registry[d.Type.Name]
	switch {
	case drv == nil:
		return 0
	case drv.NeedsOf != nil:
		return drv.NeedsOf(d)
	}
	return drv.Needs
}

// CheckBackend warns about each device of f that a backend with the
// providers have cannot run, naming the backend and what it lacks, and
// about each it runs only through providers of vendored, those it has
// through a vendor's library loaded at run time (CTRE's: hal/ctre's Caps on
// a real backend, none in the sim), which the robot must have deployed.
func CheckBackend(f *config.File, backend string, have, vendored hal.Caps, list *diag.List) {
	for _, d := range f.Devices {
		need := NeedsOf(d)
		if missing := need &^ have; missing != 0 {
			list.Warnf(d.TypePos, "%s: the %s backend cannot run it: it has no %s", d, backend, missing.Lacked())
		} else if v := need & vendored; v != 0 {
			list.Warnf(d.TypePos, "%s: the %s backend runs it only with CTRE's libraries deployed (%s; see deploy/ctre.md)", d, backend, v)
		}
	}
}

// Env is what a constructor binds to: the HAL backend (borrowed, never
// closed by a device), the handle registry, and devices shared between
// several configured ones (a PCM serves every solenoid with its pcm_id).
type Env struct {
	HAL     hal.Backend
	Handles *interfaces.Registry
	shared  map[string]Device
	order   []Device
}

// NewEnv returns an Env over a backend and a registry.
func NewEnv(b hal.Backend, r *interfaces.Registry) *Env {
	return &Env{HAL: b, Handles: r, shared: map[string]Device{}}
}

// Shared returns the shared device of that key, creating it with mk the
// first time. Shared devices come before the configured ones in Build's
// order.
func (e *Env) Shared(key string, mk func() (Device, error)) (Device, error) {
	if d, ok := e.shared[key]; ok {
		return d, nil
	}
	d, err := mk()
	if err != nil {
		return nil, err
	}
	e.shared[key] = d
	e.order = append(e.order, d)
	return d, nil
}

// Build binds every device of a robot's YAML file, in file order after the
// shared devices they created. Every failure is reported, joined.
func Build(f *config.File, env *Env) ([]Device, error) {
	var own []Device
	var errs []error
	for _, cd := range f.Devices {
		if cd.Type == nil {
			errs = append(errs, fmt.Errorf("%s: unknown type", cd))
			continue
		}
		drv, ok := registry[cd.Type.Name]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: no driver for type %s", cd, cd.Type.Name))
			continue
		}
		d, err := drv.New(cd, env)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", cd, err))
			continue
		}
		own = append(own, d)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return append(append([]Device(nil), env.order...), own...), nil
}

// openBus opens the CAN bus of that name (a device's `can_bus`; "" the
// default).
func openBus(env *Env, bus string) (hal.CANBus, error) {
	can, err := hal.OpenCAN(env.HAL, bus)
	if err == nil && can == nil {
		err = hal.ErrNoDevice
	}
	if err != nil {
		return nil, fmt.Errorf("no CAN bus: %w", err)
	}
	return can, nil
}

// aka gives a type the other names files use for it (config.Type.Aliases).
func aka(t *config.Type, names ...string) *config.Type {
	t.Aliases = names
	return t
}
