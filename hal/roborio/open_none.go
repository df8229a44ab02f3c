//go:build !(roborio && cgo)

package roborio

import (
	"errors"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
)

// built: this build has no roboRIO backend (it needs the roborio build tag
// and cgo, as make rio builds).
const built = false

// ErrNotBuilt is opening the backend in a build without it.
var ErrNotBuilt = errors.New("this frcd was built without the roboRIO backend; build it with make rio")

// openFile fails: this build has no roboRIO backend.
func openFile(*config.File, func(string, ...any)) (hal.Backend, string, error) {
	return nil, "", ErrNotBuilt
}
