package systemcore

import (
	"errors"
	"fmt"
	"time"

	"github.com/frcd/frcd/hal"
)

// halIO is what WPILib's 2027 HAL gives the backend (hal/wpihal's Backend
// in a build with the systemcore tag and cgo, as make systemcore builds).
type halIO interface {
	hal.PWMs
	hal.DigitalIOs
	hal.AnalogIns
	hal.Encoders
	hal.DutyCycleIns
	hal.AddressableLEDs
	hal.BuiltInIMUs
	hal.Joysticks
	hal.MatchTimer
	hal.MatchInfos
	hal.Brownouts
	hal.OpModeSetter
	DS() hal.DSState
	Hold()
	Vin() (float64, error)
	ReadClock() (time.Duration, error)
	Library() string
	Layout() string
	Close() error
}

// ErrNoHAL is wrapped by the error of every SmartIO, IMU, battery and
// Driver Station call of a backend without WPILib's HAL.
var ErrNoHAL = errors.New("WPILib's HAL is not loaded")

// errNoHAL says why and what to do.
var errNoHAL = fmt.Errorf("%w: Systemcore's SmartIO channels, IMU, battery and Driver Station are reached through WPILib's 2027 HAL (libwpiHal.so), and this frcd %s (see %s): %w",
	ErrNoHAL, noHALReason, Checklist, hal.ErrUnsupported)
