package config

import (
	"gopkg.in/yaml.v3"
)

// The `hal:` key names the backend a robot runs on (`hal: roborio`), so
// that `frcd validate` checks the robot for that hardware without --hal.
// The names are the backends' (hal/backends); config knows none of them,
// so frcd validate checks the name and reports it at HALPos.

// hal reads the `hal:` key's value n (nil when absent).
func (p *parser) hal(n *yaml.Node) {
	if n == nil {
		return
	}
	n = resolve(n)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" || n.Value == "" {
		p.list.Errorf(p.pos(n), "hal: want the name of the controller the robot runs on, such as roborio or systemcore, not %s", describeNode(n))
		return
	}
	p.file.HAL, p.file.HALPos = n.Value, p.pos(n)
}

// halDoc documents the key (devices.md, the JSON schema).
const halDoc = "The controller the robot runs on, as `frcd run --hal` names it (sim, linux, roborio, systemcore): " +
	"`frcd validate` then checks what that backend cannot run without being told --hal, which overrides it. " +
	"`frcd run` still takes its backend from --hal or --sim."
