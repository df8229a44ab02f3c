package devices

import (
	"testing"
	"time"
)

// noReset is a ctreResetter that has never reset.
type noReset struct{}

func (noReset) HasResetOccurred() (bool, error) { return false, nil }

// While the loop asks a configured controller whether it has reset (a
// Talon FX's position held after a sign), Asked says so: from the
// question until the turn after the last answer, as the loop asks again
// at its next cycle after a "no" (until fxSignWait). The daemon then
// gives the turns every 50 ms instead of 250 ms.
func TestCTREAsked(t *testing.T) {
	s := &ctreSetup{apply: func() (string, error) { return "", nil }, reset: noReset{}}
	s.attempt()
	now := time.Second
	s.Configure(now)
	if s.Asked() {
		t.Fatal("asked before any question")
	}
	q := s.askReset()
	if !s.Asked() {
		t.Error("a question pending: not Asked")
	}
	now += 50 * time.Millisecond
	s.Configure(now)
	if !s.answeredTo(q) {
		t.Fatal("the question not answered at the turn")
	}
	if !s.Asked() {
		t.Error("a question answered at the last turn (the loop asks again): not Asked")
	}
	now += 50 * time.Millisecond
	s.Configure(now) // the loop asked no more
	if s.Asked() {
		t.Error("no question at the last turn: still Asked")
	}
	var _ AskedConfigurer = (*talonFX)(nil)
}
