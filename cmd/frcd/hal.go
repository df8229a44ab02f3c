package main

import (
	"fmt"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/linux"
	"github.com/frcd/frcd/hal/roborio"
	"github.com/frcd/frcd/hal/systemcore"
	"github.com/frcd/frcd/robot"
)

// openHardware opens a real backend by its --hal name, and says where the
// robot runs for the start-up line. logf takes the backend's own log
// lines (the heartbeat's changes of state). The daemon closes it.
func openHardware(name string, r *robot.Robot, logf func(string, ...any)) (hal.Backend, string, error) {
	switch name {
	case "roborio":
		b, err := openRoboRIO()
		return b, "the roboRIO (WPILib HAL)", err
	case "linux":
		o := linux.OptionsFrom(r.Config)
		b, err := linux.Open(o, logf)
		if err != nil {
			return nil, "", err
		}
		return b, fmt.Sprintf("a Linux coprocessor (SocketCAN %v, heartbeat %s)", o.CAN, o.Heartbeat), nil
	case "systemcore":
		o := systemcore.OptionsFrom(r.Config)
		b, err := systemcore.Open(o, logf)
		if err != nil {
			return nil, "", err
		}
		return b, fmt.Sprintf("Systemcore (SocketCAN %v, heartbeat %s, WPILib HAL)", o.CAN, o.HeartbeatMode()), nil
	}
	return nil, "", fmt.Errorf("--hal %s: want sim, linux, roborio or systemcore", name)
}

// backendCaps is what the backend of that --hal name provides, known
// without opening it (the sim emulates every device).
func backendCaps(name string) (hal.Caps, bool) {
	switch name {
	case "sim":
		return hal.AllCaps, true
	case "linux":
		return linux.Caps, true
	case "roborio":
		return roborio.Caps, true
	case "systemcore":
		return systemcore.Caps, true
	}
	return 0, false
}
