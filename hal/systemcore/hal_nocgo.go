//go:build !(systemcore && cgo) || roborio

package systemcore

import "fmt"

// noHALReason says why a build without the HAL has none.
const noHALReason = "was built without it (build it with make systemcore: cgo and the systemcore tag)"

// WithHAL says this build calls WPILib's HAL.
const WithHAL = false

// openHAL fails: this build cannot load the HAL.
func openHAL(string) (halIO, error) {
	return nil, fmt.Errorf("systemcore: %w", errNoHAL)
}
