package ros2node

import (
	"slices"
	"testing"

	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/rtps"
)

// TestNodesInOneParticipant: a node NewNode adds to a participant is
// announced beside the first in the participant's one graph entry, with
// its own subscription's gid; another participant lists both, and no
// longer the added one once it is closed: its subscription is then
// withdrawn from DDS (the other participant's publisher loses its match).
// Shown again, it is back with its subscription, which gets samples.
func TestNodesInOneParticipant(t *testing.T) {
	a, b := newNode(t, "/robot", "frcd"), newNode(t, "/", "listener")
	arm, err := a.NewNode("arm_controller", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.NewNode("bad name", ""); err == nil {
		t.Error("NewNode took an invalid name")
	}
	if _, err := a.NewNode("arm_controller", "/robot"); err == nil {
		t.Error("NewNode took a second /robot/arm_controller")
	}
	got := make(chan rtps.Sample, 100)
	sub, err := arm.Subscribe("~/commands", &ros2msg.Float64MultiArray{}, Default, func(s rtps.Sample) { got <- s })
	if err != nil {
		t.Fatal(err)
	}
	if sub.Topic() != "rt/robot/arm_controller/commands" || arm.Name() != "/robot/arm_controller" {
		t.Errorf("topic %q of node %q, want rt/robot/arm_controller/commands of /robot/arm_controller", sub.Topic(), arm.Name())
	}
	if err := b.WaitNode(ctx(t), "/robot/arm_controller"); err != nil {
		t.Fatal(err)
	}
	if err := b.WaitNode(ctx(t), "/robot/frcd"); err != nil {
		t.Fatal(err)
	}
	if got := a.Nodes(); !slices.Contains(got, "/robot/arm_controller") || !slices.Contains(got, "/robot/frcd") {
		t.Errorf("the participant's own nodes: %v", got)
	}
	// The entry comes in samples, one per change (the node, then its
	// subscription): wait for the one with the subscription.
	var entry []ros2msg.NodeEntitiesInfo
	for {
		b.mu.Lock()
		ch := b.g.changed
		entry = nil
		for _, nodes := range b.g.others {
			for _, e := range nodes {
				if e.Name == "frcd" {
					entry = nodes
				}
			}
		}
		b.mu.Unlock()
		if len(entry) == 2 && len(entry[1].Readers) > 0 {
			break
		}
		select {
		case <-ch:
		case <-ctx(t).Done():
			t.Fatalf("the participant's entry: %+v, want arm_controller with a reader", entry)
		}
	}
	if len(entry) != 2 || entry[1].Name != "arm_controller" || len(entry[1].Readers) != 1 || entry[1].Readers[0] != gidOf(sub.GUID()) ||
		len(entry[0].Readers) != 0 {
		t.Errorf("the participant's entry: %+v, want frcd then arm_controller with its reader", entry)
	}
	pub, err := b.Publisher("/robot/arm_controller/commands", &ros2msg.Float64MultiArray{}, Default)
	if err != nil {
		t.Fatal(err)
	}
	if err := pub.Writer().WaitMatched(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	if err := arm.Close(); err != nil {
		t.Fatal(err)
	}
	for {
		b.mu.Lock()
		ch := b.g.changed
		b.mu.Unlock()
		if !slices.Contains(b.Nodes(), "/robot/arm_controller") {
			break
		}
		select {
		case <-ch:
		case <-ctx(t).Done():
			t.Fatalf("arm_controller still in the graph after Close: %v", b.Nodes())
		}
	}
	if got := b.Nodes(); !slices.Contains(got, "/robot/frcd") {
		t.Errorf("frcd left the graph with arm_controller: %v", got)
	}
	if !sub.Withdrawn() {
		t.Error("a closed node's subscription is not withdrawn")
	}
	if err := pub.Writer().WaitMatchedAtMost(ctx(t), 0); err != nil {
		t.Fatalf("the other participant's publisher still matches the closed node's subscription: %v", err)
	}
	if err := arm.Show(); err != nil {
		t.Fatal(err)
	}
	if err := b.WaitNode(ctx(t), "/robot/arm_controller"); err != nil {
		t.Fatal(err)
	}
	if err := pub.Writer().WaitMatched(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	if err := sub.WaitMatched(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	if err := pub.Publish(&ros2msg.Float64MultiArray{Data: []float64{1.5}}); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		var m ros2msg.Float64MultiArray
		if err := ros2msg.Unmarshal(s.Payload, &m); err != nil || len(m.Data) != 1 || m.Data[0] != 1.5 {
			t.Errorf("after Show the subscription got %+v (%v)", m, err)
		}
	case <-ctx(t).Done():
		t.Fatal("after Show the subscription got nothing")
	}
}
