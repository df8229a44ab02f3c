package main

import (
	"fmt"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/robot"
)

// openHardware opens a real backend by its --hal name, and says where the
// robot runs for the start-up line.
func openHardware(name string, r *robot.Robot) (hal.Backend, string, error) {
	return nil, "", fmt.Errorf("--hal %s: this backend is being merged", name)
}
