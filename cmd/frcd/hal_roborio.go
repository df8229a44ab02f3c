//go:build roborio && cgo

package main

import (
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/roborio"
)

// openRoboRIO opens the roboRIO's backend on the WPILib HAL for
// `frcd run --hal roborio` (its Close frees the channels and shuts the
// HAL down). When libwpiHal.so is missing the error is one line saying where
// frcd looked and what to do.
func openRoboRIO() (hal.Backend, error) {
	b, err := roborio.Open(roborio.Options{})
	if err != nil {
		return nil, err // not b: a nil *Backend is no nil hal.Backend
	}
	return b, nil
}
