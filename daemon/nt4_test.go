package daemon

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tinylib/msgp/msgp"

	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/nt4/wire"
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
	d, err := NewSim(r, SimOptions{Enabled: true}, Options{Rate: rate, Telemetry: &TelemetryOptions{NT4: "127.0.0.1:0", LogDir: dir}})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { d.CloseLog() })
	return d
}

// ntReader connects a client (wire.Conn) to d's NT4 server, serving it
// until the test ends, and subscribes it to topics (prefixes) at period:
// with all, every value (AdvantageScope's logging mode: prefix "",
// periodic 0.02), else the latest of each period (an Elastic widget:
// 0.1 s). Call it once per d. It returns once the client holds a value of
// the topic named first, stepping the telemetry (not the loop) while it
// waits.
func ntReader(tb testing.TB, d *Daemon, all bool, period time.Duration, topics ...string) *wire.Conn {
	tb.Helper()
	tooltest.Serve(tb, d.NT.Run)
	c, err := wire.Dial(context.Background(), d.NT.Addr().String(), fmt.Sprintf("reader%d", d.NT.Stats().Connects))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(c.CloseNow)
	if all {
		err = c.SubscribeAll(topics, true, period)
	} else {
		err = c.Subscribe(topics, true, false, period)
	}
	if err != nil {
		tb.Fatal(err)
	}
	first := topics[0]
	if first == "" {
		first = d.tel.src.Prefix() + "/loop/cycles"
	}
	guard := time.NewTimer(20 * time.Second)
	defer guard.Stop()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		var has bool
		c.Read(first, func(t *wire.ClientTopic) { has = t.Value.Raw != nil })
		if has {
			return c
		}
		select {
		case <-tick.C:
			d.StepTelemetry()
		case <-c.Done():
			tb.Fatalf("the NT4 client stopped: %v", c.Err())
		case <-guard.C:
			tb.Fatalf("no value of %s within 20 s", first)
		}
	}
}

// TestTelemetryDoesNotAllocate: with the NT4 server serving a client that
// subscribes to every topic (and to every value of the loop's cycle
// count) and the log on, the loop's cycle still allocates nothing, and
// neither does sampling its snapshot into the server and the log
// (between the once-a-second rebuilds of the backend's Alerts).
// AllocsPerRun counts the whole process's allocations: the client reads
// at NT4's longest period, 1 s, so that the server's writer and the
// client's reader, which allocate per frame, stay well below one
// allocation a run.
func TestTelemetryDoesNotAllocate(t *testing.T) {
	d := telemetryDaemon(t, 1000, t.TempDir())
	command(d)
	c := ntReader(t, d, false, time.Second, "")
	if err := c.SubscribeAll([]string{d.tel.src.Prefix() + "/loop/cycles"}, false, time.Second); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		d.Step()
		d.StepTelemetry()
	}
	published := d.NT.Stats().Published
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
	if p := d.NT.Stats().Published - published; p < 150 {
		t.Errorf("the server published %d times in 201 cycles", p)
	}
}

// BenchmarkNT4Subscribers is the telemetry's work per cycle of the
// competition robot at 100 Hz (copying the snapshot, updating the topics,
// encoding the values clients read; the loop's cycle itself not counted)
// for three NT4 servers side by side, cycle for cycle: none with no
// client (the daemon does not even call it then: it waits for a client),
// three with one client reading three topics as Elastic widgets do (a
// joint's position, the robot's enabled state, the PDP's voltage), every
// with one reading every value of every topic as AdvantageScope's
// logging mode does (prefix "", all). No log: the log keeps every topic.
// It reports each one's median ns/cycle and the ratios three/every and
// none/every.
func BenchmarkNT4Subscribers(b *testing.B) {
	none, three, every := telemetryDaemon(b, 100, ""), telemetryDaemon(b, 100, ""), telemetryDaemon(b, 100, "")
	name := func(d *Daemon, suffix string) string {
		for _, t := range d.tel.src.Topics {
			if strings.HasSuffix(t.Name, suffix) {
				return t.Name
			}
		}
		b.Fatalf("no topic *%s", suffix)
		return ""
	}
	ds := []*Daemon{none, three, every}
	for _, d := range ds {
		command(d)
		d.Step()
		d.StepTelemetry()
	}
	ntReader(b, three, false, 100*time.Millisecond, name(three, "/position"), name(three, "/ds/enabled"), name(three, "/voltage"))
	ntReader(b, every, true, 20*time.Millisecond, "")
	for range 100 {
		for _, d := range ds {
			d.Step()
			d.StepTelemetry()
		}
	}
	var spent [3][]time.Duration
	for k := range spent {
		spent[k] = make([]time.Duration, b.N)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, d := range ds {
			if i%50 == 0 {
				command(d)
			}
			d.Step()
			t0 := time.Now()
			d.StepTelemetry()
			spent[k][i] = time.Since(t0)
		}
	}
	b.StopTimer()
	// The median: the clients' goroutines share the machine, and a call
	// they preempt counts their time.
	var med [3]float64
	for k, unit := range []string{"none-ns/cycle", "three-ns/cycle", "every-ns/cycle"} {
		slices.Sort(spent[k])
		med[k] = float64(spent[k][b.N/2])
		b.ReportMetric(med[k], unit)
	}
	b.ReportMetric(med[1]/med[2], "three/every")
	b.ReportMetric(med[0]/med[2], "none/every")
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
	d := telemetryDaemon(t, 100, t.TempDir()) // the log: every topic kept
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

// TestTelemetryFollowsSubscriptions: with no log, the telemetry builds
// and encodes only the topics an NT4 client subscribes to the values of.
// A client (wire.Conn) reading three topics gets their values as the
// source holds them, while the parts nobody reads (the sim's link poses,
// the Mechanism2d, the Alerts) are not built; when it subscribes to more,
// the new topics' current values come without another loop cycle; when it
// goes, nothing is built.
func TestTelemetryFollowsSubscriptions(t *testing.T) {
	d := telemetryDaemon(t, 100, "")
	command(d)
	d.Step()
	d.StepTelemetry()
	src := d.tel.src
	byName := map[string]*telemetry.Topic{}
	for _, tp := range src.Topics {
		byName[tp.Name] = tp
	}
	p := src.Prefix()
	three := []string{p + "/joints/right_front_wheel_joint/position", p + "/ds/enabled", p + "/power/pdp/voltage"}
	for _, n := range three {
		if byName[n] == nil {
			t.Fatalf("no topic %s", n)
		}
	}
	c := ntReader(t, d, false, 10*time.Millisecond, three...)
	idle := []*telemetry.Topic{byName[p+"/sim/components"], byName["/SmartDashboard/Alerts/errors"], byName[p+"/loop/jitter_p99"]}
	for _, tp := range src.Topics {
		if strings.HasPrefix(tp.Name, p+"/mechanism/") && strings.HasSuffix(tp.Name, "/angle") {
			idle = append(idle, tp)
		}
	}
	seqs := make([]uint64, len(idle))
	for i, tp := range idle {
		seqs[i] = tp.Seq
	}
	for range 100 { // the arm moves: its link poses and angles would change
		d.Step()
		d.StepTelemetry()
	}
	for _, tp := range src.Topics {
		if want := slices.Contains(three, tp.Name); tp.Needed() != want {
			t.Errorf("%s: needed %v, want %v", tp.Name, tp.Needed(), want)
		}
	}
	for i, tp := range idle {
		if tp.Seq != seqs[i] {
			t.Errorf("%s built (seq %d -> %d) with no reader", tp.Name, seqs[i], tp.Seq)
		}
	}
	// The client's values, once its next period has passed, are the
	// source's.
	same := func(tp *telemetry.Topic) bool {
		var want []byte
		switch tp.Kind {
		case telemetry.Bool:
			want = msgp.AppendBool(nil, tp.Bool)
		case telemetry.Double:
			want = msgp.AppendFloat64(nil, tp.Double)
		case telemetry.Raw:
			want = msgp.AppendBytes(nil, tp.Raw)
		default:
			t.Fatalf("%s: kind %d not compared here", tp.Name, tp.Kind)
		}
		var got []byte
		c.Read(tp.Name, func(ct *wire.ClientTopic) { got = append(got, ct.Value.Raw...) })
		return string(got) == string(want)
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		guard := time.NewTimer(20 * time.Second)
		defer guard.Stop()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for !ok() {
			select {
			case <-tick.C:
				d.StepTelemetry() // no loop cycle
			case <-guard.C:
				t.Fatalf("waiting for %s: nothing within 20 s", what)
			}
		}
	}
	waitFor("the three values as the source holds them", func() bool {
		return same(byName[three[0]]) && same(byName[three[1]]) && same(byName[three[2]])
	})

	// More: the sim's poses, never built so far, come at once, as they
	// are now.
	cycles := d.Loop.Stats().Cycles
	if err := c.Subscribe([]string{p + "/sim/"}, true, false, 10*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	comp := byName[p+"/sim/components"]
	waitFor("the links' poses", func() bool { return comp.Needed() && comp.Seq != seqs[0] && same(comp) })
	if n := d.Loop.Stats().Cycles; n != cycles {
		t.Errorf("%d loop cycles ran while waiting", n-cycles)
	}

	// Gone: nothing is needed any more.
	c.CloseNow()
	waitFor("the client's topics dropped", func() bool {
		for _, tp := range src.Topics {
			if tp.Needed() {
				return false
			}
		}
		return true
	})
}
