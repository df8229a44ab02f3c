package hal

import "testing"

func TestMatchLabel(t *testing.T) {
	for _, c := range []struct {
		m    MatchInfo
		want string
	}{
		{MatchInfo{Type: MatchQualification, Number: 12}, "Q12"},
		{MatchInfo{Type: MatchPractice, Number: 3}, "P3"},
		{MatchInfo{Type: MatchElimination, Number: 2, Replay: 1}, "E2"},
		{MatchInfo{Type: MatchNone, Number: 4}, ""},
		{MatchInfo{Type: MatchQualification}, ""},
		{MatchInfo{Type: 9, Number: 1}, ""},
	} {
		if got := c.m.Label(); got != c.want {
			t.Errorf("%+v: label %q, want %q", c.m, got, c.want)
		}
		if c.m.Known() != (c.want != "") {
			t.Errorf("%+v: Known %v", c.m, c.m.Known())
		}
	}
}
