//go:build !(ctre && cgo)

package linux

import (
	"errors"

	"github.com/frcd/frcd/hal"

	"github.com/frcd/frcd/hal/ctre"
)

// ctreCaps: this build drives no CTRE devices.
var ctreCaps hal.Caps

// openCTRE says this build has no CTRE support.
func openCTRE(Options) (Vendor, error) {
	return nil, errors.New("this frcd was built without CTRE support: build it with cgo and -tags ctre (see " + ctre.Checklist + ")")
}
