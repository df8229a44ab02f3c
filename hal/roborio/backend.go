package roborio

import (
	"github.com/frcd/frcd/hal/backends"
	"github.com/frcd/frcd/hal/ctre"
)

func init() { backends.MustRegister(backend) }

// backend is the roboRIO's entry in the backend registry. It registers in
// every build, so that `frcd validate --hal roborio` knows its Caps
// anywhere; Built and openFile come from open.go (the roborio tag and cgo,
// as make rio builds) or open_none.go.
var backend = backends.Backend{
	Name: "roborio", Order: 30,
	Help:     "the roboRIO's FPGA through the WPILib HAL",
	Hint:     "on the roboRIO",
	Caps:     Caps,
	Vendored: Caps & ctre.Caps,
	Built:    built,
	Open:     openFile,
}
