package linux

// The device types register with config when their drivers load, the
// controller types when control loads: a test that reads a robot's YAML
// needs them.
import (
	_ "github.com/frcd/frcd/control"
	_ "github.com/frcd/frcd/devices"
)
