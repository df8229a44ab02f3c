package socketcan

import (
	"fmt"
	"strings"

	"github.com/frcd/frcd/hal"
)

// arphrdCAN is the link type of CAN interfaces (can0, vcan0, slcan0) in
// /sys/class/net/NAME/type.
const arphrdCAN = 280

// interfaceProblem explains what is wrong with a network interface for
// SocketCAN, or returns nil: lookupErr is the lookup's failure (the
// interface is missing), linkType its ARPHRD type (-1 unknown), up
// whether it is administratively up.
func interfaceProblem(name string, lookupErr error, linkType int, up bool) error {
	switch {
	case lookupErr != nil:
		return fmt.Errorf("%s: no such network interface: is the USB-CAN adapter plugged in? `ip link show` lists the interfaces: %w", name, hal.ErrNoDevice)
	case linkType >= 0 && linkType != arphrdCAN:
		return fmt.Errorf("%s: not a CAN interface (link type %d; CAN is %d): name a SocketCAN interface, `ip link show type can` lists them: %w", name, linkType, arphrdCAN, hal.ErrNoDevice)
	case !up:
		return fmt.Errorf("%s: %s: %w", name, downFix(name), hal.ErrNoDevice)
	}
	return nil
}

// downFix says how to bring an interface up at the FRC bit rate (a
// virtual one, vcan, has no bit rate).
func downFix(name string) string {
	if strings.HasPrefix(name, "vcan") {
		return fmt.Sprintf("the interface is down: bring it up with `sudo ip link set %s up`", name)
	}
	return fmt.Sprintf("the interface is down: bring it up at 1 Mbit/s with `sudo ip link set %s up type can bitrate 1000000`", name)
}
