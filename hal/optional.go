package hal

import "time"

// Optional interfaces a backend may implement besides Backend. The daemon
// checks for them; devices never need them.

// Stepper is implemented by backends with work on the loop's beat: the
// sim integrates its plants up to now; the Linux backend sends the CAN
// heartbeat. The daemon calls AdvanceTo before every cycle, from the
// loop's goroutine.
type Stepper interface {
	AdvanceTo(now time.Duration)
}

// Enabler is implemented by backends whose robot frcd itself enables (the
// sim, a Linux coprocessor with no Driver Station): ROS's /frcd/enable
// calls it. A roboRIO's backend does not implement it: there only the
// Driver Station enables the robot. Safe from any goroutine.
type Enabler interface {
	SetEnabled(on bool)
}

// Epocher is implemented by backends that know the wall-clock time of
// their Clock's zero (for message time stamps); for others it is taken at
// start.
type Epocher interface {
	Epoch() time.Time
}

// Reporter is implemented by backends with health of their own to report
// on /diagnostics (the Linux backend's CAN heartbeats). Safe from any
// goroutine.
type Reporter interface {
	// Report appends one Report per part to dst.
	Report(dst []Report) []Report
}

// Report is one part's health: a name ("heartbeat can0"), a message,
// whether it is a warning or an error (Error wins), and key-value pairs
// (a device's temperature, its fault fields).
type Report struct {
	Name, Message string
	Warn, Error   bool
	Values        [][2]string
}

// HALClock is implemented by backends on a controller whose HAL keeps a
// clock of its own beside the OS's (WPILib's HAL: the roboRIO's FPGA
// time, Systemcore's HAL_GetMonotonicTime). Their Clock is the OS's
// monotonic clock, which a HAL clock that fails cannot stop; the daemon
// reads both every cycle and takes a HAL clock that cannot be read,
// stalls or steps back as a fault: every output neutral, the robot
// disabled until it is sane again.
type HALClock interface {
	// ReadClock reads the HAL's clock: its time since the backend opened
	// (negative when it stepped back past that), or why it cannot be
	// read; an error wrapping ErrUnsupported when the backend has no HAL
	// clock after all (Systemcore's without WPILib's HAL).
	ReadClock() (time.Duration, error)
}
