package deploy

// The device types register with config when their drivers load, the
// controller types when control loads: deploy validates a robot's YAML
// first, so its tests need them (cmd/frcd, which runs deploy, imports
// both).
import (
	_ "github.com/frcd/frcd/control"
	_ "github.com/frcd/frcd/devices"
)
