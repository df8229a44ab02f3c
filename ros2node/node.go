package ros2node

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/rtps"
)

// Config configures a Node.
type Config struct {
	// Name is the node's name (a single token). Required.
	Name string
	// Namespace is the node's namespace. (optional) defaults to "/".
	Namespace string
	// Enclave is the security enclave announced in USER_DATA. (optional)
	// defaults to "/".
	Enclave string
	// GidLen is the size of the gids in ros_discovery_info:
	// ros2msg.GidSize (Iron and later) or ros2msg.GidSizeHumble.
	// (optional) defaults to ros2msg.GidSizeHumble when Humble is set,
	// else ros2msg.GidSize.
	GidLen int
	// Remaps are remapping rules from:=to (Args.Remaps), applied to the
	// names of publishers and subscriptions. (optional)
	Remaps map[string]string
	// RTPS is the participant's configuration (Discovery reads it from
	// the environment); its UserData is the node's.
	RTPS rtps.Config
	// TypeHashes announces each endpoint's type hash in its USER_DATA
	// (typehash=RIHS01_...;) as Iron and later do; Humble's rmw neither
	// sends nor reads it. TypeHashesFor says when to set it.
	TypeHashes bool
	// Humble says the node's peers are Humble's (ROS_DISTRO humble or
	// older, HumbleFor): services whose types changed after Humble
	// answer in Humble's layouts (ros2bridge's controller_manager), and
	// ros_discovery_info has Humble's 24-byte gids.
	Humble bool
}

// HumbleFor says whether a node in ROS distribution distro speaks
// Humble's message layouts: Humble or an older one ("" is Jazzy).
func HumbleFor(distro string) bool { return !TypeHashesFor(distro) }

// TypeHashesFor says whether a node in ROS distribution distro
// ($ROS_DISTRO) announces type hashes: as Jazzy does unless distro names
// Humble or an older one (a robot's service usually runs without
// ROS_DISTRO: "" is Jazzy's behaviour).
func TypeHashesFor(distro string) bool {
	switch distro {
	case "humble", "galactic", "foxy":
		return false
	}
	return true
}

// userData is an endpoint's USER_DATA for DDS type typ.
func (n *Node) userData(typ string) []byte {
	if !n.cfg.TypeHashes {
		return nil
	}
	return ros2msg.UserDataTypeHash(typ)
}

// Node is a ROS 2 node: its publishers and subscriptions under ROS 2's
// names, and its entry in the node graph. New makes a node with a DDS
// participant of its own; NewNode adds another node to that participant,
// as rclcpp puts every node of a context in its one participant, each a
// NodeEntitiesInfo of the participant's ParticipantEntitiesInfo
// (ros2/rmw_dds_common humble e26ba107 and jazzy 973ad5c8
// rmw_dds_common/src/graph_cache.cpp GraphCache::add_node).
type Node struct {
	cfg Config
	p   *rtps.Participant
	g   *graph
	// mu is the graph's: the participant's nodes share it.
	mu *sync.Mutex

	readers []ros2msg.Gid // under mu
	writers []ros2msg.Gid
	ends    []endpoint // its DDS endpoints, which Close withdraws and Show restores
	owner   bool       // New made it: Close closes the participant
}

// graph is one participant's share of the node graph: its nodes, and
// the nodes other participants announce.
type graph struct {
	mu      sync.Mutex
	info    *rtps.Writer
	gidLen  int
	nodes   []*Node                                    // this participant's, in the order made
	others  map[ros2msg.Gid][]ros2msg.NodeEntitiesInfo // other participants' nodes, by participant gid
	changed chan struct{}                              // closed and replaced when others changes
	full    bool                                       // others reached maxParticipants (logged once)
}

// maxParticipants bounds the graph's other participants: each
// ros_discovery_info sample names its own gid, so a peer writing new ones
// would grow the graph without end. Past it, new participants are
// dropped (and logged once); those known are still updated.
const maxParticipants = 1024

// topicDiscoveryInfo is the DDS topic of the graph (no rt/ prefix).
const topicDiscoveryInfo = "ros_discovery_info"

// New starts a node: its participant, and its graph entry published on
// ros_discovery_info.
func New(cfg Config) (*Node, error) {
	if cfg.Namespace == "" {
		cfg.Namespace = "/"
	}
	if cfg.Enclave == "" {
		cfg.Enclave = "/"
	}
	if _, err := Resolve(cfg.Namespace, cfg.Name, "~"); err != nil || !validName(cfg.Name) || len(cfg.Name) > 256 {
		return nil, fmt.Errorf("ros2node: invalid node name %q in namespace %q", cfg.Name, cfg.Namespace)
	}
	if cfg.GidLen == 0 && cfg.Humble {
		cfg.GidLen = ros2msg.GidSizeHumble
	}
	if cfg.GidLen != ros2msg.GidSizeHumble {
		cfg.GidLen = ros2msg.GidSize
	}
	cfg.RTPS.UserData = []byte("enclave=" + cfg.Enclave + ";")
	if cfg.RTPS.Name == "" {
		cfg.RTPS.Name = cfg.Name
	}
	p, err := rtps.Open(cfg.RTPS)
	if err != nil {
		return nil, err
	}
	g := &graph{gidLen: cfg.GidLen, others: map[ros2msg.Gid][]ros2msg.NodeEntitiesInfo{}, changed: make(chan struct{})}
	n := &Node{cfg: cfg, p: p, g: g, mu: &g.mu, owner: true}
	g.nodes = []*Node{n}
	infoType := (&ros2msg.ParticipantEntitiesInfo{}).TypeName()
	if g.info, err = p.NewWriterUserData(topicDiscoveryInfo, infoType, Latched, n.userData(infoType)); err != nil {
		p.Close()
		return nil, err
	}
	// rmw_cyclonedds reads the graph keeping all samples, transient local.
	readQoS := rtps.QoS{Reliability: rtps.Reliable, Durability: rtps.TransientLocal, History: rtps.KeepAll}
	if _, err := p.NewReaderUserData(topicDiscoveryInfo, infoType, readQoS, n.userData(infoType), n.onInfo); err != nil {
		p.Close()
		return nil, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n, n.publishInfo()
}

// NewNode adds the node name, in namespace ns ("": n's), to n's
// participant, with n's configuration otherwise (remappings, type
// hashes, layouts): it is announced in the participant's graph entry
// beside n, with its own publishers, subscriptions and services; a name
// the participant has already is refused. It
// lives as long as the participant: Close on it takes it out of the
// graph and its endpoints out of DDS discovery, Show puts them back.
func (n *Node) NewNode(name, ns string) (*Node, error) {
	cfg := n.cfg
	cfg.Name = name
	if ns != "" {
		cfg.Namespace = ns
	}
	if _, err := Resolve(cfg.Namespace, cfg.Name, "~"); err != nil || !validName(cfg.Name) || len(cfg.Name) > 256 {
		return nil, fmt.Errorf("ros2node: invalid node name %q in namespace %q", cfg.Name, cfg.Namespace)
	}
	s := &Node{cfg: cfg, p: n.p, g: n.g, mu: n.mu}
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, o := range n.g.nodes {
		if o.Name() == s.Name() { // rclcpp warns of one; in one participant it is a mistake
			return nil, fmt.Errorf("ros2node: the participant has a node %s already", s.Name())
		}
	}
	n.g.nodes = append(n.g.nodes, s)
	return s, s.publishInfo()
}

// Name is the node's fully qualified name (/ns/name).
func (n *Node) Name() string {
	full, _ := Resolve(n.cfg.Namespace, n.cfg.Name, "~") // checked when made
	return full
}

// Participant is the node's DDS participant.
func (n *Node) Participant() *rtps.Participant { return n.p }

// Close stops the node. The node New made closes the participant, and
// with it every node NewNode added; another leaves the graph and its
// publishers', subscriptions' and services' DDS endpoints are withdrawn
// (rtps.Writer.Withdraw: SEDP announces their disposal, and they send and
// receive nothing), as rclcpp's destroyed node's are deleted; Show puts
// them back.
func (n *Node) Close() error {
	if n.owner {
		return n.p.Close()
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	i := slices.Index(n.g.nodes, n)
	if i < 0 {
		return nil
	}
	n.g.nodes = slices.Delete(n.g.nodes, i, i+1)
	err := n.publishInfo()
	for _, e := range n.ends {
		err = errors.Join(err, e.Withdraw())
	}
	return err
}

// endpoint is a node's DDS writer or reader (rtps.Writer, rtps.Reader).
type endpoint interface {
	Withdraw() error
	Restore() error
}

// added keeps a new endpoint of the node, withdrawn at once when the
// node is out of the graph (closed). n.mu held.
func (n *Node) added(e endpoint) error {
	n.ends = append(n.ends, e)
	if n.owner || slices.Contains(n.g.nodes, n) {
		return nil
	}
	return e.Withdraw()
}

// Show puts a node NewNode added, and Close took out of the graph, back
// in the participant's graph entry (last, as a node made anew is), with
// the endpoints it has, restored in DDS discovery under their GUIDs;
// nothing when it is there. A name the participant has again meanwhile
// is refused.
func (n *Node) Show() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if slices.Contains(n.g.nodes, n) {
		return nil
	}
	for _, o := range n.g.nodes {
		if o.Name() == n.Name() {
			return fmt.Errorf("ros2node: the participant has a node %s already", n.Name())
		}
	}
	for _, e := range n.ends {
		if err := e.Restore(); err != nil {
			return err
		}
	}
	n.g.nodes = append(n.g.nodes, n)
	return n.publishInfo()
}

// InGraph says whether the node is in its participant's graph entry (not
// closed, or shown again).
func (n *Node) InGraph() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Contains(n.g.nodes, n)
}

func gidOf(g rtps.GUID) ros2msg.Gid {
	var id ros2msg.Gid
	copy(id[:], g.Prefix[:])
	id[12], id[13], id[14], id[15] = byte(g.Entity>>24), byte(g.Entity>>16), byte(g.Entity>>8), byte(g.Entity)
	return id
}

// publishInfo publishes the participant's graph entry: each of its
// nodes with its readers and writers (n.mu held).
func (n *Node) publishInfo() error {
	m := ros2msg.ParticipantEntitiesInfo{GidLen: n.g.gidLen, Gid: gidOf(n.p.GUID())}
	for _, o := range n.g.nodes {
		m.Nodes = append(m.Nodes, ros2msg.NodeEntitiesInfo{
			Namespace: "/" + trimSlashes(o.cfg.Namespace),
			Name:      o.cfg.Name,
			Readers:   o.readers,
			Writers:   o.writers,
		})
	}
	return n.g.info.Write(ros2msg.Marshal(nil, &m))
}

func trimSlashes(s string) string {
	for len(s) > 0 && s[0] == '/' {
		s = s[1:]
	}
	for len(s) > 0 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	return s
}

// onInfo takes another participant's graph entry.
func (n *Node) onInfo(s rtps.Sample) {
	m := ros2msg.ParticipantEntitiesInfo{GidLen: n.g.gidLen}
	if ros2msg.Unmarshal(s.Payload, &m) != nil {
		// Perhaps the other gid size (a Humble peer among Jazzy ones).
		m = ros2msg.ParticipantEntitiesInfo{GidLen: ros2msg.GidSize + ros2msg.GidSizeHumble - n.g.gidLen}
		if ros2msg.Unmarshal(s.Payload, &m) != nil {
			return
		}
	}
	n.mu.Lock()
	g := n.g
	if _, known := g.others[m.Gid]; !known && len(g.others) >= maxParticipants {
		if !g.full && n.cfg.RTPS.Logf != nil {
			n.cfg.RTPS.Logf("ros2node: %d participants in the graph: more are not listed", len(g.others))
		}
		g.full = true
		n.mu.Unlock()
		return
	}
	g.others[m.Gid] = m.Nodes
	close(g.changed)
	g.changed = make(chan struct{})
	n.mu.Unlock()
}

// WaitNode waits until the graph has the node name (fully qualified, as
// Nodes lists it), or ctx ends.
func (n *Node) WaitNode(ctx context.Context, name string) error {
	return n.WaitGraph(ctx, "node "+name+" in the graph", func(nodes []string) bool { return slices.Contains(nodes, name) })
}

// WaitGraph waits until the graph's node names (Nodes) satisfy cond, or
// ctx ends; what says what it waits for, in its error.
func (n *Node) WaitGraph(ctx context.Context, what string, cond func(nodes []string) bool) error {
	for {
		n.mu.Lock()
		ch := n.g.changed
		n.mu.Unlock()
		if cond(n.Nodes()) {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("ros2node: no %s (the graph: %v): %w", what, n.Nodes(), ctx.Err())
		}
	}
}

// Nodes lists the fully qualified names of the nodes in the graph: this
// participant's and those other participants announce on
// ros_discovery_info.
func (n *Node) Nodes() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var names []string
	for _, o := range n.g.nodes {
		names = append(names, o.Name())
	}
	for _, nodes := range n.g.others {
		for _, e := range nodes {
			if full, err := Resolve(e.Namespace, e.Name, "~"); err == nil {
				names = append(names, full)
			}
		}
	}
	sort.Strings(names)
	return names
}

// Publisher publishes one message type on one topic.
type Publisher struct {
	w   *rtps.Writer
	mu  sync.Mutex
	enc cdr.Encoder // kept, so that publishing allocates nothing
}

// Publisher creates a publisher of msg's type on topic (resolved in the
// node's namespace) and announces it in the graph.
func (n *Node) Publisher(topic string, msg ros2msg.Message, q rtps.QoS) (*Publisher, error) {
	name, err := ResolveRemapped(n.cfg.Namespace, n.cfg.Name, topic, n.cfg.Remaps)
	if err != nil {
		return nil, err
	}
	w, err := n.p.NewWriterUserData(TopicName(name), msg.TypeName(), q, n.userData(msg.TypeName()))
	if err != nil {
		return nil, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.writers = append(n.writers, gidOf(w.GUID()))
	return &Publisher{w: w}, errors.Join(n.added(w), n.publishInfo())
}

// Writer is the publisher's DDS writer.
func (pub *Publisher) Writer() *rtps.Writer { return pub.w }

// Publish sends one message.
func (pub *Publisher) Publish(msg ros2msg.Message) error {
	pub.mu.Lock()
	defer pub.mu.Unlock()
	pub.enc.Reset(pub.enc.Bytes()[:0], cdr.CDRLE)
	msg.MarshalCDR(&pub.enc)
	return pub.w.Write(pub.enc.Bytes())
}

// Subscription is a subscription's DDS reader.
type Subscription = rtps.Reader

// Subscribe subscribes to topic with msg's type; handler gets each
// sample's payload (decode it with ros2msg.Unmarshal) on the node's
// receiving goroutine.
func (n *Node) Subscribe(topic string, msg ros2msg.Message, q rtps.QoS, handler func(rtps.Sample)) (*Subscription, error) {
	name, err := ResolveRemapped(n.cfg.Namespace, n.cfg.Name, topic, n.cfg.Remaps)
	if err != nil {
		return nil, err
	}
	r, err := n.p.NewReaderUserData(TopicName(name), msg.TypeName(), q, n.userData(msg.TypeName()), handler)
	if err != nil {
		return nil, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.readers = append(n.readers, gidOf(r.GUID()))
	return r, errors.Join(n.added(r), n.publishInfo())
}
