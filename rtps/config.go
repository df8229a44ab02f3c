package rtps

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"time"
)

// Config configures a Participant. The zero Config is a participant of
// domain 0 on 127.0.0.1 that finds peers on 127.0.0.1 by unicast.
type Config struct {
	// Domain is the DDS domain id, 0 to MaxDomain. (optional) defaults to 0.
	Domain int
	// Addr is the IPv4 address the participant announces and sends from.
	// A loopback Addr is also the address it binds; any other, it binds
	// its unicast ports on every address, as Cyclone DDS and Fast DDS do:
	// Fast DDS sends to a participant on its own host by 127.0.0.1 (its
	// UDPv4 transport turns a remote locator that is a local address into
	// localhost). (optional) defaults to 127.0.0.1.
	Addr netip.Addr
	// Peers are addresses to send SPDP announcements to by unicast, at the
	// discovery ports of participant ids 0 to MaxPeerID (the way Cyclone
	// DDS's Peers and Fast DDS's initial peers work). (optional) defaults
	// to Addr when Multicast is off.
	Peers []netip.Addr
	// MaxPeerID is the highest participant id probed at each peer.
	// (optional) defaults to 9.
	MaxPeerID int
	// Multicast joins the SPDP multicast group 239.255.0.1 and announces
	// there too. (optional) defaults to off.
	Multicast bool
	// Interface is the multicast interface. (optional) defaults to the
	// system's choice.
	Interface *net.Interface
	// LeaseDuration is how long peers keep this participant without an
	// announcement. (optional) defaults to 20 s.
	LeaseDuration time.Duration
	// AnnouncePeriod is the period of SPDP announcements. (optional)
	// defaults to 2 s.
	AnnouncePeriod time.Duration
	// HeartbeatPeriod is the period of a reliable writer's heartbeats
	// while a reader has not acknowledged all. (optional) defaults to 100 ms.
	HeartbeatPeriod time.Duration
	// UserData is the participant's USER_DATA QoS. (optional)
	UserData []byte
	// Name is announced as the participant's entity name. (optional)
	Name string
	// MaxParticipants bounds the remote participants kept. A newcomer
	// over it takes the place of one not yet proven (none of its
	// endpoints acknowledged our samples, sent samples to our readers,
	// or has been matched with ours for DiscoveryTimeout): the idlest of
	// its own address, else the newest of all (source addresses are
	// forgeable: a newcomer never costs the participants known longest
	// their places). It is ignored (and counted) when there is none.
	// (optional) defaults to 64.
	MaxParticipants int
	// MaxParticipantsPerAddr bounds the remote participants announced
	// from one IP address: a newcomer over it takes the place of the
	// idlest unproven one of that address. (optional) defaults to half
	// of MaxParticipants.
	MaxParticipantsPerAddr int
	// AdmitRate bounds the new participants admitted from one IP address:
	// MaxParticipantsPerAddr at once, then AdmitRate a second; more are
	// ignored (and counted) until their next announcement. (optional)
	// defaults to 4.
	AdmitRate float64
	// MaxLease caps the lease a remote participant announces (an
	// infinite one included): it is dropped after MaxLease without an
	// announcement, whatever it asked for. Cyclone DDS takes its own
	// lease (10 s by default) for an infinite one; ROS 2's peers announce
	// 10 s (Cyclone) and 20 s (Fast DDS), and Cyclone announces at least
	// every 30 s whatever its lease. (optional) defaults to 60 s.
	MaxLease time.Duration
	// DiscoveryTimeout drops a remote participant that has not taken
	// part in endpoint discovery (no SEDP message from it) this long
	// after its first announcement; its next announcement admits it
	// again. (optional) defaults to 20 s.
	DiscoveryTimeout time.Duration
	// MaxEndpoints bounds the remote endpoints kept, with the eviction
	// of MaxEndpointsPerAddr. (optional) defaults to 1024.
	MaxEndpoints int
	// MaxEndpointsPerAddr bounds the remote endpoints of the participants
	// of one IP address; a newcomer over a bound takes the place of an
	// endpoint not yet proven, as MaxParticipants says (an endpoint
	// matched with ours for DiscoveryTimeout is proven). (optional)
	// defaults to half of MaxEndpoints.
	MaxEndpointsPerAddr int
	// EgressLimit bounds what the participant sends, in bytes a second
	// (a burst of a tenth of a second at once): a datagram over it is not
	// sent (counted in Stats.SendDropped; reliable readers get it again
	// later). Traffic a peer has not earned (to readers that have not
	// acknowledged, repairs, answers to new participants) may use only
	// what traffic to acknowledging readers leaves. (optional) defaults
	// to 0, no limit.
	EgressLimit int
	// RepairLimit bounds the repairs (samples sent again, GAPs and
	// heartbeats answering ACKNACK and NACK_FRAG) in bytes a second, in
	// all; each reader gets at most a quarter of it. A second's worth at
	// once. (optional) defaults to 1 MiB/s.
	RepairLimit int
	// MaxUnanswered is the number of heartbeats (sent, not refused by
	// EgressLimit) a reliable reader may leave unanswered (no ACKNACK):
	// then it gets no more samples, until an ACKNACK comes from it, and
	// a heartbeat every 10 heartbeat periods (earned traffic) if it
	// acknowledged before, else every 50. A peer's SEDP reader that
	// acknowledged before never stops. (optional) defaults to 20 (2 s at
	// the default period).
	MaxUnanswered int
	// MaxSampleSize bounds a fragmented sample. (optional) defaults to 1 MiB.
	MaxSampleSize int
	// MaxReassembly bounds the memory of fragmented samples in progress.
	// (optional) defaults to 8 MiB.
	MaxReassembly int
	// Logf logs discovery events. (optional) defaults to none.
	Logf func(format string, args ...any)
}

func (c *Config) defaults() error {
	if c.Domain < 0 || c.Domain > MaxDomain {
		return fmt.Errorf("rtps: domain %d outside 0..%d", c.Domain, MaxDomain)
	}
	if !c.Addr.IsValid() {
		c.Addr = netip.AddrFrom4([4]byte{127, 0, 0, 1})
	}
	if !c.Addr.Is4() {
		return fmt.Errorf("rtps: address %v is not IPv4", c.Addr)
	}
	if len(c.Peers) == 0 && !c.Multicast {
		c.Peers = []netip.Addr{c.Addr}
	}
	setDefault(&c.MaxPeerID, 9)
	setDefault(&c.LeaseDuration, 20*time.Second)
	setDefault(&c.AnnouncePeriod, 2*time.Second)
	setDefault(&c.HeartbeatPeriod, 100*time.Millisecond)
	setDefault(&c.MaxParticipants, 64)
	setDefault(&c.MaxEndpoints, 1024)
	setDefault(&c.MaxParticipantsPerAddr, max(1, c.MaxParticipants/2))
	setDefault(&c.MaxEndpointsPerAddr, max(1, c.MaxEndpoints/2))
	setDefault(&c.AdmitRate, 4)
	setDefault(&c.MaxLease, 60*time.Second)
	setDefault(&c.DiscoveryTimeout, 20*time.Second)
	setDefault(&c.RepairLimit, 1<<20)
	setDefault(&c.MaxUnanswered, 20)
	if c.EgressLimit < 0 || c.RepairLimit < 0 {
		return fmt.Errorf("rtps: negative egress limit %d or repair limit %d", c.EgressLimit, c.RepairLimit)
	}
	setDefault(&c.MaxSampleSize, 1<<20)
	setDefault(&c.MaxReassembly, 8<<20)
	if c.Logf == nil {
		c.Logf = func(string, ...any) {}
	}
	return nil
}

func setDefault[T comparable](v *T, d T) {
	var zero T
	if *v == zero {
		*v = d
	}
}

// ErrClosed is returned by a closed participant's writers.
var ErrClosed = errors.New("rtps: participant closed")

// maxParticipantID is the highest participant id tried when binding
// (Cyclone's and Fast DDS's limit too: 120 participants per domain and host).
const maxParticipantID = 119
