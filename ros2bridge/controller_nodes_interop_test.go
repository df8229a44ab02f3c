package ros2bridge_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

// paramNodesEvent is a line of testdata/cyclone/param_nodes_client.c.
type paramNodesEvent struct {
	Graph    *string `json:"graph"`
	Readers  int     `json:"node_readers"`
	Writers  int     `json:"node_writers"`
	List     *string `json:"list"`
	Type     *int    `json:"type"`
	ReadOnly int     `json:"read_only"`
	Ranges   int     `json:"ranges"`
	From     float64 `json:"from"`
	To       float64 `json:"to"`
	Step     float64 `json:"step"`
	Get      *int    `json:"get"`
	Value    float64 `json:"value"`
	Set      *int    `json:"set"`
	Reason   string  `json:"reason"`
}

// TestCycloneControllerNodes: a Cyclone DDS 0.10.2 peer reading
// ros_discovery_info as rmw_cyclonedds does (testdata/cyclone/param_nodes_client.c;
// types by idlc from ParamNodesCyclone.idl, rcl_interfaces' parameter
// services, and ros2node's ParticipantEntitiesInfo.idl) finds frcd's
// participant listing /frcd, /controller_manager and one node per
// controller of the example robot (the joint state controller's too),
// /turret_position with its topics' readers and writers beside its
// parameter services'; on /turret_position it lists the
// gains under pid_controller's names, describes gains.turret_joint.p as a
// settable double in 0..1e6, reads the YAML's p, sets it 5 higher (the P
// the loop runs after its next cycle), and is refused 2e6 (outside the
// range: the loop keeps its P). Twice: frcd as Jazzy's node (16-byte
// gids in the graph) and as Humble's (24-byte gids, the client built
// with Humble's graph types; against a Jazzy frcd it reads no graph).
func TestCycloneControllerNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a Cyclone DDS peer: skipped with -short")
	}
	for _, c := range []struct {
		name, src, graphIDL string
		humble              bool
	}{
		{"jazzy", "testdata/cyclone/param_nodes_client.c", "../ros2node/testdata/ParticipantEntitiesInfo.idl", false},
		{"humble", "testdata/cyclone/param_nodes_client_humble.c", "testdata/humble/ParticipantEntitiesInfo.idl", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			bin := ddstest.Cyclone.Program(t, c.src, "testdata/ParamNodesCyclone.idl", c.graphIDL)
			testCycloneControllerNodes(t, bin, c.humble)
		})
	}
}

// testCycloneControllerNodes runs the example robot, frcd's node Humble's
// or not, and the client bin.
func testCycloneControllerNodes(t *testing.T, bin string, humble bool) {
	r, list, err := robot.Load(exampleURDF, exampleYAML)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("%v %v", err, list)
	}
	domain := ddstest.Domain()
	d, err := daemon.NewSim(r, daemon.SimOptions{Enabled: true}, daemon.Options{ROS2: &daemon.ROS2Options{
		Node: ros2node.Config{Name: "frcd", Humble: humble, RTPS: rtps.Config{Domain: domain, MaxPeerID: ddstest.MaxPeerID}}, Logf: t.Logf}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	const p = "gains.turret_joint.p"
	yamlP := d.Loop.Controller("turret_position").Gains().P
	c := tooltest.StartJSON[paramNodesEvent](t, ddstest.Env(domain), bin, "/turret_position", p, "5")

	e := c.Wait("the graph", func(e paramNodesEvent) bool { return e.Graph != nil })
	nodes := strings.Split(*e.Graph, ",")
	t.Logf("Cyclone's graph: frcd's participant has %v; /turret_position %d readers, %d writers", nodes, e.Readers, e.Writers)
	if e.Readers <= 6 || e.Writers <= 6 {
		t.Errorf("/turret_position has %d readers and %d writers: want its parameter services' 6 each and its topics'", e.Readers, e.Writers)
	}
	want := []string{"/frcd", "/controller_manager", "/joint_state_controller"}
	for _, ctl := range d.Loop.Controllers() {
		want = append(want, "/"+ctl.Name)
	}
	for _, w := range want {
		if !slices.Contains(nodes, w) {
			t.Errorf("the graph %v has no %s", nodes, w)
		}
	}
	if len(nodes) != len(want) {
		t.Errorf("frcd's participant has %d nodes, want %d: %v", len(nodes), len(want), nodes)
	}
	e = c.Wait("list_parameters", func(e paramNodesEvent) bool { return e.List != nil })
	names := strings.Split(*e.List, ",")
	for _, w := range []string{p, "gains.turret_joint.i", "gains.turret_joint.d", "gains.turret_joint.feedforward_gain", "update_rate", "use_sim_time"} {
		if !slices.Contains(names, w) {
			t.Errorf("/turret_position lists %v: no %s", names, w)
		}
	}
	if e = c.Wait("describe_parameters", func(e paramNodesEvent) bool { return e.Type != nil }); *e.Type != 3 || e.ReadOnly != 0 ||
		e.Ranges != 1 || e.From != 0 || e.To != 1e6 || e.Step != 0 {
		t.Errorf("describe %s: %+v, want a settable double (3) in 0..1e6, step 0", p, e)
	}
	if e = c.Wait("the gain", func(e paramNodesEvent) bool { return e.Get != nil }); *e.Get != 3 || e.Value != yamlP {
		t.Errorf("%s: %+v, want a double, the YAML's %v", p, e, yamlP)
	}
	if e = c.Wait("the set", func(e paramNodesEvent) bool { return e.Set != nil }); *e.Set != 1 {
		t.Errorf("set %s to %v: %+v", p, yamlP+5, e)
	}
	d.Step()
	if got := pidP(t, d.Loop, "turret_position"); got != yamlP+5 {
		t.Errorf("the loop runs P %v after the set to %v", got, yamlP+5)
	}
	if e = c.Wait("the gain again", func(e paramNodesEvent) bool { return e.Get != nil }); e.Value != yamlP+5 {
		t.Errorf("%s after the set: %v, want %v", p, e.Value, yamlP+5)
	}
	if e = c.Wait("the set out of range", func(e paramNodesEvent) bool { return e.Set != nil }); *e.Set != 0 || !strings.Contains(e.Reason, "range") {
		t.Errorf("set %s to 2e6: %+v, want refused, its range said", p, e)
	}
	if e = c.Wait("the gain at the end", func(e paramNodesEvent) bool { return e.Get != nil }); e.Value != yamlP+5 {
		t.Errorf("%s after the refused set: %v, want %v", p, e.Value, yamlP+5)
	}
	d.Step()
	if got := pidP(t, d.Loop, "turret_position"); got != yamlP+5 || d.Bridge2.Stats().Refused == 0 {
		t.Errorf("after the refused set the loop runs P %v (want %v), %d refused", got, yamlP+5, d.Bridge2.Stats().Refused)
	}
}
