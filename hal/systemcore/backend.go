package systemcore

import (
	"fmt"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/backends"
	"github.com/frcd/frcd/hal/ctre"
)

func init() { backends.MustRegister(backend) }

// backend is Systemcore's entry in the backend registry.
var backend = backends.Backend{
	Name: "systemcore", Order: 40,
	Help:     "WPILib's 2027 controller; docs/systemcore.md",
	Hint:     "on Systemcore",
	Caps:     Caps,
	Vendored: Caps & ctre.Caps,
	Built:    true,
	Open:     openFile,
	Validate: CheckChannels,
}

// openFile opens the backend the `linux:` section of f describes, as
// Systemcore reads it.
func openFile(f *config.File, logf func(string, ...any)) (hal.Backend, string, error) {
	o := OptionsFrom(f)
	b, err := Open(o, logf)
	if err != nil {
		return nil, "", err // not b: a nil *Backend is no nil hal.Backend
	}
	return b, fmt.Sprintf("Systemcore (SocketCAN %v, heartbeat %s, WPILib HAL)", o.CAN, o.HeartbeatMode()), nil
}
