package rtps

import (
	"encoding/binary"
	"fmt"
	"time"
)

// Parameter ids (DDSI-RTPS 2.3 §9.6.2.2.2 table 9.12 and §9.6.3 table
// 9.14; Cyclone DDS 0.10.2 q_protocol.h PID_*, Fast DDS 2.9.1
// fastdds/dds/core/policy/ParameterTypes.hpp).
const (
	pidPad                     = 0x0000
	pidSentinel                = 0x0001
	pidParticipantLeaseDur     = 0x0002
	pidTopicName               = 0x0005
	pidTypeName                = 0x0007
	pidDomainID                = 0x000f
	pidProtocolVersion         = 0x0015
	pidVendorID                = 0x0016
	pidReliability             = 0x001a
	pidDurability              = 0x001d
	pidUserData                = 0x002c
	pidUnicastLocator          = 0x002f
	pidMulticastLocator        = 0x0030
	pidDefaultUnicastLocator   = 0x0031
	pidMetaUnicastLocator      = 0x0032
	pidMetaMulticastLocator    = 0x0033
	pidHistory                 = 0x0040
	pidDefaultMulticastLocator = 0x0048
	pidParticipantGUID         = 0x0050
	pidBuiltinEndpointSet      = 0x0058
	pidEndpointGUID            = 0x005a
	pidEntityName              = 0x0062
	pidKeyHash                 = 0x0070
	pidStatusInfo              = 0x0071
	// pidRelatedSampleIdentity is Fast DDS's (2.9.1 ParameterTypes.hpp
	// PID_RELATED_SAMPLE_IDENTITY, vendor-specific): {GUID, sequence number}
	// of the sample a reply answers; rmw_fastrtps carries service identities in it.
	pidRelatedSampleIdentity = 0x800f
	// A parameter id with this bit is vendor specific (§9.6.2.2.1): read
	// only for its vendor; with pidIncompatible and not vendor specific, an
	// unknown parameter makes the whole list unusable.
	pidVendorSpecific = 0x8000
	pidIncompatible   = 0x4000
)

// StatusInfo bits in PID_STATUS_INFO (§9.6.3.9; sent big endian).
const (
	StatusDisposed     = 1
	StatusUnregistered = 2
)

// Limits on what a parameter list may carry.
const (
	maxLocators   = 16
	maxUserData   = 4096
	maxNameLength = 256
)

// ParamList is a parameter list (§9.4.2.11) in wire form: parameters of
// {id uint16, length uint16, value}, lengths multiples of 4, ended by
// PID_SENTINEL.
type ParamList struct {
	b     []byte
	order binary.ByteOrder
}

// paramListLen is the length of the list at the head of b, its sentinel
// included.
func paramListLen(b []byte, order binary.ByteOrder) (int, error) {
	off := 0
	for {
		if len(b)-off < 4 {
			return 0, fmt.Errorf("%w: parameter list without sentinel", ErrShort)
		}
		id, n := order.Uint16(b[off:]), int(order.Uint16(b[off+2:]))
		off += 4
		if id == pidSentinel {
			return off, nil
		}
		if n > len(b)-off {
			return 0, fmt.Errorf("%w: parameter 0x%04x of %d bytes", ErrShort, id, n)
		}
		off += n
	}
}

// Each calls f with every parameter before the sentinel. The list's
// length was checked when it was decoded.
func (l ParamList) Each(f func(id uint16, v []byte) error) error {
	b := l.b
	for len(b) >= 4 {
		id, n := l.order.Uint16(b), int(l.order.Uint16(b[2:]))
		if id == pidSentinel || n > len(b)-4 {
			return nil
		}
		if err := f(id, b[4:4+n]); err != nil {
			return err
		}
		b = b[4+n:]
	}
	return nil
}

// KeyHash is the list's PID_KEY_HASH, if there is one.
func (l ParamList) KeyHash() (GUID, bool) {
	var g GUID
	var ok bool
	_ = l.Each(func(id uint16, v []byte) error {
		if id == pidKeyHash && len(v) >= 16 {
			g, ok = guidFrom(v), true
		}
		return nil
	})
	return g, ok
}

// StatusInfo is the list's PID_STATUS_INFO flags, or 0.
func (l ParamList) StatusInfo() uint32 {
	var s uint32
	_ = l.Each(func(id uint16, v []byte) error {
		if id == pidStatusInfo && len(v) >= 4 {
			s = binary.BigEndian.Uint32(v)
		}
		return nil
	})
	return s
}

// ParamWriter appends a little-endian parameter list.
type ParamWriter struct {
	b []byte
}

func (w *ParamWriter) param(id uint16, v ...byte) {
	w.b = le.AppendUint16(w.b, id)
	at := len(w.b)
	w.b = le.AppendUint16(w.b, 0)
	w.b = append(w.b, v...)
	for (len(w.b)-at-2)%4 != 0 {
		w.b = append(w.b, 0)
	}
	le.PutUint16(w.b[at:], uint16(len(w.b)-at-2))
}

func (w *ParamWriter) u32(id uint16, v uint32) { w.param(id, le.AppendUint32(nil, v)...) }

func (w *ParamWriter) guid(id uint16, g GUID) {
	b := g.bytes()
	w.param(id, b[:]...)
}

func (w *ParamWriter) str(id uint16, s string) {
	v := le.AppendUint32(nil, uint32(len(s)+1))
	v = append(append(v, s...), 0)
	w.param(id, v...)
}

func (w *ParamWriter) octets(id uint16, p []byte) {
	w.param(id, append(le.AppendUint32(nil, uint32(len(p))), p...)...)
}

func (w *ParamWriter) locator(id uint16, l Locator) {
	v := le.AppendUint32(nil, uint32(l.Kind))
	v = le.AppendUint32(v, l.Port)
	w.param(id, append(v, l.Addr[:]...)...)
}

func (w *ParamWriter) duration(id uint16, d Duration) {
	w.param(id, le.AppendUint32(le.AppendUint32(nil, uint32(d.Seconds)), d.Fraction)...)
}

// List ends the list with its sentinel and returns it.
func (w *ParamWriter) List() ParamList {
	w.b = append(w.b, pidSentinel, 0, 0, 0)
	return ParamList{b: w.b, order: le}
}

// KeyHashList is an inline QoS of a key hash, and status info when
// status is not 0 (a dispose or unregister).
func KeyHashList(g GUID, status uint32) ParamList {
	var w ParamWriter
	w.guid(pidKeyHash, g)
	if status != 0 {
		w.param(pidStatusInfo, binary.BigEndian.AppendUint32(nil, status)...)
	}
	return w.List()
}

// plEncapsulation heads a discovery payload: PL_CDR_LE (§9.6.2.2:
// discovery data is a parameter list in PL_CDR encapsulation).
var plEncapsulation = []byte{0x00, 0x03, 0x00, 0x00}

// decodePL checks a PL_CDR payload's encapsulation and returns its list.
func decodePL(payload []byte) (ParamList, error) {
	if len(payload) < 4 || payload[0] != 0 || (payload[1] != 2 && payload[1] != 3) {
		return ParamList{}, fmt.Errorf("%w: payload is not PL_CDR", ErrInvalid)
	}
	order := binary.ByteOrder(binary.BigEndian)
	if payload[1] == 3 {
		order = binary.LittleEndian
	}
	b := payload[4:]
	n, err := paramListLen(b, order)
	if err != nil {
		return ParamList{}, err
	}
	return ParamList{b: b[:n], order: order}, nil
}

// value reads a parameter's value, bounds checked.
type value struct {
	reader
}

func newValue(v []byte, order binary.ByteOrder) *value {
	return &value{reader{b: v, order: order}}
}

func (v *value) str() string {
	n := v.u32()
	if v.bad || n == 0 || n > maxNameLength || int(n) > len(v.b) {
		v.bad = true
		return ""
	}
	s := v.take(int(n))
	if s[n-1] != 0 {
		v.bad = true
		return ""
	}
	return string(s[:n-1])
}

func (v *value) locator() Locator {
	l := Locator{Kind: int32(v.u32()), Port: v.u32()}
	copy(l.Addr[:], v.take(16))
	return l
}

func (v *value) guid() GUID { return guidFrom(v.take(16)) }

func (v *value) duration() Duration { return Duration{Seconds: int32(v.u32()), Fraction: v.u32()} }

// ParticipantData is what SPDP announces of a participant (§8.5.3.2
// SPDPdiscoveredParticipantData; §9.6.2.2 its parameters).
type ParticipantData struct {
	GUID             GUID
	Vendor           VendorID
	Version          [2]byte
	DomainID         uint32
	HasDomainID      bool
	MetaUnicast      []Locator
	MetaMulticast    []Locator
	DefaultUnicast   []Locator
	DefaultMulticast []Locator
	BuiltinEndpoints uint32
	LeaseDuration    time.Duration
	UserData         []byte
	EntityName       string
}

// Marshal appends the PL_CDR_LE payload announcing p to buf.
func (p *ParticipantData) Marshal(buf []byte) []byte {
	w := ParamWriter{b: append(buf, plEncapsulation...)}
	w.param(pidProtocolVersion, ProtocolVersion[:]...)
	w.param(pidVendorID, VendorUnknown[:]...)
	w.guid(pidParticipantGUID, p.GUID)
	if p.HasDomainID {
		w.u32(pidDomainID, p.DomainID)
	}
	for _, l := range p.MetaUnicast {
		w.locator(pidMetaUnicastLocator, l)
	}
	for _, l := range p.MetaMulticast {
		w.locator(pidMetaMulticastLocator, l)
	}
	for _, l := range p.DefaultUnicast {
		w.locator(pidDefaultUnicastLocator, l)
	}
	for _, l := range p.DefaultMulticast {
		w.locator(pidDefaultMulticastLocator, l)
	}
	w.u32(pidBuiltinEndpointSet, p.BuiltinEndpoints)
	w.duration(pidParticipantLeaseDur, DurationOf(p.LeaseDuration))
	if p.UserData != nil {
		w.octets(pidUserData, p.UserData)
	}
	if p.EntityName != "" {
		w.str(pidEntityName, p.EntityName)
	}
	return w.List().b
}

// DecodeParticipantData decodes an SPDP payload. Unknown parameters are
// skipped; an unknown one marked incompatible refuses the whole.
func DecodeParticipantData(payload []byte) (ParticipantData, error) {
	l, err := decodePL(payload)
	if err != nil {
		return ParticipantData{}, err
	}
	p := ParticipantData{LeaseDuration: 100 * time.Second} // §9.6.2.2.? default lease
	var haveGUID bool
	err = l.Each(func(id uint16, b []byte) error {
		v := newValue(b, l.order)
		switch id {
		case pidParticipantGUID:
			p.GUID, haveGUID = v.guid(), true
		case pidVendorID:
			copy(p.Vendor[:], v.take(2))
		case pidProtocolVersion:
			copy(p.Version[:], v.take(2))
		case pidDomainID:
			p.DomainID, p.HasDomainID = v.u32(), true
		case pidMetaUnicastLocator:
			p.MetaUnicast = addLocator(p.MetaUnicast, v.locator())
		case pidMetaMulticastLocator:
			p.MetaMulticast = addLocator(p.MetaMulticast, v.locator())
		case pidDefaultUnicastLocator:
			p.DefaultUnicast = addLocator(p.DefaultUnicast, v.locator())
		case pidDefaultMulticastLocator:
			p.DefaultMulticast = addLocator(p.DefaultMulticast, v.locator())
		case pidBuiltinEndpointSet:
			p.BuiltinEndpoints = v.u32()
		case pidParticipantLeaseDur:
			p.LeaseDuration = durationOf(v.duration())
		case pidUserData:
			p.UserData = v.octets()
		case pidEntityName:
			p.EntityName = v.str()
		default:
			return unknownParam(id)
		}
		if v.bad {
			return fmt.Errorf("%w: SPDP parameter 0x%04x of %d bytes", ErrInvalid, id, len(b))
		}
		return nil
	})
	if err != nil {
		return ParticipantData{}, err
	}
	if !haveGUID || p.GUID.Entity != EntityParticipant {
		return ParticipantData{}, fmt.Errorf("%w: SPDP without a participant GUID", ErrInvalid)
	}
	return p, nil
}

func unknownParam(id uint16) error {
	if id&pidIncompatible != 0 && id&pidVendorSpecific == 0 {
		return fmt.Errorf("%w: unknown incompatible parameter 0x%04x", ErrInvalid, id)
	}
	return nil
}

func (v *value) octets() []byte {
	n := v.u32()
	if v.bad || n > maxUserData || int(n) > len(v.b) {
		v.bad = true
		return nil
	}
	return append([]byte{}, v.take(int(n))...)
}

// addLocator keeps at most maxLocators UDPv4 locators.
func addLocator(ls []Locator, l Locator) []Locator {
	if _, ok := l.AddrPort(); !ok || len(ls) >= maxLocators {
		return ls
	}
	return append(ls, l)
}

// durationOf converts a Duration, infinite (0x7fffffff seconds) or
// negative ones to a year.
func durationOf(d Duration) time.Duration {
	if d.Seconds < 0 || d.Seconds >= 0x7fffffff {
		return 365 * 24 * time.Hour
	}
	return time.Duration(d.Seconds)*time.Second + time.Duration((uint64(d.Fraction)*1e9)>>32)
}

// Reliability is the RELIABILITY QoS kind as SEDP carries it (1 best
// effort, 2 reliable: Cyclone 0.10.2 ddsi_xqos.h
// DDS_EXTERNAL_RELIABILITY_*, Fast DDS 2.9.1 QosPolicies.hpp
// BEST_EFFORT_RELIABILITY_QOS = 0x01, RELIABLE_RELIABILITY_QOS = 0x02).
type Reliability uint32

// Reliability kinds.
const (
	BestEffort Reliability = 1
	Reliable   Reliability = 2
)

// Durability is the DURABILITY QoS kind (DDS 1.4 §2.2.3.4; on the wire
// 0 volatile, 1 transient local, 2 transient, 3 persistent).
type Durability uint32

// Durability kinds, in the order the DDS spec ranks them.
const (
	Volatile       Durability = 0
	TransientLocal Durability = 1
	Transient      Durability = 2
	Persistent     Durability = 3
)

// History is the HISTORY QoS kind (0 keep last, 1 keep all).
type History uint32

// History kinds.
const (
	KeepLast History = 0
	KeepAll  History = 1
)

// QoS is the part of an endpoint's QoS this library uses.
type QoS struct {
	Reliability Reliability
	Durability  Durability
	History     History
	Depth       int32 // for KeepLast
}

// EndpointData is what SEDP announces of a writer
// (DiscoveredWriterData, §8.5.4.2) or a reader (DiscoveredReaderData).
type EndpointData struct {
	GUID        GUID
	Participant GUID
	Topic, Type string
	QoS         QoS
	Unicast     []Locator
	Multicast   []Locator
	UserData    []byte
}

// Marshal appends the PL_CDR_LE payload announcing e to buf.
func (e *EndpointData) Marshal(buf []byte) []byte {
	w := ParamWriter{b: append(buf, plEncapsulation...)}
	// Version and vendor are optional here, but @foxglove/rtps 1.6.0
	// ignores an endpoint without them (dist/discovery/simple.js parseEndpoint).
	w.param(pidProtocolVersion, ProtocolVersion[:]...)
	w.param(pidVendorID, VendorUnknown[:]...)
	w.guid(pidEndpointGUID, e.GUID)
	w.guid(pidParticipantGUID, e.Participant)
	w.str(pidTopicName, e.Topic)
	w.str(pidTypeName, e.Type)
	// max_blocking_time 100 ms, the DDS default (DDS 1.4 §2.2.3).
	w.param(pidReliability, le.AppendUint32(le.AppendUint32(le.AppendUint32(nil, uint32(e.QoS.Reliability)), 0), 429496729)...)
	w.u32(pidDurability, uint32(e.QoS.Durability))
	w.param(pidHistory, le.AppendUint32(le.AppendUint32(nil, uint32(e.QoS.History)), uint32(e.QoS.Depth))...)
	for _, l := range e.Unicast {
		w.locator(pidUnicastLocator, l)
	}
	for _, l := range e.Multicast {
		w.locator(pidMulticastLocator, l)
	}
	if e.UserData != nil {
		w.octets(pidUserData, e.UserData)
	}
	return w.List().b
}

// DecodeEndpointData decodes an SEDP payload; writer says which kind it
// announces, for the defaults of absent QoS (DDS 1.4 §2.2.3: a writer
// reliable, a reader best effort; volatile; keep last 1). key is the
// inline key hash, used when the payload has no PID_ENDPOINT_GUID.
func DecodeEndpointData(payload []byte, writer bool, key GUID) (EndpointData, error) {
	l, err := decodePL(payload)
	if err != nil {
		return EndpointData{}, err
	}
	e := EndpointData{GUID: key, QoS: QoS{Reliability: BestEffort, Durability: Volatile, History: KeepLast, Depth: 1}}
	if writer {
		e.QoS.Reliability = Reliable
	}
	err = l.Each(func(id uint16, b []byte) error {
		v := newValue(b, l.order)
		switch id {
		case pidEndpointGUID:
			e.GUID = v.guid()
		case pidParticipantGUID:
			e.Participant = v.guid()
		case pidTopicName:
			e.Topic = v.str()
		case pidTypeName:
			e.Type = v.str()
		case pidReliability:
			e.QoS.Reliability = Reliability(v.u32())
		case pidDurability:
			e.QoS.Durability = Durability(v.u32())
		case pidHistory:
			e.QoS.History, e.QoS.Depth = History(v.u32()), int32(v.u32())
		case pidUnicastLocator:
			e.Unicast = addLocator(e.Unicast, v.locator())
		case pidMulticastLocator:
			e.Multicast = addLocator(e.Multicast, v.locator())
		case pidUserData:
			e.UserData = v.octets()
		case pidProtocolVersion, pidVendorID:
		default:
			return unknownParam(id)
		}
		if v.bad {
			return fmt.Errorf("%w: SEDP parameter 0x%04x of %d bytes", ErrInvalid, id, len(b))
		}
		return nil
	})
	if err != nil {
		return EndpointData{}, err
	}
	if e.GUID.Entity == EntityUnknown || e.Topic == "" || e.Type == "" {
		return EndpointData{}, fmt.Errorf("%w: SEDP without endpoint GUID, topic or type", ErrInvalid)
	}
	if e.GUID.Entity.IsWriter() != writer {
		return EndpointData{}, fmt.Errorf("%w: SEDP endpoint %s of the wrong kind", ErrInvalid, e.GUID)
	}
	if e.QoS.Reliability != BestEffort && e.QoS.Reliability != Reliable || e.QoS.Durability > Persistent {
		return EndpointData{}, fmt.Errorf("%w: SEDP QoS %+v", ErrInvalid, e.QoS)
	}
	if e.Participant == (GUID{}) {
		e.Participant = GUID{Prefix: e.GUID.Prefix, Entity: EntityParticipant}
	}
	return e, nil
}

// Compatible says whether a writer offering w matches a reader requesting
// r (DDS 1.4 §2.2.3 "requested/offered"): the writer's reliability and
// durability at least the reader's.
func Compatible(w, r QoS) bool {
	return w.Reliability >= r.Reliability && w.Durability >= r.Durability
}

// RelatedSampleIdentity is an inline QoS of a related sample identity
// (Fast DDS's PID 0x800f): the GUID and sequence number of the sample
// this one relates to, as rmw_fastrtps marks service requests and replies.
func RelatedSampleIdentity(g GUID, sn SequenceNumber) ParamList {
	var w ParamWriter
	b := g.bytes()
	v := append(b[:], 0, 0, 0, 0, 0, 0, 0, 0)
	le.PutUint32(v[16:], uint32(int64(sn)>>32))
	le.PutUint32(v[20:], uint32(sn))
	w.param(pidRelatedSampleIdentity, v...)
	return w.List()
}

// RelatedSampleIdentity reads the list's related sample identity.
func (l ParamList) RelatedSampleIdentity() (GUID, SequenceNumber, bool) {
	var g GUID
	var sn SequenceNumber
	var ok bool
	_ = l.Each(func(id uint16, v []byte) error {
		if id == pidRelatedSampleIdentity && len(v) >= 24 {
			g = guidFrom(v)
			sn = SequenceNumber(int64(int32(l.order.Uint32(v[16:])))<<32 | int64(l.order.Uint32(v[20:])))
			ok = true
		}
		return nil
	})
	return g, sn, ok
}
