package rtps

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Submessage ids (DDSI-RTPS 2.3 §9.4.5.1.1 table 9.11; Cyclone DDS 0.10.2
// q_protocol.h SMID_*).
const (
	SubPad           = 0x01
	SubAckNack       = 0x06
	SubHeartbeat     = 0x07
	SubGap           = 0x08
	SubInfoTS        = 0x09
	SubInfoSrc       = 0x0c
	SubInfoReplyIP4  = 0x0d
	SubInfoDst       = 0x0e
	SubInfoReply     = 0x0f
	SubNackFrag      = 0x12
	SubHeartbeatFrag = 0x13
	SubData          = 0x15
	SubDataFrag      = 0x16
)

// Submessage flags (§9.4.5.*): bit 0 of every submessage is E, the
// endianness (1 little endian).
const (
	flagE = 0x01
	// DATA: Q inline QoS, D data, K key (§9.4.5.3).
	dataFlagQ = 0x02
	dataFlagD = 0x04
	dataFlagK = 0x08
	// DATA_FRAG: Q inline QoS, K key (§9.4.5.4: K is 0x04 here).
	fragFlagQ = 0x02
	fragFlagK = 0x04
	// HEARTBEAT: F final, L liveliness (§9.4.5.7); ACKNACK: F final (§9.4.5.2).
	flagFinal      = 0x02
	flagLiveliness = 0x04
	// INFO_TS: I invalidate, no timestamp follows (§9.4.5.9).
	infoTSFlagI = 0x02
)

// HeaderSize is the size of the RTPS message header (§9.4.4): "RTPS",
// protocol version, vendor id, guid prefix.
const HeaderSize = 20

// MaxSeqSetBits is the most bits a SequenceNumberSet or FragmentNumberSet
// carries (§9.4.2.6: numBits in 0..256).
const MaxSeqSetBits = 256

// Errors of decoding, to test with errors.Is.
var (
	ErrNotRTPS = errors.New("rtps: not an RTPS message")
	ErrShort   = errors.New("rtps: submessage too short")
	ErrInvalid = errors.New("rtps: invalid submessage")
)

// Header is an RTPS message header.
type Header struct {
	Version [2]byte
	Vendor  VendorID
	Prefix  GuidPrefix
}

// Submessage is one submessage still in wire form. Body aliases the
// datagram.
type Submessage struct {
	ID    byte
	Flags byte
	Body  []byte
}

func (s Submessage) order() binary.ByteOrder {
	if s.Flags&flagE != 0 {
		return binary.LittleEndian
	}
	return binary.BigEndian
}

// Parse reads an RTPS message: its header, then each submessage given to
// visit in order. It stops at the first malformed submessage header
// (§8.3.4.1: the rest of the message is then invalid) and returns
// ErrShort; a visit error stops it too and is returned.
func Parse(b []byte, visit func(Header, Submessage) error) error {
	if len(b) < HeaderSize || string(b[:4]) != "RTPS" {
		return ErrNotRTPS
	}
	if b[4] != 2 {
		return fmt.Errorf("%w: protocol version %d.%d", ErrNotRTPS, b[4], b[5])
	}
	var h Header
	copy(h.Version[:], b[4:6])
	copy(h.Vendor[:], b[6:8])
	copy(h.Prefix[:], b[8:20])
	b = b[HeaderSize:]
	for len(b) > 0 {
		if len(b) < 4 {
			return ErrShort
		}
		s := Submessage{ID: b[0], Flags: b[1]}
		n := int(s.order().Uint16(b[2:]))
		b = b[4:]
		switch {
		case n == 0 && s.ID != SubPad && s.ID != SubInfoTS:
			n = len(b) // the last submessage runs to the end (§9.4.5.1.3)
		case n > len(b):
			return ErrShort
		}
		s.Body = b[:n]
		b = b[n:]
		if err := visit(h, s); err != nil {
			return err
		}
	}
	return nil
}

// reader reads a submessage body in its endianness, bounds checked; the
// first short read sets bad.
type reader struct {
	b     []byte
	order binary.ByteOrder
	bad   bool
}

func (r *reader) take(n int) []byte {
	if r.bad || len(r.b) < n {
		r.bad = true
		return make([]byte, n) // zeros, so that callers need no nil checks
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

func (r *reader) u16() uint16        { return r.order.Uint16(r.take(2)) }
func (r *reader) u32() uint32        { return r.order.Uint32(r.take(4)) }
func (r *reader) entity() EntityID   { return EntityID(binary.BigEndian.Uint32(r.take(4))) }
func (r *reader) prefix() GuidPrefix { return GuidPrefix(r.take(12)) }

func (r *reader) sn() SequenceNumber {
	hi := int32(r.u32())
	lo := r.u32()
	return SequenceNumber(int64(hi)<<32 | int64(lo))
}

// SeqSet is a SequenceNumberSet (§9.4.2.6): the numbers Base+i for the
// set bits i of Bits (i < NumBits), most significant bit of each word first.
type SeqSet struct {
	Base    SequenceNumber
	NumBits uint32
	Bits    [MaxSeqSetBits / 32]uint32
}

// Has says whether sn is in the set.
func (s *SeqSet) Has(sn SequenceNumber) bool {
	i := sn - s.Base
	return i >= 0 && i < SequenceNumber(s.NumBits) && s.Bits[i/32]&(1<<(31-i%32)) != 0
}

// Add puts sn in the set; it returns false when sn is out of its range.
func (s *SeqSet) Add(sn SequenceNumber) bool {
	i := sn - s.Base
	if i < 0 || i >= MaxSeqSetBits {
		return false
	}
	if uint32(i) >= s.NumBits {
		s.NumBits = uint32(i) + 1
	}
	s.Bits[i/32] |= 1 << (31 - i%32)
	return true
}

func (r *reader) seqSet(fragments bool) SeqSet {
	var s SeqSet
	if fragments {
		s.Base = SequenceNumber(r.u32())
	} else {
		s.Base = r.sn()
	}
	s.NumBits = r.u32()
	if s.NumBits > MaxSeqSetBits || (!fragments && s.Base < 1) || (fragments && s.Base < 1) {
		r.bad = true
		return SeqSet{}
	}
	for i := 0; i < int(s.NumBits+31)/32; i++ {
		s.Bits[i] = r.u32()
	}
	return s
}

// Data is a DATA submessage (§8.3.7.2, §9.4.5.3).
type Data struct {
	Reader, Writer EntityID
	SN             SequenceNumber
	InlineQoS      ParamList // nil when absent
	Payload        []byte    // the serialized payload with its encapsulation header; nil when absent
	Key            bool      // Payload is the serialized key, not the data
}

// DataFrag is a DATA_FRAG submessage (§8.3.7.4, §9.4.5.4).
type DataFrag struct {
	Reader, Writer EntityID
	SN             SequenceNumber
	FragStart      uint32 // the first fragment's number, from 1
	FragsInSub     uint16
	FragSize       uint16
	SampleSize     uint32
	InlineQoS      ParamList
	Payload        []byte // FragsInSub fragments (the last one of the sample may be short)
}

// Heartbeat is a HEARTBEAT submessage (§8.3.7.5, §9.4.5.7).
type Heartbeat struct {
	Reader, Writer EntityID
	First, Last    SequenceNumber
	Count          int32
	Final          bool
	Liveliness     bool
}

// AckNack is an ACKNACK submessage (§8.3.7.1, §9.4.5.2): every number
// below State.Base is acknowledged, the set's are requested.
type AckNack struct {
	Reader, Writer EntityID
	State          SeqSet
	Count          int32
	Final          bool
}

// Gap is a GAP submessage (§8.3.7.4, §9.4.5.5): Start up to List.Base-1,
// and the numbers in List, are irrelevant to the reader.
type Gap struct {
	Reader, Writer EntityID
	Start          SequenceNumber
	List           SeqSet
}

// NackFrag is a NACK_FRAG submessage (§9.4.5.6).
type NackFrag struct {
	Reader, Writer EntityID
	SN             SequenceNumber
	State          SeqSet // of fragment numbers
	Count          int32
}

// HeartbeatFrag is a HEARTBEAT_FRAG submessage (§9.4.5.8).
type HeartbeatFrag struct {
	Reader, Writer EntityID
	SN             SequenceNumber
	LastFrag       uint32
	Count          int32
}

// InfoTS is an INFO_TS submessage: the source time of the submessages
// that follow, or none (Invalid).
type InfoTS struct {
	Time    Time
	Invalid bool
}

// DecodeInfoTS decodes an INFO_TS body.
func DecodeInfoTS(s Submessage) (InfoTS, error) {
	if s.Flags&infoTSFlagI != 0 {
		return InfoTS{Invalid: true}, nil
	}
	r := reader{b: s.Body, order: s.order()}
	t := Time{Seconds: int32(r.u32()), Fraction: r.u32()}
	return InfoTS{Time: t}, r.err()
}

// DecodeInfoDst decodes an INFO_DST body: the participant the following
// submessages are for (zero: any).
func DecodeInfoDst(s Submessage) (GuidPrefix, error) {
	r := reader{b: s.Body, order: s.order()}
	p := r.prefix()
	return p, r.err()
}

// DecodeInfoSrc decodes an INFO_SRC body's guid prefix (§9.4.5.11: 4
// unused bytes, version, vendor, prefix).
func DecodeInfoSrc(s Submessage) (GuidPrefix, error) {
	r := reader{b: s.Body, order: s.order()}
	r.take(8)
	p := r.prefix()
	return p, r.err()
}

func (r *reader) err() error {
	if r.bad {
		return ErrShort
	}
	return nil
}

// inlineStart reads extraFlags and octetsToInlineQos and returns where the
// inline QoS (or the payload) starts, counted from after that field.
func (r *reader) inlineStart() int {
	r.u16() // extraFlags
	return int(r.u16())
}

// DecodeData decodes a DATA body. Payload and InlineQoS alias it.
func DecodeData(s Submessage) (Data, error) {
	r := reader{b: s.Body, order: s.order()}
	var d Data
	skip := r.inlineStart()
	rest := r.b
	d.Reader = r.entity()
	d.Writer, d.SN = r.writerSN()
	if r.bad || skip < 12 || skip > len(rest) {
		return Data{}, fmt.Errorf("%w: DATA header", ErrShort)
	}
	if d.SN < 1 {
		return Data{}, fmt.Errorf("%w: DATA sequence number %d", ErrInvalid, d.SN)
	}
	rest = rest[skip:]
	if s.Flags&dataFlagQ != 0 {
		n, err := paramListLen(rest, s.order())
		if err != nil {
			return Data{}, err
		}
		d.InlineQoS = ParamList{b: rest[:n], order: s.order()}
		rest = rest[n:]
	}
	if s.Flags&(dataFlagD|dataFlagK) != 0 {
		d.Payload = rest
		d.Key = s.Flags&dataFlagD == 0
	}
	return d, nil
}

// writerSN reads a writer's entity id then a sequence number.
func (r *reader) writerSN() (EntityID, SequenceNumber) {
	w := r.entity()
	return w, r.sn()
}

// DecodeDataFrag decodes a DATA_FRAG body, checking that its fragments
// lie within the sample.
func DecodeDataFrag(s Submessage) (DataFrag, error) {
	r := reader{b: s.Body, order: s.order()}
	var d DataFrag
	skip := r.inlineStart()
	rest := r.b
	d.Reader = r.entity()
	d.Writer, d.SN = r.writerSN()
	d.FragStart, d.FragsInSub, d.FragSize, d.SampleSize = r.u32(), r.u16(), r.u16(), r.u32()
	if r.bad || skip < 28 || skip > len(rest) {
		return DataFrag{}, fmt.Errorf("%w: DATA_FRAG header", ErrShort)
	}
	if d.SN < 1 || d.FragStart < 1 || d.FragSize == 0 || d.FragsInSub == 0 || d.SampleSize == 0 ||
		uint64(d.FragStart-1)*uint64(d.FragSize) >= uint64(d.SampleSize) {
		return DataFrag{}, fmt.Errorf("%w: DATA_FRAG numbers", ErrInvalid)
	}
	rest = rest[skip:]
	if s.Flags&fragFlagQ != 0 {
		n, err := paramListLen(rest, s.order())
		if err != nil {
			return DataFrag{}, err
		}
		d.InlineQoS = ParamList{b: rest[:n], order: s.order()}
		rest = rest[n:]
	}
	// The fragments' bytes: FragsInSub full fragments, or fewer bytes for
	// the sample's last fragment; trailing padding is cut off.
	start := uint64(d.FragStart-1) * uint64(d.FragSize)
	want := min(uint64(d.FragsInSub)*uint64(d.FragSize), uint64(d.SampleSize)-start)
	if uint64(len(rest)) < want {
		return DataFrag{}, fmt.Errorf("%w: DATA_FRAG has %d bytes of %d", ErrShort, len(rest), want)
	}
	d.Payload = rest[:want]
	return d, nil
}

// DecodeHeartbeat decodes a HEARTBEAT body.
func DecodeHeartbeat(s Submessage) (Heartbeat, error) {
	r := reader{b: s.Body, order: s.order()}
	h := Heartbeat{Reader: r.entity(), Writer: r.entity(), First: r.sn(), Last: r.sn(), Count: int32(r.u32())}
	h.Final, h.Liveliness = s.Flags&flagFinal != 0, s.Flags&flagLiveliness != 0
	if err := r.err(); err != nil {
		return Heartbeat{}, err
	}
	// §8.3.7.5: first >= 1 and last >= first - 1.
	if h.First < 1 || h.Last < h.First-1 {
		return Heartbeat{}, fmt.Errorf("%w: HEARTBEAT %d..%d", ErrInvalid, h.First, h.Last)
	}
	return h, nil
}

// DecodeAckNack decodes an ACKNACK body.
func DecodeAckNack(s Submessage) (AckNack, error) {
	r := reader{b: s.Body, order: s.order()}
	a := AckNack{Reader: r.entity(), Writer: r.entity()}
	a.State = r.seqSet(false)
	a.Count = int32(r.u32())
	a.Final = s.Flags&flagFinal != 0
	return a, r.err()
}

// DecodeGap decodes a GAP body.
func DecodeGap(s Submessage) (Gap, error) {
	r := reader{b: s.Body, order: s.order()}
	g := Gap{Reader: r.entity(), Writer: r.entity(), Start: r.sn()}
	g.List = r.seqSet(false)
	if err := r.err(); err != nil {
		return Gap{}, err
	}
	if g.Start < 1 || g.List.Base < g.Start {
		return Gap{}, fmt.Errorf("%w: GAP %d, %d", ErrInvalid, g.Start, g.List.Base)
	}
	return g, nil
}

// DecodeNackFrag decodes a NACK_FRAG body.
func DecodeNackFrag(s Submessage) (NackFrag, error) {
	r := reader{b: s.Body, order: s.order()}
	n := NackFrag{Reader: r.entity(), Writer: r.entity(), SN: r.sn()}
	n.State = r.seqSet(true)
	n.Count = int32(r.u32())
	return n, r.err()
}

// DecodeHeartbeatFrag decodes a HEARTBEAT_FRAG body.
func DecodeHeartbeatFrag(s Submessage) (HeartbeatFrag, error) {
	r := reader{b: s.Body, order: s.order()}
	h := HeartbeatFrag{Reader: r.entity(), Writer: r.entity(), SN: r.sn(), LastFrag: r.u32(), Count: int32(r.u32())}
	return h, r.err()
}

// Builder appends an RTPS message, little endian, to a buffer.
type Builder struct {
	b []byte
}

// Reset starts a message in buf (appending to buf[:0]'s storage).
func (m *Builder) Reset(buf []byte, prefix GuidPrefix) {
	m.b = append(buf[:0], 'R', 'T', 'P', 'S', ProtocolVersion[0], ProtocolVersion[1], VendorUnknown[0], VendorUnknown[1])
	m.b = append(m.b, prefix[:]...)
}

// Bytes is the message so far.
func (m *Builder) Bytes() []byte { return m.b }

// Len is the message's length so far.
func (m *Builder) Len() int { return len(m.b) }

// Empty says whether the message has no submessage yet.
func (m *Builder) Empty() bool { return len(m.b) <= HeaderSize }

var le = binary.LittleEndian

// sub starts a submessage and returns the index of its length field.
func (m *Builder) sub(id, flags byte) int {
	m.b = append(m.b, id, flags|flagE, 0, 0)
	return len(m.b) - 2
}

// end pads the submessage to 4 bytes and writes its length.
func (m *Builder) end(at int) {
	for len(m.b)%4 != 0 {
		m.b = append(m.b, 0)
	}
	le.PutUint16(m.b[at:], uint16(len(m.b)-at-2))
}

func (m *Builder) u16(v uint16)        { m.b = le.AppendUint16(m.b, v) }
func (m *Builder) u32(v uint32)        { m.b = le.AppendUint32(m.b, v) }
func (m *Builder) entity(e EntityID)   { m.b = binary.BigEndian.AppendUint32(m.b, uint32(e)) }
func (m *Builder) sn(s SequenceNumber) { m.u32(uint32(int64(s) >> 32)); m.u32(uint32(s)) }

func (m *Builder) seqSet(s *SeqSet, fragments bool) {
	if fragments {
		m.u32(uint32(s.Base))
	} else {
		m.sn(s.Base)
	}
	n := min(s.NumBits, MaxSeqSetBits)
	m.u32(n)
	for i := 0; i < int(n+31)/32; i++ {
		m.u32(s.Bits[i])
	}
}

// InfoTS appends an INFO_TS with t.
func (m *Builder) InfoTS(t Time) {
	at := m.sub(SubInfoTS, 0)
	m.u32(uint32(t.Seconds))
	m.u32(t.Fraction)
	m.end(at)
}

// InfoDst appends an INFO_DST for the participant p.
func (m *Builder) InfoDst(p GuidPrefix) {
	at := m.sub(SubInfoDst, 0)
	m.b = append(m.b, p[:]...)
	m.end(at)
}

// Data appends a DATA. The inline QoS is d.InlineQoS's bytes, which must
// be a little-endian parameter list with its sentinel (ParamWriter makes one).
func (m *Builder) Data(d *Data) {
	var flags byte
	if d.InlineQoS.b != nil {
		flags |= dataFlagQ
	}
	if d.Payload != nil {
		if d.Key {
			flags |= dataFlagK
		} else {
			flags |= dataFlagD
		}
	}
	at := m.sub(SubData, flags)
	m.u16(0)
	m.u16(16)
	m.entity(d.Reader)
	m.entity(d.Writer)
	m.sn(d.SN)
	m.b = append(m.b, d.InlineQoS.b...)
	m.b = append(m.b, d.Payload...)
	m.end(at)
}

// DataFrag appends a DATA_FRAG.
func (m *Builder) DataFrag(d *DataFrag) {
	var flags byte
	if d.InlineQoS.b != nil {
		flags |= fragFlagQ
	}
	at := m.sub(SubDataFrag, flags)
	m.u16(0)
	m.u16(28)
	m.entity(d.Reader)
	m.entity(d.Writer)
	m.sn(d.SN)
	m.u32(d.FragStart)
	m.u16(d.FragsInSub)
	m.u16(d.FragSize)
	m.u32(d.SampleSize)
	m.b = append(m.b, d.InlineQoS.b...)
	m.b = append(m.b, d.Payload...)
	m.end(at)
}

// Heartbeat appends a HEARTBEAT.
func (m *Builder) Heartbeat(h *Heartbeat) {
	var flags byte
	if h.Final {
		flags |= flagFinal
	}
	if h.Liveliness {
		flags |= flagLiveliness
	}
	at := m.sub(SubHeartbeat, flags)
	m.entity(h.Reader)
	m.entity(h.Writer)
	m.sn(h.First)
	m.sn(h.Last)
	m.u32(uint32(h.Count))
	m.end(at)
}

// AckNack appends an ACKNACK.
func (m *Builder) AckNack(a *AckNack) {
	var flags byte
	if a.Final {
		flags |= flagFinal
	}
	at := m.sub(SubAckNack, flags)
	m.entity(a.Reader)
	m.entity(a.Writer)
	m.seqSet(&a.State, false)
	m.u32(uint32(a.Count))
	m.end(at)
}

// Gap appends a GAP.
func (m *Builder) Gap(g *Gap) {
	at := m.sub(SubGap, 0)
	m.entity(g.Reader)
	m.entity(g.Writer)
	m.sn(g.Start)
	m.seqSet(&g.List, false)
	m.end(at)
}

// NackFrag appends a NACK_FRAG.
func (m *Builder) NackFrag(n *NackFrag) {
	at := m.sub(SubNackFrag, 0)
	m.entity(n.Reader)
	m.entity(n.Writer)
	m.sn(n.SN)
	m.seqSet(&n.State, true)
	m.u32(uint32(n.Count))
	m.end(at)
}

// HeartbeatFrag appends a HEARTBEAT_FRAG.
func (m *Builder) HeartbeatFrag(h *HeartbeatFrag) {
	at := m.sub(SubHeartbeatFrag, 0)
	m.entity(h.Reader)
	m.entity(h.Writer)
	m.sn(h.SN)
	m.u32(h.LastFrag)
	m.u32(uint32(h.Count))
	m.end(at)
}
