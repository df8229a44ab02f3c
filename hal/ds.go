package hal

import "strings"

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
