package ros2node

import (
	"testing"

	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/rtps"
)

// TestGraphBounded: ros_discovery_info samples each naming a new
// participant gid stop adding to the graph at maxParticipants (logged
// once), and a participant already known is still updated.
func TestGraphBounded(t *testing.T) {
	logged := 0
	g := &graph{gidLen: ros2msg.GidSize, others: map[ros2msg.Gid][]ros2msg.NodeEntitiesInfo{}, changed: make(chan struct{})}
	n := &Node{cfg: Config{RTPS: rtps.Config{Logf: func(string, ...any) { logged++ }}}, g: g, mu: &g.mu}
	info := func(i int, name string) rtps.Sample {
		m := ros2msg.ParticipantEntitiesInfo{GidLen: ros2msg.GidSize, Gid: ros2msg.Gid{byte(i), byte(i >> 8), byte(i >> 16)},
			Nodes: []ros2msg.NodeEntitiesInfo{{Namespace: "/", Name: name}}}
		return rtps.Sample{Payload: ros2msg.Marshal(nil, &m)}
	}
	for i := range 3 * maxParticipants {
		n.onInfo(info(i, "n"))
	}
	if len(g.others) != maxParticipants || logged != 1 {
		t.Fatalf("%d participants after %d, logged %d times; want %d, once", len(g.others), 3*maxParticipants, logged, maxParticipants)
	}
	n.onInfo(info(0, "renamed"))
	if got := g.others[ros2msg.Gid{}]; len(got) != 1 || got[0].Name != "renamed" {
		t.Errorf("a known participant past the bound: %+v, want its new node", got)
	}
}
