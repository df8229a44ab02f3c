package sim

import (
	"slices"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
)

// Every registered part emulates a registered device type, and every
// device type the sim must emulate has a part: a registered one, or one
// its facts call for (a PWM speed controller). Types with no part are the
// ones nothing in the sim needs to answer (none today).
func TestPartsCoverTypes(t *testing.T) {
	for _, name := range partNames() {
		if config.Lookup(name) == nil {
			t.Errorf("part %s emulates no registered device type", name)
		}
	}
	for _, typ := range config.Types() {
		p := partOf(typ)
		if p.bus == nil && p.actuator == nil && p.sensor == nil && p.provider == "" {
			t.Errorf("device type %s has no sim part: add sim/part_%s.go", typ.Name, typ.Name)
		}
		switch typ.Place {
		case config.DrivesJoint:
			if p.actuator == nil {
				t.Errorf("%s drives a joint but its part has no actuator", typ.Name)
			}
		case config.JointSensor, config.LinkSensor:
			if p.sensor == nil {
				t.Errorf("%s is a sensor but its part has no sensor", typ.Name)
			}
		}
		if typ.CAN && p.bus == nil && p.actuator == nil && p.sensor == nil {
			t.Errorf("%s is on the CAN bus but the sim puts nothing there", typ.Name)
		}
	}
}

// countingSender notes the ticks it is called on.
type countingSender struct{ ticks []int }

func (c *countingSender) send(s *Sim, at time.Duration, tick int) {
	if time.Duration(tick)*fastPeriod != at {
		panic("tick and time disagree")
	}
	c.ticks = append(c.ticks, tick)
}

// A part's sender is called on every fast tick, from 0, as the CTRE
// devices send.
func TestSenderTicks(t *testing.T) {
	s := newSim(t, competition(t), Options{})
	c := &countingSender{}
	s.addSender(c)
	s.AdvanceTo(35 * time.Millisecond)
	if want := []int{1, 2, 3}; !slices.Equal(c.ticks, want) {
		t.Errorf("ticks %v, want %v (tick 0 went out in New, before the sender)", c.ticks, want)
	}
}
