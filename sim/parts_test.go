package sim

import (
	"testing"

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
		if p.bus == nil && p.actuator == nil && p.sensor == nil {
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
