package hal

import (
	"math"
	"strings"
)

// DSInfo is what the Driver Station says beyond enable, e-stop, mode
// and attached (which the loop's snapshot has), for the ROS bridges'
// driver_station/ topics (both ROS versions fill it alike).
type DSInfo struct {
	// Joysticks as the Driver Station sends them; a slot with nothing
	// plugged in has no axes, buttons or POVs and is not published.
	Joysticks [MaxJoysticks]JoystickState
	// MatchTime is the time left in the match period, s; negative when
	// unknown (not published then).
	MatchTime float64
	// Alliance is "red" or "blue", Station 1 to 3; "" and 0 when unknown.
	Alliance string
	Station  int
	// GameMessage is the game-specific message the field sends (WPILib's
	// GameSpecificMessage); "" when none.
	GameMessage string
	// OpModes are the robot's op modes, naming DSState.OpMode for the
	// driver_station/op_mode topics.
	OpModes OpModes
	// Brownout: the roboRIO is in brownout (its outputs disabled);
	// HasBrownout says whether the backend knows.
	Brownout, HasBrownout bool
}

// ParseStation reads a WPILib station name ("red1".."blue3").
func ParseStation(s string) (alliance string, station int) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, a := range []string{"red", "blue"} {
		if rest, ok := strings.CutPrefix(s, a); ok && len(rest) == 1 && rest[0] >= '1' && rest[0] <= '3' {
			return a, int(rest[0] - '0')
		}
	}
	return "", 0
}

// AppendJoyAxes appends joystick j's axes as sensor_msgs/Joy carries
// them (both ROS versions): its axes, then two per POV, x then y, as
// joy_node gives a hat: -1..1, 0 when not pressed, 45° both ±1.
func AppendJoyAxes(dst []float32, j *JoystickState) []float32 {
	na, np := min(j.NumAxes, MaxJoystickAxes), min(j.NumPOVs, MaxJoystickPOVs)
	for i := 0; i < na; i++ {
		dst = append(dst, float32(j.Axes[i]))
	}
	for i := 0; i < np; i++ {
		x, y := 0.0, 0.0
		if p := j.POVs[i]; p >= 0 {
			s, c := math.Sincos(float64(p) * math.Pi / 180)
			x, y = math.Round(s), math.Round(c)
		}
		dst = append(dst, float32(x), float32(y))
	}
	return dst
}

// AppendJoyButtons appends joystick j's buttons as sensor_msgs/Joy
// carries them: 1 pressed, 0 not, button 1 first.
func AppendJoyButtons(dst []int32, j *JoystickState) []int32 {
	for i := 0; i < min(j.NumButtons, MaxJoystickButtons); i++ {
		var v int32
		if j.Button(i + 1) {
			v = 1
		}
		dst = append(dst, v)
	}
	return dst
}
