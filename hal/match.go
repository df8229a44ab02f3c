package hal

import "strconv"

// MatchType is the kind of match the field (FMS) says is being played.
type MatchType uint8

// The match types, numbered as the WPILib HAL's HAL_MatchType.
const (
	MatchNone MatchType = iota
	MatchPractice
	MatchQualification
	MatchElimination
)

// MatchInfo is the match the Driver Station reports: set by the field at
// an event, empty otherwise.
type MatchInfo struct {
	Event       string // the event's name, as the field gives it
	Type        MatchType
	Number      int // the match number
	Replay      int // the replay number
	GameMessage string
}

// Known says whether a match is set: a type and a number.
func (m MatchInfo) Known() bool {
	return m.Type > MatchNone && m.Type <= MatchElimination && m.Number > 0
}

// Label is the match as WPILib's log files name it: the type's letter
// (P, Q or E) and the number, "Q12"; "" when not Known.
func (m MatchInfo) Label() string {
	if !m.Known() {
		return ""
	}
	return string("PQE"[m.Type-1]) + strconv.Itoa(m.Number)
}

// MatchInfos is implemented by backends that hear the match from the
// Driver Station (the roboRIO's HAL_GetMatchInfo). It is optional, like
// Joysticks.
type MatchInfos interface {
	MatchInfo() (MatchInfo, error)
}
