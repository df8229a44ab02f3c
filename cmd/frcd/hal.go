package main

import (
	"fmt"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/robot"
)

// openHardware opens a real backend by its --hal name, and says where the
// robot runs for the start-up line. The daemon closes it.
func openHardware(name string, r *robot.Robot) (hal.Backend, string, error) {
	switch name {
	case "roborio":
		b, _, err := openRoboRIO()
		return b, "the roboRIO (WPILib HAL)", err
	}
	return nil, "", fmt.Errorf("--hal %s: this backend is being merged", name)
}
