package linux

import (
	"fmt"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/backends"
	"github.com/frcd/frcd/hal/ctre"
)

func init() { backends.MustRegister(backend) }

// backend is the Linux coprocessor's entry in the backend registry.
var backend = backends.Backend{
	Name: "linux", Order: 20,
	Help:     "a Linux coprocessor: SocketCAN, GPIO, spidev; the YAML's linux: section",
	Hint:     "on a coprocessor",
	Caps:     Caps,
	Vendored: Caps & ctre.Caps,
	Built:    true,
	Open:     openFile,
}

// openFile opens the backend the `linux:` section of f describes.
func openFile(f *config.File, logf func(string, ...any)) (hal.Backend, string, error) {
	o := OptionsFrom(f)
	b, err := Open(o, logf)
	if err != nil {
		return nil, "", err // not b: a nil *Backend is no nil hal.Backend
	}
	return b, fmt.Sprintf("a Linux coprocessor (SocketCAN %v, heartbeat %s)", o.CAN, o.Heartbeat), nil
}
