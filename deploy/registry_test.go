package deploy

// The device types register with config when their drivers load: deploy
// validates a robot's YAML first, so its tests need them (cmd/frcd, which
// runs deploy, imports devices).
import _ "github.com/frcd/frcd/devices"
