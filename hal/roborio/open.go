//go:build roborio && cgo

package roborio

import (
	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
)

// built: this build has the backend.
const built = true

// openFile opens the roboRIO's backend on the WPILib HAL for `frcd run
// --hal roborio` (its Close frees the channels and shuts the HAL down); the
// robot's file configures nothing of it. When libwpiHal.so is missing the
// error is one line saying where frcd looked and what to do.
func openFile(*config.File, func(string, ...any)) (hal.Backend, string, error) {
	b, err := Open(Options{})
	if err != nil {
		return nil, "", err // not b: a nil *Backend is no nil hal.Backend
	}
	return b, "the roboRIO (WPILib HAL)", nil
}
