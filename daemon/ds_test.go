package daemon

import (
	"testing"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/sim"
)

// The Driver Station snapshot for the ROS bridge carries the backend's
// brownout: none on a charged battery, brownout on one below the
// roboRIO 2's 6.75 V threshold.
func TestDriverStationBrownout(t *testing.T) {
	r, list, err := robot.Load("../examples/competition/robot.urdf", "../examples/competition/robot.yaml")
	if err != nil || list.Errors() > 0 {
		t.Fatalf("load: %v %v", err, list)
	}
	for _, c := range []struct {
		volts float64
		want  bool
	}{{12.8, false}, {6.5, true}} {
		sc := sim.ScenarioOf(r, sim.Options{Battery: sim.Battery{Voltage: c.volts}}, false)
		d, err := NewSim(r, SimOptions{Scenario: sc}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		info := hal.DSInfo{HasBrownout: !c.want, Brownout: !c.want}
		d.driverStation(&info)
		if !info.HasBrownout || info.Brownout != c.want {
			t.Errorf("battery %v V: brownout %v (known %v), want %v", c.volts, info.Brownout, info.HasBrownout, c.want)
		}
		d.Close()
	}
}
