package ros2msg

import (
	"errors"
	"testing"
)

// TestGraphGidSizes: ros_discovery_info written with one distribution's
// gid size reads back with it, and read with the other fails (a Humble
// peer's 24-byte gids read as Jazzy's 16 would give a participant with no
// nodes and bytes over), so a reader can try the other size.
func TestGraphGidSizes(t *testing.T) {
	for _, n := range []int{GidSize, GidSizeHumble} {
		m := ParticipantEntitiesInfo{GidLen: n, Gid: Gid{1, 2, 3}, Nodes: []NodeEntitiesInfo{{Namespace: "/", Name: "frcd", Readers: []Gid{{4}}, Writers: []Gid{{5}, {6}}}}}
		b := Marshal(nil, &m)
		back := ParticipantEntitiesInfo{GidLen: n}
		if err := Unmarshal(b, &back); err != nil || len(back.Nodes) != 1 || back.Nodes[0].Name != "frcd" || len(back.Nodes[0].Writers) != 2 || back.Gid != m.Gid {
			t.Errorf("gid size %d: %v %+v", n, err, back)
		}
		other := ParticipantEntitiesInfo{GidLen: GidSize + GidSizeHumble - n}
		if err := Unmarshal(b, &other); err == nil {
			t.Errorf("gid size %d read as %d: %+v", n, other.GidLen, other)
		}
		// No nodes (a participant without any yet): still told apart.
		m.Nodes = nil
		b = Marshal(nil, &m)
		if err := Unmarshal(b, &other); n == GidSizeHumble && !errors.Is(err, errGidSize) {
			t.Errorf("no nodes, gid size %d read as %d: %v", n, other.GidLen, err)
		}
	}
}
