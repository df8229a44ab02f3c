package ros2msg

import (
	"errors"

	"github.com/frcd/frcd/cdr"
)

// Gid sizes: rmw_dds_common/msg/Gid.msg is char[16] from Iron on and
// char[24] in Humble (ros2/rmw_dds_common@0cf1ce47 and humble@e26ba107).
const (
	GidSize       = 16
	GidSizeHumble = 24
)

// Gid is an rmw entity's global id: its 16-byte DDS GUID, zero-padded.
type Gid [GidSizeHumble]byte

// NodeEntitiesInfo is rmw_dds_common/msg/NodeEntitiesInfo: a node and
// the gids of its readers and writers.
type NodeEntitiesInfo struct {
	Namespace string
	Name      string
	Readers   []Gid
	Writers   []Gid
}

// ParticipantEntitiesInfo is rmw_dds_common/msg/ParticipantEntitiesInfo,
// what a participant publishes on ros_discovery_info: the nodes it holds.
// GidLen is GidSize or GidSizeHumble (0 means GidSize).
type ParticipantEntitiesInfo struct {
	GidLen int
	Gid    Gid
	Nodes  []NodeEntitiesInfo
}

// TypeName implements Message.
func (*ParticipantEntitiesInfo) TypeName() string {
	return "rmw_dds_common::msg::dds_::ParticipantEntitiesInfo_"
}

func (m *ParticipantEntitiesInfo) gidLen() int {
	if m.GidLen == GidSizeHumble {
		return GidSizeHumble
	}
	return GidSize
}

// MarshalCDR implements Message.
func (m *ParticipantEntitiesInfo) MarshalCDR(e *cdr.Encoder) {
	n := m.gidLen()
	gid := func(g *Gid) {
		for _, b := range g[:n] {
			e.Uint8(b) // char[n]: no count
		}
	}
	gids := func(gs []Gid) {
		e.SeqLen(len(gs))
		for i := range gs {
			gid(&gs[i])
		}
	}
	gid(&m.Gid)
	e.SeqLen(len(m.Nodes))
	for i := range m.Nodes {
		e.String(m.Nodes[i].Namespace)
		e.String(m.Nodes[i].Name)
		gids(m.Nodes[i].Readers)
		gids(m.Nodes[i].Writers)
	}
}

// UnmarshalCDR implements Message; m.GidLen says the gid size to read,
// and a message that leaves bytes over fails (errGidSize).
func (m *ParticipantEntitiesInfo) UnmarshalCDR(d *cdr.Decoder) {
	n := m.gidLen()
	gid := func(g *Gid) {
		*g = Gid{}
		for i := 0; i < n; i++ {
			g[i] = d.Uint8()
		}
	}
	gids := func() []Gid {
		gs := make([]Gid, d.SeqLen(n))
		for i := range gs {
			gid(&gs[i])
		}
		return gs
	}
	gid(&m.Gid)
	m.Nodes = make([]NodeEntitiesInfo, d.SeqLen(18)) // two strings and two counts at least
	for i := range m.Nodes {
		m.Nodes[i].Namespace = d.String()
		m.Nodes[i].Name = d.String()
		m.Nodes[i].Readers = gids()
		m.Nodes[i].Writers = gids()
	}
	if d.Err() == nil && d.Remaining() >= 4 {
		d.Fail(errGidSize)
	}
}

// errGidSize is a graph message with 4 bytes or more past its end (CDR
// pads to 4 at most): read with the other distribution's gid size (a
// Humble peer's 24-byte gids read as 16-byte ones give no nodes and leave
// the rest).
var errGidSize = errors.New("bytes past the end: another gid size")
