package ros2node

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/rtps"
)

// BenchmarkPublishJointState12 publishes a 12-joint /joint_states to one
// matched reliable subscription in another node over 127.0.0.1: CDR
// encoding, the writer's history (its buffers reused), the datagram. The
// allocations counted include the listening node's in the same process
// (its copy of each sample it delivers, when it keeps up).
func BenchmarkPublishJointState12(b *testing.B) {
	cfg := func(name string) Config {
		return Config{Name: name, RTPS: rtps.Config{Domain: ddstest.Domain()}}
	}
	a, err := New(cfg("frcd"))
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	l, err := New(cfg("listener"))
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	pub, _ := a.Publisher("/joint_states", &ros2msg.JointState{}, Default)
	l.Subscribe("/joint_states", &ros2msg.JointState{}, Default, func(rtps.Sample) {})
	c, cancel := benchCtx()
	defer cancel()
	if err := pub.Writer().WaitMatched(c, 1); err != nil {
		b.Fatal(err)
	}
	m := &ros2msg.JointState{Header: ros2msg.Header{FrameID: "base_link"}}
	for i := 0; i < 12; i++ {
		m.Name = append(m.Name, fmt.Sprintf("joint_%d", i))
		m.Position = append(m.Position, float64(i))
		m.Velocity = append(m.Velocity, float64(i))
		m.Effort = append(m.Effort, float64(i))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := pub.Publish(m); err != nil {
			b.Fatal(err)
		}
	}
}

func benchCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 20*time.Second)
}
