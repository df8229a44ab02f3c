package rtps

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"net/netip"
	"time"
)

// GuidPrefix identifies a participant (DDSI-RTPS 2.3 §8.2.4.2, §9.3.1.1):
// 12 bytes, shared by all of its endpoints.
type GuidPrefix [12]byte

func (p GuidPrefix) String() string { return hex.EncodeToString(p[:]) }

// EntityID identifies an entity in its participant (§9.3.1.2): three bytes
// of key then one of kind, carried big endian whatever the submessage's
// endianness.
type EntityID uint32

// GUID is a participant's prefix and an entity id.
type GUID struct {
	Prefix GuidPrefix
	Entity EntityID
}

func (g GUID) String() string { return fmt.Sprintf("%s:%08x", g.Prefix, uint32(g.Entity)) }

// bytes is the GUID's 16 bytes as it is sent (key hash, PID_*_GUID).
func (g GUID) bytes() [16]byte {
	var b [16]byte
	copy(b[:], g.Prefix[:])
	binary.BigEndian.PutUint32(b[12:], uint32(g.Entity))
	return b
}

func guidFrom(b []byte) GUID {
	var g GUID
	copy(g.Prefix[:], b)
	g.Entity = EntityID(binary.BigEndian.Uint32(b[12:]))
	return g
}

// Builtin entity ids (DDSI-RTPS 2.3 §9.3.1.3 table 9.2; Cyclone DDS 0.10.2
// dds/ddsi/q_rtps.h NN_ENTITYID_*).
const (
	EntityUnknown           EntityID = 0x00000000
	EntityParticipant       EntityID = 0x000001c1
	EntitySEDPPubWriter     EntityID = 0x000003c2
	EntitySEDPPubReader     EntityID = 0x000003c7
	EntitySEDPSubWriter     EntityID = 0x000004c2
	EntitySEDPSubReader     EntityID = 0x000004c7
	EntitySPDPWriter        EntityID = 0x000100c2
	EntitySPDPReader        EntityID = 0x000100c7
	EntityP2PMessageWriter  EntityID = 0x000200c2
	EntityP2PMessageReader  EntityID = 0x000200c7
	entityKindWriterNoKey            = 0x03 // user-defined writer of a keyless topic (§9.3.1.2)
	entityKindReaderNoKey            = 0x04
	entityKindWriterWithKey          = 0x02
	entityKindReaderWithKey          = 0x07
	entityKindMask                   = 0x3f
)

// IsWriter says whether the entity kind is a writer's (with or without key).
func (e EntityID) IsWriter() bool {
	k := e & entityKindMask
	return k == entityKindWriterNoKey || k == entityKindWriterWithKey
}

// Builtin endpoint set bits in SPDP's PID_BUILTIN_ENDPOINT_SET (§8.5.3.1
// table 8.73? the BuiltinEndpointSet_t of §9.3.2; Cyclone q_protocol.h
// NN_DISC_BUILTIN_ENDPOINT_*).
const (
	BuiltinParticipantAnnouncer   = 1 << 0
	BuiltinParticipantDetector    = 1 << 1
	BuiltinPublicationsAnnouncer  = 1 << 2
	BuiltinPublicationsDetector   = 1 << 3
	BuiltinSubscriptionsAnnouncer = 1 << 4
	BuiltinSubscriptionsDetector  = 1 << 5
)

// SequenceNumber is a writer's sample number, from 1 (§9.3.2: on the wire
// a signed 32-bit high word then an unsigned 32-bit low word).
type SequenceNumber int64

// VendorID names an implementation (§9.3.1.4; the OMG's list: 0x0110
// Eclipse Cyclone DDS, 0x010f eProsima Fast DDS). This library has none
// registered and sends VendorUnknown.
type VendorID [2]byte

// Known vendors.
var (
	VendorUnknown = VendorID{0, 0}
	VendorCyclone = VendorID{0x01, 0x10}
	VendorFastDDS = VendorID{0x01, 0x0f}
)

// ProtocolVersion is the RTPS version this library speaks (2.3).
var ProtocolVersion = [2]byte{2, 3}

// Time is an RTPS Time_t (§9.3.2): seconds and 1/2^32 fractions.
type Time struct {
	Seconds  int32
	Fraction uint32
}

// TimeOf converts a time.
func TimeOf(t time.Time) Time {
	ns := t.UnixNano()
	return Time{Seconds: int32(ns / 1e9), Fraction: uint32((uint64(ns%1e9) << 32) / 1e9)}
}

// Time converts to a time.Time.
func (t Time) Time() time.Time {
	return time.Unix(int64(t.Seconds), int64((uint64(t.Fraction)*1e9)>>32))
}

// Duration is an RTPS Duration_t (the same form as Time).
type Duration = Time

// DurationOf converts a duration.
func DurationOf(d time.Duration) Duration {
	return Duration{Seconds: int32(d / time.Second), Fraction: uint32((uint64(d%time.Second) << 32) / 1e9)}
}

// Locator is where a participant or endpoint listens (§9.3.2 Locator_t:
// kind int32, port uint32, 16 bytes of address, an IPv4 address in the
// last four). Only UDPv4 is used here.
type Locator struct {
	Kind int32
	Port uint32
	Addr [16]byte
}

// LocatorKindUDPv4 and LocatorKindUDPv6 are the locator kinds (§9.3.2).
const (
	LocatorKindUDPv4 = 1
	LocatorKindUDPv6 = 2
)

// UDPv4 makes a UDPv4 locator.
func UDPv4(ap netip.AddrPort) Locator {
	l := Locator{Kind: LocatorKindUDPv4, Port: uint32(ap.Port())}
	a := ap.Addr().Unmap().As4()
	copy(l.Addr[12:], a[:])
	return l
}

// AddrPort is a UDPv4 locator's address, ok false for another kind.
func (l Locator) AddrPort() (netip.AddrPort, bool) {
	if l.Kind != LocatorKindUDPv4 || l.Port == 0 || l.Port > 65535 {
		return netip.AddrPort{}, false
	}
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte(l.Addr[12:])), uint16(l.Port)), true
}

// Ports is the default port mapping (DDSI-RTPS 2.3 §9.6.1.1-§9.6.1.3):
// PB 7400, DG 250, PG 2, offsets d0 0 (SPDP multicast), d1 10 (metatraffic
// unicast), d2 1 (user multicast), d3 11 (user unicast). The SPDP
// multicast address is 239.255.0.1 (§9.6.1.4.1).
type Ports struct {
	Domain, Participant int
}

// Port-mapping constants (§9.6.1.3 table 9.?: "default settings").
const (
	PortBase        = 7400
	DomainGain      = 250
	ParticipantGain = 2
	offsetD0        = 0
	offsetD1        = 10
	offsetD2        = 1
	offsetD3        = 11
	// MaxDomain keeps every port of the mapping under 65536.
	MaxDomain = 232
)

// SPDPMulticastAddr is the discovery multicast group.
var SPDPMulticastAddr = netip.MustParseAddr("239.255.0.1")

// SPDPMulticast is the port SPDP announcements go to by multicast.
func (p Ports) SPDPMulticast() int { return PortBase + DomainGain*p.Domain + offsetD0 }

// MetaUnicast is the participant's discovery unicast port.
func (p Ports) MetaUnicast() int {
	return PortBase + DomainGain*p.Domain + offsetD1 + ParticipantGain*p.Participant
}

// UserMulticast is the user-traffic multicast port.
func (p Ports) UserMulticast() int { return PortBase + DomainGain*p.Domain + offsetD2 }

// UserUnicast is the participant's user-traffic unicast port.
func (p Ports) UserUnicast() int {
	return PortBase + DomainGain*p.Domain + offsetD3 + ParticipantGain*p.Participant
}
