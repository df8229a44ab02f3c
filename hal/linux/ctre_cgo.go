//go:build ctre && cgo

package linux

import "github.com/frcd/frcd/hal/ctre"

// ctreCaps are the CTRE providers this build can give (hal/ctre, when
// CTRE's libraries are present).
var ctreCaps = ctre.Caps

// openCTRE loads CTRE's libraries for Phoenix's SocketCAN platform, the
// first CAN interface being Phoenix 6's default bus; outside FRC, so the
// backend feeds the enable while the robot is enabled.
func openCTRE(o Options) (Vendor, error) {
	l, err := ctre.Open(ctre.Options{DefaultBus: o.CAN[0]})
	if err != nil {
		return nil, err
	}
	return l, nil
}
