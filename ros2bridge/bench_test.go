package ros2bridge_test

import (
	"testing"

	"github.com/frcd/frcd/ros2bridge"
)

// benchBridge is the example robot's bridge, not running (Publish is
// called directly), after one cycle.
func benchBridge(tb testing.TB) *ros2bridge.Bridge {
	d, b, _ := newBridge(tb, nil)
	d.Step()
	return b
}

// TestPublishAllocates nothing: the snapshot copy, the message and its
// encoding reuse their memory (no subscriber: the network's share is
// rtps's, BenchmarkWrite).
func TestPublishAllocatesNothing(t *testing.T) {
	b := benchBridge(t)
	b.Publish() // the first sizes the slices
	if n := testing.AllocsPerRun(100, func() { b.Publish() }); n != 0 {
		t.Fatalf("Publish allocates %v times", n)
	}
	if st := b.Stats(); st.JointStates != 102 || st.PublishErr != 0 {
		t.Fatalf("stats %+v, want 102 joint states", st)
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
