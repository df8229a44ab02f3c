package ros2node

import (
	"context"
	"encoding/hex"
	"net/netip"
	"os"
	"reflect"
	"testing"

	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/rtps"
)

func TestMain(m *testing.M) {
	code := m.Run()
	ddstest.Cleanup()
	os.Exit(code)
}

func TestResolve(t *testing.T) {
	for _, c := range []struct{ ns, node, name, want string }{
		{"/", "frcd", "/joint_states", "/joint_states"},
		{"/", "frcd", "joint_states", "/joint_states"},
		{"/robot", "frcd", "joint_states", "/robot/joint_states"},
		{"/robot/", "frcd", "~/commands", "/robot/frcd/commands"},
		{"/", "frcd", "~/commands", "/frcd/commands"},
		{"/", "frcd", "~", "/frcd"},
	} {
		got, err := Resolve(c.ns, c.node, c.name)
		if err != nil || got != c.want {
			t.Errorf("Resolve(%q, %q, %q) = %q, %v; want %q", c.ns, c.node, c.name, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "a//b", "9lives", "a-b", "/x/"} {
		if got, err := Resolve("/", "n", bad); err == nil {
			t.Errorf("Resolve(%q) = %q, want an error", bad, got)
		}
	}
	if TopicName("/joint_states") != "rt/joint_states" {
		t.Error(TopicName("/joint_states"))
	}
	if n, err := TypeName("sensor_msgs/msg/JointState"); err != nil || n != "sensor_msgs::msg::dds_::JointState_" || n != (&ros2msg.JointState{}).TypeName() {
		t.Errorf("TypeName: %q %v", n, err)
	}
	if _, err := TypeName("std_msgs/String"); err == nil {
		t.Error("TypeName accepted a ROS 1 name")
	}
}

// TestDiscovery: ROS 2's discovery variables as rcl 9.2.0 (Jazzy) and
// rmw_cyclonedds read them, into the participant's configuration.
func TestDiscovery(t *testing.T) {
	lo := netip.MustParseAddr("127.0.0.1")
	robot := netip.MustParseAddr("10.9.0.2")
	p5, p6 := netip.MustParseAddr("10.9.0.5"), netip.MustParseAddr("10.9.0.6")
	for _, c := range []struct {
		env  map[string]string
		addr netip.Addr // the caller's multicast-capable interface's
		want rtps.Config
	}{
		// SUBNET, the default: multicast on the robot's interface.
		{map[string]string{}, robot, rtps.Config{Addr: robot, Multicast: true}},
		{map[string]string{"ROS_AUTOMATIC_DISCOVERY_RANGE": "SUBNET"}, robot, rtps.Config{Addr: robot, Multicast: true}},
		// Humble's ROS_LOCALHOST_ONLY: loopback only, and it prevails
		// over the range and the static peers (rcl init.c).
		{map[string]string{"ROS_DOMAIN_ID": "7", "ROS_LOCALHOST_ONLY": "1"}, robot, rtps.Config{Domain: 7, Addr: lo, Peers: []netip.Addr{lo}}},
		{map[string]string{"ROS_LOCALHOST_ONLY": "1", "ROS_AUTOMATIC_DISCOVERY_RANGE": "SUBNET", "ROS_STATIC_PEERS": "10.9.0.5"}, robot, rtps.Config{Addr: lo, Peers: []netip.Addr{lo}}},
		{map[string]string{"ROS_LOCALHOST_ONLY": "0"}, robot, rtps.Config{Addr: robot, Multicast: true}},
		// LOCALHOST: bound and announced on loopback only, unicast to the
		// host, static peers too (rmw_cyclonedds).
		{map[string]string{"ROS_AUTOMATIC_DISCOVERY_RANGE": "LOCALHOST"}, robot, rtps.Config{Addr: lo, Peers: []netip.Addr{lo}}},
		{map[string]string{"ROS_AUTOMATIC_DISCOVERY_RANGE": "LOCALHOST", "ROS_STATIC_PEERS": "10.9.0.5"}, robot, rtps.Config{Addr: lo, Peers: []netip.Addr{lo, p5}}},
		// OFF and SYSTEM_DEFAULT leave the static peers out.
		{map[string]string{"ROS_AUTOMATIC_DISCOVERY_RANGE": "OFF", "ROS_STATIC_PEERS": "10.9.0.5"}, robot, rtps.Config{Addr: lo, Peers: []netip.Addr{lo}}},
		{map[string]string{"ROS_AUTOMATIC_DISCOVERY_RANGE": "SYSTEM_DEFAULT", "ROS_STATIC_PEERS": "10.9.0.5"}, robot, rtps.Config{Addr: robot, Multicast: true}},
		// Static peers get SPDP by unicast beside multicast.
		{map[string]string{"ROS_STATIC_PEERS": "10.9.0.5; 10.9.0.6;"}, robot, rtps.Config{Addr: robot, Multicast: true, Peers: []netip.Addr{p5, p6}}},
		// A host whose only interface is a multicast-capable lo: multicast
		// there, and unicast to the host.
		{map[string]string{}, lo, rtps.Config{Addr: lo, Multicast: true, Peers: []netip.Addr{lo}}},
		{map[string]string{"ROS_STATIC_PEERS": "10.9.0.5"}, lo, rtps.Config{Addr: lo, Multicast: true, Peers: []netip.Addr{lo, p5}}},
		// No interface with multicast at all: unicast to the host.
		{map[string]string{}, netip.Addr{}, rtps.Config{Addr: lo, Peers: []netip.Addr{lo}}},
	} {
		got, err := Discovery(func(k string) string { return c.env[k] }, c.addr)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v on %v: %+v, %v; want %+v", c.env, c.addr, got, err, c.want)
		}
	}
	for _, env := range []map[string]string{{"ROS_DOMAIN_ID": "300"}, {"ROS_DOMAIN_ID": "x"}, {"ROS_AUTOMATIC_DISCOVERY_RANGE": "LAN"},
		{"ROS_AUTOMATIC_DISCOVERY_RANGE": "localhost"}, {"ROS_STATIC_PEERS": "host"}, {"ROS_STATIC_PEERS": "::1"}} {
		if _, err := Discovery(func(k string) string { return env[k] }, robot); err == nil {
			t.Errorf("%v accepted", env)
		}
	}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), tooltest.Timeout)
	t.Cleanup(cancel)
	return c
}

func newNode(t *testing.T, ns, name string) *Node {
	t.Helper()
	n, err := New(Config{Name: name, Namespace: ns, RTPS: rtps.Config{Domain: ddstest.Domain(), MaxPeerID: ddstest.MaxPeerID, Logf: t.Logf}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

// TestGraphAndTopics: two Go nodes see each other in the graph and
// exchange a JointState on /joint_states under ROS 2's names.
func TestGraphAndTopics(t *testing.T) {
	a, b := newNode(t, "/robot", "frcd"), newNode(t, "/", "listener")
	if err := b.WaitNode(ctx(t), "/robot/frcd"); err != nil {
		t.Fatal(err)
	}
	if err := a.WaitNode(ctx(t), "/listener"); err != nil {
		t.Fatal(err)
	}
	pub, err := a.Publisher("/joint_states", &ros2msg.JointState{}, SensorData)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan ros2msg.JointState, 10)
	sub, err := b.Subscribe("joint_states", &ros2msg.JointState{}, SensorData, func(s rtps.Sample) {
		var m ros2msg.JointState
		if ros2msg.Unmarshal(s.Payload, &m) == nil {
			got <- m
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := pub.Writer().WaitMatched(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	if err := sub.WaitMatched(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	want := ros2msg.JointState{Header: ros2msg.Header{Stamp: ros2msg.Time{Sec: 3, Nanosec: 4}, FrameID: "base"}, Name: []string{"arm"}, Position: []float64{0.5}, Velocity: []float64{1}, Effort: []float64{2}}
	if err := pub.Publish(&want); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-got:
		if !reflect.DeepEqual(m, want) {
			t.Fatalf("got %+v, want %+v", m, want)
		}
	case <-ctx(t).Done():
		t.Fatal("no JointState")
	}
}

type graphEvent struct {
	UserData string `json:"user_data"`
	Node     string `json:"node"`
	Readers  int    `json:"readers"`
	Writers  int    `json:"writers"`
	Reader0  string `json:"reader0"`
	Writer0  string `json:"writer0"`
}

// TestGraph: a Cyclone DDS and a Fast DDS participant taking part in the
// graph as rmw_cyclonedds and rmw_fastrtps do (testdata/cyclone/graph.c,
// testdata/fastdds/graph.cpp; the type by idlc and fastddsgen from
// testdata/ParticipantEntitiesInfo.idl) each read the Go node's USER_DATA
// (enclave=/;) and its ros_discovery_info entry (name, namespace, the gids
// of its writer and reader) and a second node of the same participant
// (NewNode) with its writer, and the Go node lists each peer's node.
func TestGraph(t *testing.T) {
	for _, c := range []struct {
		peer      *ddstest.Peer
		src, node string
	}{
		{ddstest.Cyclone, "testdata/cyclone/graph.c", "/peer/cnode"},
		{ddstest.FastDDS, "testdata/fastdds/graph.cpp", "/peer/fnode"},
	} {
		t.Run(c.peer.Name, func(t *testing.T) {
			bin := c.peer.Program(t, c.src, "testdata/ParticipantEntitiesInfo.idl")
			n := newNode(t, "/robot", "frcd")
			pub, err := n.Publisher("/joint_states", &ros2msg.JointState{}, SensorData)
			if err != nil {
				t.Fatal(err)
			}
			sub, err := n.Subscribe("~/commands", &ros2msg.Float64MultiArray{}, Default, func(rtps.Sample) {})
			if err != nil {
				t.Fatal(err)
			}
			cm, err := n.NewNode("controller_manager", "")
			if err != nil {
				t.Fatal(err)
			}
			cmPub, err := cm.Publisher("~/activity", &ros2msg.String{}, Default)
			if err != nil {
				t.Fatal(err)
			}
			peer := tooltest.StartJSON[graphEvent](t, ddstest.Env(ddstest.Domain()), bin)
			peer.Wait("the Go participant's USER_DATA", func(e graphEvent) bool { return e.UserData == "enclave=/;" })
			w, r := pub.Writer().GUID(), sub.GUID()
			gid := func(g rtps.GUID) string { id := gidOf(g); return hex.EncodeToString(id[:16]) }
			e := peer.Wait("the Go node in ros_discovery_info", func(e graphEvent) bool { return e.Node == "/robot/frcd" && e.Writers == 1 && e.Readers == 1 })
			if e.Writer0 != gid(w) || e.Reader0 != gid(r) {
				t.Errorf("gids %s %s, want writer %s reader %s", e.Writer0, e.Reader0, gid(w), gid(r))
			}
			e = peer.Wait("the second node in ros_discovery_info", func(e graphEvent) bool { return e.Node == "/robot/controller_manager" && e.Writers == 1 })
			if e.Writer0 != gid(cmPub.Writer().GUID()) || e.Readers != 0 {
				t.Errorf("controller_manager: %+v, want its writer %s only", e, gid(cmPub.Writer().GUID()))
			}
			if err := n.WaitNode(ctx(t), c.node); err != nil {
				t.Fatal(err)
			}
			t.Logf("the Go node sees %v", n.Nodes())
		})
	}
}
