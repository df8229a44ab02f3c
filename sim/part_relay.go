package sim

import "github.com/frcd/frcd/config"

func init() { registerPart("relay", part{actuator: relayJoint}) }

// relayJoint drives a joint from a relay channel: forward to the upper
// limit, reverse to the lower.
func relayJoint(s *Sim, d *config.Device, j *joint) {
	j.kind, j.ch = kindRelay, d.Int("relay_id")
}
