package daemon

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/sim"
	"github.com/frcd/frcd/telemetry"
	"github.com/frcd/frcd/urdf"
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

// mat is a 4x4 homogeneous transform, row-major.
type mat [4][4]float64

func (a mat) mul(b mat) mat {
	var c mat
	for i := range 4 {
		for j := range 4 {
			for k := range 4 {
				c[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return c
}

// rpyMat is URDF's origin: Rz(yaw)·Ry(pitch)·Rx(roll), then the
// translation.
func rpyMat(xyz, rpy [3]float64) mat {
	sr, cr := math.Sincos(rpy[0])
	sp, cp := math.Sincos(rpy[1])
	sy, cy := math.Sincos(rpy[2])
	rx := mat{{1, 0, 0, 0}, {0, cr, -sr, 0}, {0, sr, cr, 0}, {0, 0, 0, 1}}
	ry := mat{{cp, 0, sp, 0}, {0, 1, 0, 0}, {-sp, 0, cp, 0}, {0, 0, 0, 1}}
	rz := mat{{cy, -sy, 0, 0}, {sy, cy, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}
	m := rz.mul(ry).mul(rx)
	m[0][3], m[1][3], m[2][3] = xyz[0], xyz[1], xyz[2]
	return m
}

// axisMat is Rodrigues' rotation by angle about a unit axis.
func axisMat(a [3]float64, angle float64) mat {
	s, c := math.Sincos(angle)
	t := 1 - c
	x, y, z := a[0], a[1], a[2]
	return mat{
		{t*x*x + c, t*x*y - s*z, t*x*z + s*y, 0},
		{t*x*y + s*z, t*y*y + c, t*y*z - s*x, 0},
		{t*x*z - s*y, t*y*z + s*x, t*z*z + c, 0},
		{0, 0, 0, 1},
	}
}

// TestLinkPoses: the links' robot-relative poses (sim/components,
// Pose3d[]) agree with forward kinematics done here with matrices, with
// the arm's joints placed at known angles.
func TestLinkPoses(t *testing.T) {
	d := telemetryDaemon(t, 100, "")
	d.Step()
	place := map[string]float64{"shoulder_joint": 0.7, "wrist_joint": -0.4, "elevator_joint": 0.3, "turret_joint": 1.2, "hood_joint": 0.2}
	for j, q := range place {
		if err := d.Sim.SetJoint(j, q, 0); err != nil {
			t.Fatal(err)
		}
	}
	d.Step()
	d.StepTelemetry()
	truth := map[string]float64{}
	d.Sim.EachJoint(func(name string, j sim.JointTruth) { truth[name] = j.Position })
	var comp *telemetry.Topic
	for _, tp := range d.tel.src.Topics {
		if strings.HasSuffix(tp.Name, "/sim/components") {
			comp = tp
		}
	}
	var links struct{ Links string }
	if comp == nil || json.Unmarshal([]byte(comp.Props), &links) != nil {
		t.Fatalf("no sim/components topic with its links: %+v", comp)
	}
	u := d.Robot.URDF
	pose := map[string]mat{u.Root.Name: {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}}
	for changed := true; changed; {
		changed = false
		for _, j := range u.Joints {
			p, ok := pose[j.Parent]
			if _, done := pose[j.Child]; !ok || done {
				continue
			}
			m := p.mul(rpyMat([3]float64(j.Origin.XYZ), [3]float64(j.Origin.RPY)))
			ax := [3]float64(j.Axis)
			n := math.Sqrt(ax[0]*ax[0] + ax[1]*ax[1] + ax[2]*ax[2])
			ax = [3]float64{ax[0] / n, ax[1] / n, ax[2] / n}
			q := truth[j.Name]
			switch j.Type {
			case urdf.Revolute, urdf.Continuous:
				m = m.mul(axisMat(ax, q))
			case urdf.Prismatic:
				m = m.mul(mat{{1, 0, 0, ax[0] * q}, {0, 1, 0, ax[1] * q}, {0, 0, 1, ax[2] * q}, {0, 0, 0, 1}})
			}
			pose[j.Child], changed = m, true
		}
	}
	names := strings.Split(links.Links, ",")
	if len(comp.Raw) != 56*len(names) {
		t.Fatalf("%d bytes for %d links", len(comp.Raw), len(names))
	}
	f := func(k, i int) float64 {
		return math.Float64frombits(binary.LittleEndian.Uint64(comp.Raw[56*k+8*i:]))
	}
	for k, name := range names {
		want, ok := pose[name]
		if !ok {
			t.Fatalf("link %s: not reached from the root", name)
		}
		w, x, y, z := f(k, 3), f(k, 4), f(k, 5), f(k, 6)
		got := mat{
			{1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y), f(k, 0)},
			{2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x), f(k, 1)},
			{2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y), f(k, 2)},
		}
		for i := range 3 {
			for j := range 4 {
				if math.Abs(got[i][j]-want[i][j]) > 1e-9 {
					t.Fatalf("link %s: pose\n%v\nwant\n%v", name, got, want)
				}
			}
		}
	}
	if q := truth["shoulder_joint"]; math.Abs(q-0.7) > 0.05 {
		t.Errorf("shoulder_joint at %v, placed at 0.7", q)
	}
}
