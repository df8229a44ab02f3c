package daemon

import (
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
