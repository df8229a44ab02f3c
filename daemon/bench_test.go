package daemon

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/robot"
)

// competition builds the full example robot on the deterministic sim at
// rate Hz, enabled, with a command on every controller.
func competition(tb testing.TB, rate float64, realTime bool) *Daemon {
	tb.Helper()
	r, list, err := robot.Load("../examples/competition/robot.urdf", "../examples/competition/robot.yaml")
	if err != nil || list.Errors() > 0 {
		tb.Fatalf("load: %v %v", err, list)
	}
	d, err := NewSim(r, SimOptions{Enabled: true, RealTime: realTime}, Options{Rate: rate})
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// command refreshes every controller's command (small values, so that
// nothing slams into a stop).
func command(d *Daemon) {
	now := d.Now()
	for _, c := range d.Loop.Controllers() {
		if c.Takes() == control.Twist {
			_ = c.CommandGroup(benchTwist, now)
			continue
		}
		v := 0.5
		if c.Takes() == control.Int8 || c.Takes() == control.Bool {
			v = 1
		}
		_ = c.Command(v, now)
	}
}

// benchTwist is the drive base's command: 0.5 m/s forward, turning
// 0.5 rad/s (a variable, so that commanding it allocates nothing).
var benchTwist = []float64{0.5, 0, 0.5}

// TestCycleDoesNotAllocate: a whole cycle of the full example robot, sim
// included, allocates nothing once running.
func TestCycleDoesNotAllocate(t *testing.T) {
	d := competition(t, 1000, false)
	command(d)
	for i := 0; i < 100; i++ {
		d.Step()
	}
	n := 0
	allocs := testing.AllocsPerRun(1000, func() {
		if n++; n%50 == 0 {
			command(d)
		}
		d.Step()
	})
	if allocs != 0 {
		t.Errorf("a cycle allocates %v times", allocs)
	}
	if st := d.Loop.Stats(); st.DeviceErrors != 0 || st.Refused != 0 {
		t.Errorf("device errors %d, refused %d", st.DeviceErrors, st.Refused)
	}
}

// BenchmarkCycle is one full cycle of the full example robot (33 devices,
// 16 joints, 16 controllers) at 1 kHz on the deterministic sim: the sim's
// physics step, every device's Read, the merge, the controllers and PIDs,
// safety, every device's Write.
func BenchmarkCycle(b *testing.B) {
	d := competition(b, 1000, false)
	command(d)
	for i := 0; i < 100; i++ {
		d.Step()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%50 == 0 {
			command(d)
		}
		d.Step()
	}
}

// BenchmarkCycleLoopOnly times the loop's cycle without the sim's physics
// step, as it would run against real hardware.
func BenchmarkCycleLoopOnly(b *testing.B) {
	d := competition(b, 1000, false)
	command(d)
	for i := 0; i < 100; i++ {
		d.Step()
	}
	now := d.Now()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%50 == 0 {
			command(d)
		}
		now += time.Millisecond
		d.Loop.Cycle(now)
	}
}

// BenchmarkRealtime1kHz runs the full example robot in real time at 1 kHz
// for b.N periods and reports the period's jitter (|period - 1 ms|) as
// p50, p99 and max in µs, and the overruns. The figures are the machine's:
// nothing asserts them.
func BenchmarkRealtime1kHz(b *testing.B) {
	d := competition(b, 1000, true)
	if s := os.Getenv("FRCD_SPIN"); s != "" {
		d.opts.Spin, _ = time.ParseDuration(s)
	}
	command(d)
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(b.N)*time.Millisecond)
	defer cancel()
	b.ResetTimer()
	if err := d.Run(ctx); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	st := d.Loop.Stats()
	us := func(t time.Duration) float64 { return float64(t) / float64(time.Microsecond) }
	b.ReportMetric(us(st.Jitter.Quantile(0.5)), "jitter-p50-µs")
	b.ReportMetric(us(st.Jitter.Quantile(0.99)), "jitter-p99-µs")
	b.ReportMetric(us(st.Jitter.Max), "jitter-max-µs")
	b.ReportMetric(us(st.Busy.Quantile(0.99)), "busy-p99-µs")
	b.ReportMetric(float64(st.Overruns), "overruns")
	b.ReportMetric(float64(st.Cycles), "cycles")
}
