package daemon

import (
	"testing"
	"time"
)

// telemetryDaemon is the competition robot at rate Hz on the
// deterministic sim with the NT4 server bound (not serving: Publish
// never waits on a client) and, when dir is set, a log in dir.
func telemetryDaemon(tb testing.TB, rate float64, dir string) *Daemon {
	tb.Helper()
	d := competition(tb, rate, false)
	r := d.Robot
	d, err := NewSim(r, Options{Rate: rate, Enabled: true, Telemetry: &TelemetryOptions{NT4: "127.0.0.1:0", LogDir: dir}})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { d.CloseLog() })
	return d
}

// TestTelemetryDoesNotAllocate: with the NT4 server and the log on, the
// loop's cycle still allocates nothing, and neither does sampling its
// snapshot into the server and the log (between the once-a-second
// rebuilds of the backend's Alerts).
func TestTelemetryDoesNotAllocate(t *testing.T) {
	d := telemetryDaemon(t, 1000, t.TempDir())
	command(d)
	for range 100 {
		d.Step()
		d.StepTelemetry()
	}
	n := 0
	loop := testing.AllocsPerRun(200, func() {
		if n++; n%50 == 0 {
			command(d)
		}
		d.Step()
		d.StepTelemetry()
	})
	cycle := testing.AllocsPerRun(200, func() { d.Step() })
	if loop != 0 || cycle != 0 {
		t.Errorf("allocations: a cycle with telemetry %v, the loop's cycle alone %v; want 0", loop, cycle)
	}
	if s := d.NT.Stats(); s.Published < 300 {
		t.Errorf("the server published %d times in 500 cycles", s.Published)
	}
}

// BenchmarkNT4Publish is the NT4 server's work per cycle of the
// competition robot at 100 Hz, off the loop: copying the snapshot,
// updating the topics and encoding the changed values for the clients.
// publish/cycle is its cost as a fraction of the loop's cycle (sim
// included) measured in the same run.
func BenchmarkNT4Publish(b *testing.B) {
	d := telemetryDaemon(b, 100, "")
	command(d)
	for range 100 {
		d.Step()
		d.StepTelemetry()
	}
	var cycle, publish time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%50 == 0 {
			command(d)
		}
		t0 := time.Now()
		d.Step()
		t1 := time.Now()
		d.StepTelemetry()
		cycle, publish = cycle+t1.Sub(t0), publish+time.Since(t1)
	}
	b.ReportMetric(float64(publish)/float64(b.N), "publish-ns/cycle")
	b.ReportMetric(float64(publish)/float64(cycle), "publish/cycle")
}

// BenchmarkLogBytes is the log of the competition robot at 100 Hz, every
// joint commanded (moving): bytes of WPILOG per second of robot time, and
// the log's time per cycle as a fraction of the loop's cycle.
func BenchmarkLogBytes(b *testing.B) {
	d := telemetryDaemon(b, 100, b.TempDir())
	command(d)
	for range 100 {
		d.Step()
		d.StepTelemetry()
	}
	w := d.tel.log.Writer()
	start, t0 := w.Written(), d.Now()
	var cycle, logging time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%10 == 0 {
			command(d)
		}
		c0 := time.Now()
		d.Step()
		c1 := time.Now()
		d.StepTelemetry()
		cycle, logging = cycle+c1.Sub(c0), logging+time.Since(c1)
	}
	b.StopTimer()
	b.ReportMetric(float64(w.Written()-start)/(d.Now()-t0).Seconds(), "log-bytes/s")
	b.ReportMetric(float64(logging)/float64(cycle), "telemetry/cycle")
}
