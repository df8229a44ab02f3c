package ros2bridge_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros2bridge"
)

// graphEvent is a line of testdata/cyclone/graph_watch.c.
type graphEvent struct {
	Ep      string `json:"ep"` // "pub" or "sub"
	Topic   string `json:"topic"`
	GUID    string `json:"guid"`
	Alive   *int   `json:"alive"`
	Node    string `json:"node"`
	Writers string `json:"writers"`
	Readers string `json:"readers"`
}

// graphView is what a Cyclone DDS peer (graph_watch) has seen: the DDS
// endpoints SEDP announced, alive or gone, and each node's endpoints in
// ros_discovery_info, as rmw_cyclonedds puts them together for
// `ros2 topic info -v` and `ros2 node info`.
type graphView struct {
	w       *tooltest.JSONLines[graphEvent]
	alive   map[string]bool            // endpoint GUID: alive
	topic   map[string]string          // endpoint GUID: "pub TOPIC" or "sub TOPIC"
	writers map[string]map[string]bool // node: its writers' GUIDs (the latest entry)
	readers map[string]map[string]bool
}

// watchGraph starts graph_watch on domain, following endpoints whose
// topic contains sub.
func watchGraph(t *testing.T, domain int, sub string) *graphView {
	return watch(t, ddstest.Cyclone.Program(t, "testdata/cyclone/graph_watch.c", "../ros2node/testdata/ParticipantEntitiesInfo.idl"), domain, sub)
}

// watchEndpoints starts testdata/fastdds/endpoints.cpp on domain, a Fast
// DDS peer following endpoints whose topic contains sub (no node graph).
func watchEndpoints(t *testing.T, domain int, sub string) *graphView {
	return watch(t, ddstest.FastDDS.Program(t, "testdata/fastdds/endpoints.cpp", "testdata/Topics.idl"), domain, sub)
}

func watch(t *testing.T, bin string, domain int, sub string) *graphView {
	return &graphView{w: tooltest.StartJSON[graphEvent](t, ddstest.Env(domain), bin, sub),
		alive: map[string]bool{}, topic: map[string]string{}, writers: map[string]map[string]bool{}, readers: map[string]map[string]bool{}}
}

func (g *graphView) take(e graphEvent) {
	set := func(list string) map[string]bool {
		m := map[string]bool{}
		for _, s := range strings.Split(list, ",") {
			m[s] = s != ""
		}
		return m
	}
	switch {
	case e.Alive != nil:
		g.alive[e.GUID] = *e.Alive == 1
		g.topic[e.GUID] = e.Ep + " " + e.Topic
	case e.Node != "":
		g.writers[e.Node], g.readers[e.Node] = set(e.Writers), set(e.Readers)
	}
}

// wait reads events until cond holds of the view.
func (g *graphView) wait(what string, cond func() bool) {
	if cond() {
		return
	}
	g.w.Wait(what, func(e graphEvent) bool { g.take(e); return cond() })
}

// endpoints are the alive endpoints of kind ("pub", "sub") on DDS topic.
func (g *graphView) endpoints(kind, topic string) []string {
	var out []string
	for guid, tp := range g.topic {
		if tp == kind+" "+topic && g.alive[guid] {
			out = append(out, guid)
		}
	}
	slices.Sort(out)
	return out
}

// owner is the node listing endpoint guid among its writers (or
// readers), "" if none.
func (g *graphView) owner(guid string, writer bool) string {
	m := g.readers
	if writer {
		m = g.writers
	}
	for n, s := range m {
		if s[guid] {
			return n
		}
	}
	return ""
}

// TestCycloneTopicOwners: as ros2_control's graph has them, a Cyclone
// DDS peer reading DCPSPublication and ros_discovery_info as
// rmw_cyclonedds does (testdata/cyclone/graph_watch.c) finds
// /joint_states' and /dynamic_joint_states' writers listed under
// /joint_state_controller (joint_state_broadcaster publishes them from
// its own node), the drive's odometry under /drive (diff_drive_controller's
// ~/odom), a PID controller's state topics under it, an IMU sensor
// controller's IMU under it (IMUSensorBroadcaster's ~/imu), and
// /robot_description, /tf and an IMU without one under /frcd.
func TestCycloneTopicOwners(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a Cyclone DDS peer: skipped with -short")
	}
	yaml := exampleWithIMUBroadcaster(t)
	r, _, err := robot.Load(exampleURDF, yaml)
	if err != nil {
		t.Fatal(err)
	}
	cfg := discovery(t)
	newBridgeFor(t, yaml, t.Logf, func(o *ros2bridge.Options) {
		o.Manager = control.NewManager(r.Config, o.Loop)
		o.Node.RTPS.MaxPeerID = ddstest.MaxPeerID
	})
	g := watchGraph(t, cfg.Domain, "")
	for _, c := range []struct{ topic, node string }{
		{"rt/joint_states", "/joint_state_controller"},
		{"rt/dynamic_joint_states", "/joint_state_controller"},
		{"rt/drive/odom", "/drive"},
		{"rt/turret_position/state", "/turret_position"},
		{"rt/turret_position/controller_state", "/turret_position"},
		{"rt/robot_description", "/frcd"},
		{"rt/tf", "/frcd"},
		{"rt/navx_broadcaster/imu", "/navx_broadcaster"},
		{"rt/pigeon/imu", "/frcd"},
	} {
		var pubs []string
		g.wait(c.topic+"'s writer in a node's entry", func() bool {
			pubs = g.endpoints("pub", c.topic)
			return len(pubs) == 1 && g.owner(pubs[0], true) != ""
		})
		if got := g.owner(pubs[0], true); got != c.node {
			t.Errorf("%s's writer %s is %s's, want %s's", c.topic, pubs[0], got, c.node)
		}
	}
}

// TestUnloadedEndpointsInterop: as ros2_control deletes an unloaded
// controller's node with its publishers, subscriptions and services, a
// Cyclone DDS peer reading DCPSPublication and DCPSSubscription
// (testdata/cyclone/graph_watch.c) sees every endpoint /turret_position
// lists in ros_discovery_info go NOT_ALIVE when controller_manager
// unloads it (SEDP's disposal), and alive again under the same GUIDs
// when it is loaded, and so does a Fast DDS peer's participant listener
// (testdata/fastdds/endpoints.cpp: removed, discovered); then a
// parameter client made before the unload is answered by the node's
// services again.
func TestUnloadedEndpointsInterop(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a Cyclone DDS peer: skipped with -short")
	}
	r, _, err := robot.Load(exampleURDF, exampleYAML)
	if err != nil {
		t.Fatal(err)
	}
	cfg := discovery(t)
	newBridge(t, t.Logf, func(o *ros2bridge.Options) {
		o.Manager = control.NewManager(r.Config, o.Loop)
		o.Node.RTPS.MaxPeerID = ddstest.MaxPeerID
	})
	g := watchGraph(t, cfg.Domain, "turret_position")
	f := watchEndpoints(t, cfg.Domain, "turret_position")
	var ends []string
	all := func(g *graphView, alive bool) func() bool {
		return func() bool {
			if ends == nil {
				for _, m := range []map[string]bool{g.writers["/turret_position"], g.readers["/turret_position"]} {
					for guid, in := range m {
						if in {
							ends = append(ends, guid)
						}
					}
				}
			}
			for _, e := range ends {
				if a, seen := g.alive[e]; !seen || a != alive {
					return false
				}
			}
			return len(ends) > 0
		}
	}
	g.wait("every endpoint of /turret_position alive", all(g, true))
	f.wait("Fast DDS: every endpoint of /turret_position alive", all(f, true))
	t.Logf("/turret_position: %d endpoints", len(ends))
	if len(ends) < 14 {
		t.Errorf("/turret_position has %d endpoints, want its 12 parameter services' and its topics'", len(ends))
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c := newClient(t, ctx)
	turret := newParamClient(c, "/turret_position")
	if names := turret.names(); !slices.Contains(names, "gains.turret_joint.p") {
		t.Fatalf("/turret_position lists %v", names)
	}
	unload, load, deactivate := managerCalls(t, c)
	deactivate("turret_position")
	if !unload("turret_position") {
		t.Fatal("unload_controller turret_position refused")
	}
	g.wait("every endpoint of /turret_position NOT_ALIVE after the unload", all(g, false))
	f.wait("Fast DDS: every endpoint of /turret_position removed after the unload", all(f, false))
	if !load("turret_position") {
		t.Fatal("load_controller turret_position refused")
	}
	g.wait("every endpoint of /turret_position alive again after the load", all(g, true))
	f.wait("Fast DDS: every endpoint of /turret_position discovered again after the load", all(f, true))
	if names := turret.names(); !slices.Contains(names, "gains.turret_joint.p") {
		t.Errorf("after the load /turret_position lists %v", names)
	}
}
