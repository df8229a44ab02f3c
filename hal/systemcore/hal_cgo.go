//go:build systemcore && cgo && !roborio

package systemcore

import "github.com/frcd/frcd/hal/wpihal"

// noHALReason is empty in a build with the HAL (never shown: it loads or
// Open fails).
const noHALReason = "did not load it"

// WithHAL says this build calls WPILib's HAL.
const WithHAL = true

// openHAL loads WPILib's 2027 HAL: lib, or libwpiHal.so from
// LD_LIBRARY_PATH and HALDirs.
func openHAL(lib string) (halIO, error) {
	w, err := wpihal.Open(wpihal.Options{Dirs: HALDirs, Library: lib, Checklist: Checklist})
	if err != nil {
		return nil, err // not w: a nil *wpihal.Backend is no nil halIO
	}
	return w, nil
}
