package hal

// Driver Station joystick limits, as the Driver Station protocol and the
// WPILib HAL have them.
const (
	MaxJoysticks       = 6
	MaxJoystickAxes    = 12
	MaxJoystickButtons = 32
	MaxJoystickPOVs    = 12
)

// JoystickState is what one Driver Station joystick reports. The arrays
// are fixed so that a reader polling every cycle allocates nothing; only
// the first NumAxes, NumButtons and NumPOVs entries mean anything.
type JoystickState struct {
	Axes    [MaxJoystickAxes]float64 // -1 to 1
	NumAxes int
	// Buttons holds button i (counted from 1, as the Driver Station
	// numbers them) in bit i-1.
	Buttons    uint32
	NumButtons int
	POVs       [MaxJoystickPOVs]int // degrees, -1 when not pressed
	NumPOVs    int
}

// Button reports whether button i (1 to NumButtons) is pressed; false for
// a button the joystick does not have.
func (j *JoystickState) Button(i int) bool {
	return i >= 1 && i <= j.NumButtons && i <= MaxJoystickButtons && j.Buttons&(1<<(i-1)) != 0
}

// Joysticks is implemented by backends that hear the Driver Station's
// joysticks (the roboRIO's, through the WPILib HAL). It is optional: a
// caller checks with a type assertion.
type Joysticks interface {
	// Joystick fills dst with joystick n (0 to MaxJoysticks-1) as the
	// Driver Station last sent it; a slot with nothing plugged in reads
	// no axes, buttons or POVs. n out of range is ErrNoDevice.
	Joystick(n int, dst *JoystickState) error
}

// MatchTimer is implemented by backends that know the match clock from
// the Driver Station or the field. It is optional, like Joysticks.
type MatchTimer interface {
	// MatchTime is the time left in the current match period, in seconds,
	// as the Driver Station counts it; negative when it does not know
	// (practice without a timer).
	MatchTime() (float64, error)
}

// Brownouts is implemented by backends that know whether the robot
// controller is in brownout: its input voltage fell below the threshold
// at which it disables its outputs (the roboRIO's HAL_GetBrownedOut). It
// is optional, like Joysticks.
type Brownouts interface {
	BrownedOut() (bool, error)
}
