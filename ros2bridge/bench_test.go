package ros2bridge_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

// benchBridge is the example robot's bridge, not running (Publish is
// called directly), after one cycle.
func benchBridge(tb testing.TB) *ros2bridge.Bridge {
	d, b, _ := newBridge(tb, nil)
	d.Step()
	return b
}

// TestPublishAllocates nothing: the snapshot copy, the messages and their
// encoding reuse their memory once each writer's history is full (no
// subscriber: the network's share is rtps's, BenchmarkWrite). It covers
// every topic the example robot has on the sim (state, sensors, sim/).
func TestPublishAllocatesNothing(t *testing.T) {
	b := benchBridge(t)
	for range 11 { // the first sizes the slices; then each writer's history (keep last 10) fills
		b.Publish()
	}
	if n := testing.AllocsPerRun(100, func() { b.Publish() }); n != 0 {
		t.Fatalf("Publish allocates %v times", n)
	}
	if st := b.Stats(); st.JointStates != 112 || st.PublishErr != 0 {
		t.Fatalf("stats %+v, want 112 joint states", st)
	}
}

// BenchmarkPublishJointStates: one /joint_states of the example robot's
// 16 joints: snapshot copy, building, CDR encoding, the writer's history.
func BenchmarkPublishJointStates(b *testing.B) {
	br := benchBridge(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		br.Publish()
	}
}

// BenchmarkPublishThroughput is ros's BenchmarkPublishThroughput over ROS
// 2: the example robot's /joint_states from the bridge (snapshot copy,
// building, CDR encoding, a reliable write) to a ros2node subscriber in
// another participant of this process over loopback, decoded there. An
// op is one message published and received; at most 8 are outstanding
// (within the writer's keep-last 10). -benchmem counts both sides.
func BenchmarkPublishThroughput(b *testing.B) {
	const inFlight = 8
	if testing.Short() {
		b.Skip("network benchmark: skipped with -short")
	}
	br := benchBridge(b)
	cfg := discovery(b)
	cfg.Name = "bench_sub"
	sub, err := ros2node.New(ros2node.Config{Name: "bench_sub", RTPS: cfg})
	if err != nil {
		b.Fatal(err)
	}
	defer sub.Close()
	var received atomic.Int64
	wake := make(chan struct{}, 1)
	var m ros2msg.JointState
	if _, err := sub.Subscribe("/joint_states", &m, ros2node.Default, func(s rtps.Sample) {
		if ros2msg.Unmarshal(s.Payload, &m) != nil || len(m.Name) == 0 {
			b.Error("undecodable joint state")
		}
		received.Add(1)
		select {
		case wake <- struct{}{}:
		default:
		}
	}); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := br.Node().WaitNode(ctx, "/bench_sub"); err != nil {
		b.Fatal(err)
	}
	// Until the subscriber has one (it may not know the writer yet).
	for received.Load() == 0 {
		br.Publish()
		select {
		case <-wake:
		case <-time.After(10 * time.Millisecond):
		case <-ctx.Done():
			b.Fatal("the subscriber got nothing")
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	base := received.Load()
	for i := range b.N {
		for int64(i)-(received.Load()-base) >= inFlight {
			select {
			case <-wake:
			case <-ctx.Done():
				b.Fatalf("%d of %d received", received.Load()-base, i)
			}
		}
		br.Publish()
	}
	for received.Load()-base < int64(b.N) {
		select {
		case <-wake:
		case <-ctx.Done():
			b.Fatalf("%d of %d received", received.Load()-base, b.N)
		}
	}
}
