package sim

import (
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/backends"
)

func init() { backends.MustRegister(backend) }

// backend is the simulated HAL's entry in the backend registry: it
// emulates every provider, CTRE's included (no vendor library to deploy),
// and the daemon builds it from the whole robot (daemon.NewSim). Its Caps
// are those the Sim implements, whose provider packages sim imports and
// so registered before this variable is set: not hal.AllCaps() at this
// point, which holds whatever providers the binary initialized before sim,
// an order no file states (TestSimProvidesEverything and cmd/frcd's
// TestBackendsDeclared check that it is every provider).
var backend = backends.Backend{
	Name: "sim", Order: 10,
	Help:      "simulated robot",
	Hint:      "for the simulated robot",
	Caps:      hal.CapsOf((*Sim)(nil)),
	Simulated: true,
	Built:     true,
}
