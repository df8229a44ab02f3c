//go:build !(roborio && cgo)

package main

import (
	"errors"

	"github.com/frcd/frcd/hal"
)

// errNoRoboRIO is openRoboRIO's error in a build without the backend.
var errNoRoboRIO = errors.New("this frcd was built without the roboRIO backend; build it with make rio")

// openRoboRIO fails: this build has no roboRIO backend (hal/roborio needs
// the roborio build tag and cgo, as make rio builds).
func openRoboRIO() (hal.Backend, error) {
	return nil, errNoRoboRIO
}
