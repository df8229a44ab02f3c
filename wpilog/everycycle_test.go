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
// every joint's position, velocity and effort of every cycle, once, each
// record stamped with its cycle's time: the moving wheels' as the
// stationary joints', whose value repeats. The loop's statistics come
// from the newest snapshot, once a sample.
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
	joints, repeated := 0, 0
	for name, e := range l.entries {
		if !strings.HasPrefix(name, "NT:/frcd/joints/") || strings.HasSuffix(name, "/command") || len(e.values) == 0 {
			continue
		}
		joints++
		if len(e.stamps) != len(stamps) {
			t.Errorf("%s: %d records over %d cycles, want one a cycle", name, len(e.stamps), len(stamps))
			continue
		}
		for i, s := range e.stamps {
			if s != stamps[i] {
				t.Errorf("%s: record %d stamped %d µs, want its cycle's %d µs", name, i, s, stamps[i])
				break
			}
		}
		for i := 1; i < len(e.values); i++ {
			if string(e.values[i]) == string(e.values[i-1]) {
				repeated++
			}
		}
	}
	if n := len(d.Loop.NewSnapshot().Joints); joints < n || repeated == 0 {
		t.Errorf("%d joint entries checked (%d values equal to the cycle before's): want at least one for each of the %d joints, stationary ones among them", joints, repeated, n)
	}
	left := l.entry(t, "NT:/frcd/joints/left_front_wheel_joint/position", "double")
	if f64(left.values[len(left.values)-1], 0) <= f64(left.values[0], 0) {
		t.Errorf("the left front wheel did not turn: %v then %v", f64(left.values[0], 0), f64(left.values[len(left.values)-1], 0))
	}
	if e := l.entry(t, "NT:/frcd/loop/cycles", "int64"); len(e.values) != samples {
		t.Errorf("loop/cycles: %d records for %d samples, want one a sample", len(e.values), samples)
	}
}
