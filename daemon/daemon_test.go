package daemon

import (
	"math"
	"testing"
)

// TestCompetitionRunsClean runs the full example robot at 50, 100 and
// 1000 Hz: after the first frames have arrived no device may fail, and
// every joint a device measures has a state.
func TestCompetitionRunsClean(t *testing.T) {
	for _, rate := range []float64{50, 100, 1000} {
		d := competition(t, rate, false)
		command(d)
		for d.Now() < d.Loop.Period()*10+100e6 { // 100 ms of start-up: the PDP's and PCM's first frames
			d.Step()
		}
		start := d.Loop.Stats().DeviceErrors
		for i := 0; i < 200; i++ {
			if i%20 == 0 {
				command(d)
			}
			d.Step()
		}
		s := d.Loop.NewSnapshot()
		d.Loop.ReadSnapshot(s)
		if n := s.Stats.DeviceErrors - start; n != 0 {
			for _, dv := range s.Devices {
				if dv.Errors > 0 {
					t.Errorf("%v Hz: %s: %d errors, last %v", rate, dv.Name, dv.Errors, dv.LastErr)
				}
			}
		}
		for _, j := range s.Joints {
			if j.State.Has == 0 {
				t.Errorf("%v Hz: joint %s has no state", rate, j.Name)
			}
		}
	}
}

// TestLinkSensorsInSnapshot: the digital and analog inputs in URDF links
// (not the joints' limit switches and pots) reach the loop's snapshot,
// with what the sim says they sense, and reading it does not allocate.
func TestLinkSensorsInSnapshot(t *testing.T) {
	d := competition(t, 100, false)
	if err := d.Sim.SetSensor("ball_beam_break", 1); err != nil {
		t.Fatal(err)
	}
	if err := d.Sim.SetSensor("front_ultrasonic", 2.5); err != nil {
		t.Fatal(err)
	}
	d.Step()
	s := d.Loop.NewSnapshot()
	d.Loop.ReadSnapshot(s)
	if len(s.LinkDigital) != 1 || s.LinkDigital[0].Name != "ball_beam_break" || !s.LinkDigital[0].OK || !s.LinkDigital[0].State.Value {
		t.Errorf("digital link sensors %+v", s.LinkDigital)
	}
	if len(s.LinkAnalog) != 1 || s.LinkAnalog[0].Name != "front_ultrasonic" || !s.LinkAnalog[0].OK || math.Abs(s.LinkAnalog[0].State.Value-2.5) > 1e-9 {
		t.Errorf("analog link sensors %+v", s.LinkAnalog)
	}
	if err := d.Sim.SetSensor("ball_beam_break", 0); err != nil {
		t.Fatal(err)
	}
	d.Step()
	if a := testing.AllocsPerRun(100, func() { d.Loop.ReadSnapshot(s) }); a != 0 {
		t.Errorf("ReadSnapshot allocates %v", a)
	}
	if s.LinkDigital[0].State.Value {
		t.Error("beam still broken after it cleared")
	}
}
