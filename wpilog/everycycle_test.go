package wpilog_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/daemon"
)

// TestLogEveryCycle: the telemetry samples once every two loop cycles
// (its goroutine woken late, as under load), and the log still holds
// every moving joint's position, velocity and effort of every cycle,
// once, each record stamped with its cycle's time (the driven wheels');
// a joint at rest only when its value changes, so an idle robot's log
// does not grow with repeats. The loop's statistics come from the newest
// snapshot, once a sample.
func TestLogEveryCycle(t *testing.T) {
	dir := t.TempDir()
	d, err := daemon.NewSim(exampleRobot(t), daemon.SimOptions{Enabled: true}, daemon.Options{Rate: 100,
		Telemetry: &daemon.TelemetryOptions{LogDir: dir}})
	if err != nil {
		t.Fatal(err)
	}
	const samples = 60
	var stamps []uint64 // each cycle's time, µs
	for range samples {
		for range 2 {
			d.Loop.Controller("drive").CommandGroup([]float64{1, 0, 0}, d.Now())
			d.Step()
			stamps = append(stamps, uint64(d.Now()/time.Microsecond))
		}
		d.StepTelemetry()
	}
	path := d.LogPath()
	if err := d.CloseLog(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l := readSpec(t, b)
	joints, moving := 0, 0
	for name, e := range l.entries {
		if !strings.HasPrefix(name, "NT:/frcd/joints/") || strings.HasSuffix(name, "/command") || len(e.values) == 0 {
			continue
		}
		joints++
		// A record a change, or a cycle of motion: never a repeat of a
		// joint at rest.
		vel := l.entries[name[:strings.LastIndex(name, "/")]+"/velocity"]
		at := map[uint64]int{}
		for i, s := range e.stamps {
			at[s] = i
		}
		for i := 1; i < len(e.values); i++ {
			if string(e.values[i]) == string(e.values[i-1]) && (vel == nil || velocityAt(vel, e.stamps[i]) == 0) {
				t.Errorf("%s: record %d repeats the one before while the joint is at rest", name, i)
				break
			}
		}
		if vel == nil {
			continue
		}
		// While the joint moves (its velocity, carried forward, not 0),
		// a record every cycle, at its cycle's time.
		for _, c := range stamps {
			if velocityAt(vel, c) != 0 {
				moving++
				if _, ok := at[c]; !ok {
					t.Errorf("%s: no record at %d µs, a cycle the joint was moving", name, c)
					break
				}
			}
		}
	}
	if n := len(d.Loop.NewSnapshot().Joints); joints < n || moving < 2*3*(len(stamps)-10) {
		t.Errorf("%d joint entries checked, %d records of moving joints: want one entry for each of the %d joints, the 2 front wheels (the measured ones) moving most cycles", joints, moving, n)
	}
	left := l.entry(t, "NT:/frcd/joints/left_front_wheel_joint/position", "double")
	if f64(left.values[len(left.values)-1], 0) <= f64(left.values[0], 0) {
		t.Errorf("the left front wheel did not turn: %v then %v", f64(left.values[0], 0), f64(left.values[len(left.values)-1], 0))
	}
	if e := l.entry(t, "NT:/frcd/loop/cycles", "int64"); len(e.values) != samples {
		t.Errorf("loop/cycles: %d records for %d samples, want one a sample", len(e.values), samples)
	}
}

// velocityAt is the velocity entry's value at cycle time c, carried
// forward from its last record at or before it (0 before the first).
func velocityAt(vel *specEntry, c uint64) float64 {
	v := 0.0
	for i, s := range vel.stamps {
		if s > c {
			break
		}
		v = f64(vel.values[i], 0)
	}
	return v
}
