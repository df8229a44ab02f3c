//go:build roborio && cgo

package roborio

import (
	"github.com/frcd/frcd/hal/ctre"
	"github.com/frcd/frcd/hal/wpihal"
)

// Library is the file name of the WPILib HAL.
const Library = wpihal.Library

// DefaultDirs are where WPILib's deploy puts libwpiHal.so (third-party)
// and where the roboRIO image keeps NI's and WPILib's libraries.
var DefaultDirs = []string{"/usr/local/frc/third-party/lib", "/usr/local/frc/lib"}

// Checklist is where a user reads how to deploy the HAL.
const Checklist = "deploy/roborio-checklist.md"

// ErrNoLibrary is wrapped by Open's error when libwpiHal.so is in none of
// the directories searched, or cannot be loaded.
var ErrNoLibrary = wpihal.ErrNoLibrary

// Backend is the roboRIO's hal.Backend: the WPILib HAL's, whole.
type Backend = wpihal.Backend

// Options are Open's settings; the zero value is what a robot wants.
type Options struct {
	// Dirs are searched for libwpiHal.so, in order, after the
	// directories of LD_LIBRARY_PATH; nil means DefaultDirs.
	Dirs []string
	// Library, when set, is the path of the library to load, searching
	// nothing.
	Library string
	// CTRE says where CTRE's libraries are (hal/ctre).
	CTRE ctre.Options
}

// Open loads the roboRIO's WPILib HAL (hal/wpihal.Open) from the roboRIO's
// directories.
func Open(o Options) (*Backend, error) {
	dirs := o.Dirs
	if dirs == nil {
		dirs = DefaultDirs
	}
	return wpihal.Open(wpihal.Options{Dirs: dirs, Library: o.Library, Checklist: Checklist, CTRE: o.CTRE})
}
