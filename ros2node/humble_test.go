package ros2node

import (
	"testing"

	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/rtps"
)

// TestHumbleGraph: a node made Humble's writes ros_discovery_info with
// Humble's 24-byte gids (rmw_dds_common humble Gid.msg, docs/ros2.md), a
// Jazzy node its 16-byte ones, and each finds the other in the graph.
func TestHumbleGraph(t *testing.T) {
	h, err := New(Config{Name: "humble", Humble: true, RTPS: rtps.Config{Domain: ddstest.Domain(), MaxPeerID: ddstest.MaxPeerID, Logf: t.Logf}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	j := newNode(t, "/", "jazzy")
	if h.cfg.GidLen != ros2msg.GidSizeHumble || j.cfg.GidLen != ros2msg.GidSize {
		t.Fatalf("gid sizes %d and %d", h.cfg.GidLen, j.cfg.GidLen)
	}
	if err := j.WaitNode(ctx(t), "/humble"); err != nil {
		t.Fatal(err)
	}
	if err := h.WaitNode(ctx(t), "/jazzy"); err != nil {
		t.Fatal(err)
	}
}
