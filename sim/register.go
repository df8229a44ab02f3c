package sim

import (
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/backends"
)

func init() { backends.MustRegister(backend) }

// backend is the simulated HAL's entry in the backend registry: it
// emulates every provider, CTRE's included (no vendor library to deploy),
// and the daemon builds it from the whole robot (daemon.NewSim).
var backend = backends.Backend{
	Name: "sim", Order: 10,
	Help:      "simulated robot",
	Hint:      "for the simulated robot",
	Caps:      hal.AllCaps(),
	Simulated: true,
	Built:     true,
}
