package ros_test

// Benchmarks of the bridge over loopback: the latency of /joint_states
// from the real-time loop to a goroslib subscriber in the same process,
// and goroslib's JointState throughput through the embedded master. They
// need a daemon, which imports package ros, so they live here.

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	goroslib "github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/ros/master"
)

const (
	// netBenchWarmup messages are received and not counted.
	netBenchWarmup = 20
	// netBenchWait bounds each wait for the master, a connection or the
	// messages still due, beyond their nominal time.
	netBenchWait = 15 * time.Second
)

// netBenchNode is a goroslib node on loopback that logs nowhere.
func netBenchNode(b *testing.B, name, masterAddr string) *goroslib.Node {
	b.Helper()
	n, err := goroslib.NewNode(goroslib.NodeConf{Name: name, MasterAddress: masterAddr, Host: "127.0.0.1",
		LogDestinations: goroslib.LogDestinationCallback})
	if err != nil {
		b.Fatalf("node %s: %v", name, err)
	}
	return n
}

// latencies records, in the subscriber's callback (one goroutine), the
// latency of each message after the warm-up, up to want of them. The
// benchmark reads them after done is closed, when the callback no longer
// touches them.
type latencies struct {
	want        int
	n           int // messages seen, warm-up included
	first, warm chan struct{}
	done        chan struct{}
	lat         []time.Duration
	start, end  time.Time // receipt of the first and last counted message
}

func newLatencies(want int) *latencies {
	return &latencies{want: want, first: make(chan struct{}), warm: make(chan struct{}), done: make(chan struct{}),
		lat: make([]time.Duration, 0, want)}
}

func (l *latencies) callback(msg *sensor_msgs.JointState) {
	now := time.Now()
	l.n++
	switch {
	case l.n == 1:
		close(l.first)
	case l.n == netBenchWarmup:
		close(l.warm)
	}
	if l.n <= netBenchWarmup || len(l.lat) == l.want {
		return
	}
	if len(l.lat) == 0 {
		l.start = now
	}
	l.lat = append(l.lat, now.Sub(msg.Header.Stamp))
	if len(l.lat) == l.want {
		l.end = now
		close(l.done)
	}
}

// waitFor waits for ch, failing the benchmark after timeout or when the
// daemon's Run returns early (runDone closes).
func waitFor(b *testing.B, what string, ch <-chan struct{}, timeout time.Duration, runDone <-chan struct{}) {
	b.Helper()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-ch:
	case <-runDone:
		b.Fatalf("waiting for %s: the daemon stopped", what)
	case <-t.C:
		b.Fatalf("no %s within %s", what, timeout)
	}
}

// BenchmarkJointStateLatency runs the full example robot in real time at
// 100 Hz and 1 kHz, bridged to the bridge's own embedded master on a free
// loopback port and publishing /joint_states every cycle, and receives it
// in a goroslib subscriber in this process. An op is one message received;
// its latency is its receipt time less its header stamp (Epoch plus the
// cycle's time), reported as p50, p99 and max in µs with the rate
// received, the share of the loop's cycles the bridge did not publish and
// the loop's overruns over the run.
func BenchmarkJointStateLatency(b *testing.B) {
	for _, c := range []struct {
		name string
		rate float64
	}{{"100Hz", 100}, {"1kHz", 1000}} {
		b.Run(c.name, func(b *testing.B) { benchLatency(b, c.rate) })
	}
}

func benchLatency(b *testing.B, rate float64) {
	if testing.Short() {
		b.Skip("network benchmark: skipped with -short")
	}
	r := exampleRobot(b)
	port := freePort(b)
	d, err := daemon.NewSim(r, daemon.SimOptions{RealTime: true, Enabled: true}, daemon.Options{Rate: rate, ROS: &daemon.ROSOptions{
		Env: ros.Env{MasterURI: fmt.Sprintf("http://127.0.0.1:%d", port)}, Master: ros.MasterEmbedded, PublishRate: rate}})
	if err != nil {
		b.Fatal(err)
	}
	if got := d.Bridge.Stats().PublishEvery; got != d.Loop.Period() {
		b.Fatalf("publishes every %s, want every cycle (%s)", got, d.Loop.Period())
	}

	ctx, cancel := context.WithCancel(context.Background())
	var runErr error
	runDone := make(chan struct{})
	go func() {
		defer close(runDone)
		runErr = d.Run(ctx)
	}()
	defer func() { // stop the daemon and wait for Run, however the benchmark ends
		cancel()
		<-runDone
		if runErr != nil {
			b.Errorf("daemon: %v", runErr)
		}
	}()

	// The subscriber's node needs the master, which the bridge starts.
	waitFor(b, "registration of the bridge", d.Bridge.Registered(1), netBenchWait, runDone)

	rec := newLatencies(b.N)
	node := netBenchNode(b, "frcd_bench_latency", fmt.Sprintf("127.0.0.1:%d", port))
	defer node.Close()
	sub, err := goroslib.NewSubscriber(goroslib.SubscriberConf{Node: node, Topic: "/joint_states", Callback: rec.callback})
	if err != nil {
		b.Fatal(err)
	}
	defer sub.Close()

	waitFor(b, "first /joint_states", rec.first, netBenchWait, runDone)
	waitFor(b, "warm-up /joint_states", rec.warm, netBenchWait, runDone)
	// Cycles run and states published over the run, to count the cycles
	// whose state the bridge skipped (the loop's Updated keeps only the
	// newest; a cycle whose snapshot a reader held is not published).
	snap := d.Loop.NewSnapshot()
	counts := func() (cycles, published, overruns uint64) {
		d.Loop.ReadSnapshot(snap)
		return snap.Stats.Cycles, d.Bridge.Stats().JointStates, snap.Stats.Overruns
	}
	cycles0, published0, overruns0 := counts()
	b.ResetTimer()
	due := netBenchWait + 3*time.Duration(float64(b.N)/rate*float64(time.Second))
	waitFor(b, fmt.Sprintf("%d /joint_states", b.N), rec.done, due, runDone)
	b.StopTimer()
	cycles1, published1, overruns1 := counts()

	lat := rec.lat // the callback is done with it
	slices.Sort(lat)
	q := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(lat)))) - 1
		return float64(lat[max(i, 0)]) / float64(time.Microsecond)
	}
	b.ReportMetric(q(0.50), "p50-µs")
	b.ReportMetric(q(0.99), "p99-µs")
	b.ReportMetric(float64(lat[len(lat)-1])/float64(time.Microsecond), "max-µs")
	if len(lat) > 1 {
		b.ReportMetric(float64(len(lat)-1)/rec.end.Sub(rec.start).Seconds(), "msgs/s")
	}
	if cycles := cycles1 - cycles0; cycles > 0 {
		b.ReportMetric(100*float64(cycles-min(cycles, published1-published0))/float64(cycles), "unpublished-%")
	}
	b.ReportMetric(float64(overruns1-overruns0), "overruns")
}

// BenchmarkPublishThroughput publishes the full example robot's
// JointState (every joint's name, position, velocity and effort) from one
// goroslib node to a subscriber on another, over loopback, through the
// embedded master. An op is one message written and received; at most
// netBenchInFlight are outstanding, as goroslib drops what its
// per-subscriber queue of 64 cannot hold. -benchmem's allocations count
// every goroutine: the publish, the encoding, the decoding.
func BenchmarkPublishThroughput(b *testing.B) {
	const inFlight = 32
	if testing.Short() {
		b.Skip("network benchmark: skipped with -short")
	}
	// The names the bridge publishes: the loop's joints.
	d, err := daemon.NewSim(exampleRobot(b), daemon.SimOptions{}, daemon.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var names []string
	for _, j := range d.Loop.NewSnapshot().Joints {
		names = append(names, j.Name)
	}

	m := master.New(master.Options{})
	if err := m.Start("127.0.0.1:0"); err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	addr := strings.TrimSuffix(strings.TrimPrefix(m.URI(), "http://"), "/")
	pubNode := netBenchNode(b, "frcd_bench_pub", addr)
	defer pubNode.Close()
	subNode := netBenchNode(b, "frcd_bench_sub", addr)
	defer subNode.Close()

	pub, err := goroslib.NewPublisher(goroslib.PublisherConf{Node: pubNode, Topic: "/joint_states", Msg: &sensor_msgs.JointState{}})
	if err != nil {
		b.Fatal(err)
	}
	defer pub.Close()
	// The callback notes the newest sequence number (TCP keeps the order)
	// and the count, and wakes the publisher.
	var lastSeq atomic.Uint32
	var received atomic.Int64
	wake := make(chan struct{}, 1)
	sub, err := goroslib.NewSubscriber(goroslib.SubscriberConf{Node: subNode, Topic: "/joint_states",
		Callback: func(msg *sensor_msgs.JointState) {
			lastSeq.Store(msg.Header.Seq)
			received.Add(1)
			select {
			case wake <- struct{}{}:
			default:
			}
		}})
	if err != nil {
		b.Fatal(err)
	}
	defer sub.Close()

	var seq uint32
	write := func() {
		seq++
		n := len(names)
		msg := &sensor_msgs.JointState{Header: std_msgs.Header{Seq: seq, Stamp: time.Now()}, Name: names,
			Position: make([]float64, n), Velocity: make([]float64, n), Effort: make([]float64, n)}
		for i := range n {
			msg.Position[i], msg.Velocity[i], msg.Effort[i] = float64(i)*0.1, float64(seq%100)*0.01, -1.5
		}
		pub.Write(msg)
	}
	// wait waits for a message, failing after netBenchWait.
	timer := time.NewTimer(netBenchWait)
	defer timer.Stop()
	wait := func(what string) {
		timer.Reset(netBenchWait)
		select {
		case <-wake:
		case <-timer.C:
			b.Fatalf("%s: no message within %s (%d received, last seq %d of %d)", what, netBenchWait, received.Load(), lastSeq.Load(), seq)
		}
	}

	// Connect: a message written before the subscriber's connection is
	// dropped, so write one every 5 ms until one arrives.
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for connecting := time.Now(); lastSeq.Load() == 0; {
		write()
		select {
		case <-wake:
		case <-tick.C:
		}
		if time.Since(connecting) > netBenchWait {
			b.Fatalf("the subscriber did not connect within %s", netBenchWait)
		}
	}
	for lastSeq.Load() != seq { // let the warm-up drain
		wait("warm-up")
	}
	base, received0 := seq, received.Load()

	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for seq-lastSeq.Load() >= inFlight {
			wait("publishing")
		}
		write()
	}
	for lastSeq.Load() != seq {
		wait("draining")
	}
	b.StopTimer()
	if got := received.Load() - received0; got != int64(seq-base) {
		b.Errorf("%d messages written, %d received", seq-base, got)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}
