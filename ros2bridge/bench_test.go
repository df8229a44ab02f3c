package ros2bridge_test

import (
	"os"
	"testing"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/jointstate"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2node"
)

// benchBridge is the example robot on the stepped sim with a bridge not
// running (Publish is called directly), after one cycle.
func benchBridge(tb testing.TB) *ros2bridge.Bridge {
	r, list, err := robot.Load(exampleURDF, exampleYAML)
	if err != nil || list.Errors() > 0 {
		tb.Fatalf("example robot: %v %v", err, list)
	}
	urdf, err := os.ReadFile(exampleURDF)
	if err != nil {
		tb.Fatal(err)
	}
	d, err := daemon.NewSim(r, daemon.Options{Enabled: true})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { d.Close() })
	b, err := ros2bridge.New(ros2bridge.Options{Loop: d.Loop, URDF: string(urdf), Clock: d.Now, Epoch: d.Epoch(),
		Rest: jointstate.RestPositions(r), Node: ros2node.Config{Name: "frcd", RTPS: discovery(tb)}})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { b.Close() })
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
