package ros

import (
	"math"
	"testing"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/devices"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/sim"
)

// The full example robot, as the bridge's message benchmarks load it.
const (
	buildBenchURDF = "../examples/competition/robot.urdf"
	buildBenchYAML = "../examples/competition/robot.yaml"
)

// buildBenchCommand gives every controller a small command (a group one
// value per joint), so that nothing is refused and nothing slams into a
// stop.
func buildBenchCommand(l *control.Loop, now time.Duration) {
	for _, c := range l.Controllers() {
		switch c.Takes() {
		case control.Float64Array:
			vs := make([]float64, len(c.Joints))
			for i := range vs {
				vs[i] = 0.5
			}
			_ = c.CommandGroup(vs, now)
		case control.Int8, control.Bool:
			_ = c.Command(1, now)
		default:
			_ = c.Command(0.5, now)
		}
	}
}

// buildBenchSnapshot builds the full example robot on the deterministic
// sim the way daemon.bind does, enabled, runs it for 300 cycles with a
// command on every controller, and returns a bridge over its loop (made,
// not run) and the last cycle's snapshot.
func buildBenchSnapshot(b testing.TB) (*Bridge, *control.Snapshot) {
	b.Helper()
	r, list, err := robot.Load(buildBenchURDF, buildBenchYAML)
	if err != nil || list.Errors() > 0 {
		b.Fatalf("load: %v %v", err, list)
	}
	s, err := sim.New(r, sim.ConfigOptions(r.Config, 1, false))
	if err != nil {
		b.Fatalf("sim: %v", err)
	}
	s.SetDS(hal.DSState{Enabled: true, Attached: true, Mode: hal.Teleop})
	reg := interfaces.NewRegistry()
	devs, err := devices.Build(r.Config, devices.NewEnv(s, reg))
	if err != nil {
		b.Fatalf("devices: %v", err)
	}
	cdevs := make([]control.Device, len(devs))
	for i, d := range devs {
		cdevs[i] = d
	}
	start := time.Now()
	loop, err := control.New(r, reg, cdevs, s, control.Options{Stopwatch: func() time.Duration { return time.Since(start) }})
	if err != nil {
		b.Fatalf("loop: %v", err)
	}
	var now time.Duration
	for i := 0; i < 300; i++ {
		if i%25 == 0 {
			buildBenchCommand(loop, now)
		}
		now += loop.Period()
		s.AdvanceTo(now)
		loop.Cycle(now)
	}
	br, err := New(Options{Loop: loop, Config: r.Config, Clock: s.Now, Epoch: s.Epoch()})
	if err != nil {
		b.Fatal(err)
	}
	snap := loop.NewSnapshot()
	loop.ReadSnapshot(snap)
	if snap.Now != now || !snap.Enabled {
		b.Fatalf("snapshot at %v enabled %v, want %v enabled", snap.Now, snap.Enabled, now)
	}
	return br, snap
}

// BenchmarkBuildJointState is the cost of one /joint_states message of the
// full example robot from a snapshot (-benchmem: its allocations).
func BenchmarkBuildJointState(b *testing.B) {
	br, snap := buildBenchSnapshot(b)
	m := newBuilder(snap, br)
	first := m.jointState()
	if len(first.Name) == 0 || len(first.Position) != len(first.Name) {
		b.Fatalf("joint state %+v", first)
	}
	measured := 0
	for _, v := range first.Position {
		if !math.IsNaN(v) {
			measured++
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		first = m.jointState()
	}
	b.StopTimer()
	b.ReportMetric(float64(len(first.Name)), "joints")
	b.ReportMetric(float64(measured), "positions")
}

// BenchmarkBuildDiagnostics is the cost of one /diagnostics message of the
// full example robot from a snapshot: the loop, every device and every
// controller (-benchmem: its allocations).
func BenchmarkBuildDiagnostics(b *testing.B) {
	br, snap := buildBenchSnapshot(b)
	m := newBuilder(snap, br)
	msg := m.diagnostics()
	if len(msg.Status) != 1+len(snap.Devices)+len(br.o.Loop.Controllers()) {
		b.Fatalf("%d statuses, want 1 + %d devices + %d controllers", len(msg.Status), len(snap.Devices), len(br.o.Loop.Controllers()))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		msg = m.diagnostics()
	}
	b.StopTimer()
	b.ReportMetric(float64(len(msg.Status)), "statuses")
}

// TestBuildersDoNotAllocate: the messages published at the bridge's rate
// (joint states, IMUs, PDPs, the sim's truth) are rebuilt in place, with
// no allocation per publication, once the first has sized them.
func TestBuildersDoNotAllocate(t *testing.T) {
	br, snap := buildBenchSnapshot(t)
	if len(snap.IMUs) == 0 || len(snap.PDPs) == 0 {
		t.Fatalf("the example has %d IMUs and %d PDPs: the test needs both", len(snap.IMUs), len(snap.PDPs))
	}
	m := newBuilder(snap, br)
	tr := &Truth{Names: []string{"a", "b"}, Position: []float64{1, 2}, Velocity: []float64{3, 4}, Effort: []float64{5, 6}, HasPose: true}
	build := func() {
		m.jointState()
		for i := range snap.IMUs {
			m.imu(i, "imu")
		}
		for i := range snap.PDPs {
			m.pdp(i)
		}
		m.truth(tr)
	}
	build()
	if n := testing.AllocsPerRun(100, build); n != 0 {
		t.Errorf("%v allocations per publication", n)
	}
	// Rebuilt, not stale: a changed truth shows in the next message.
	tr.Position[0] = 7
	if js, _ := m.truth(tr); js.Position[0] != 7 {
		t.Errorf("the truth's first position %v after a change to 7", js.Position[0])
	}
}
