package rtps

import (
	"bytes"
	"errors"
	"net/netip"
	"reflect"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/bounds"
)

var testPrefix = GuidPrefix{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}

// TestDataWire checks a DATA against its layout worked out from §9.4.5.3:
// header, submessage header, extraFlags, octetsToInlineQos = 16, reader,
// writer (big endian entity ids), sequence number high then low, payload.
func TestDataWire(t *testing.T) {
	var m Builder
	m.Reset(nil, testPrefix)
	m.Data(&Data{Reader: EntityUnknown, Writer: 0x00000103, SN: 0x100000002, Payload: []byte{0, 1, 0, 0, 7, 0, 0, 0}})
	want := []byte{
		'R', 'T', 'P', 'S', 2, 3, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
		0x15, 0x05, 28, 0, // DATA, E|D, 28 bytes follow
		0, 0, 16, 0, // extraFlags, octetsToInlineQos
		0, 0, 0, 0, 0, 0, 1, 3, // reader, writer
		1, 0, 0, 0, 2, 0, 0, 0, // SN: high 1, low 2
		0, 1, 0, 0, 7, 0, 0, 0,
	}
	if !bytes.Equal(m.Bytes(), want) {
		t.Fatalf("built\n% x\nwant\n% x", m.Bytes(), want)
	}
}

func TestRoundTrip(t *testing.T) {
	var m Builder
	m.Reset(nil, testPrefix)
	ts := Time{Seconds: 100, Fraction: 1 << 31}
	m.InfoTS(ts)
	m.InfoDst(GuidPrefix{9})
	data := Data{Reader: 0x104, Writer: 0x103, SN: 5, InlineQoS: KeyHashList(GUID{testPrefix, 0x103}, StatusDisposed), Payload: []byte{0, 1, 0, 0, 1, 2, 3}}
	m.Data(&data)
	hb := Heartbeat{Reader: 0x104, Writer: 0x103, First: 3, Last: 9, Count: 7, Final: true}
	m.Heartbeat(&hb)
	an := AckNack{Reader: 0x104, Writer: 0x103, Count: 2, State: SeqSet{Base: 4}}
	an.State.Add(4)
	an.State.Add(70)
	m.AckNack(&an)
	gap := Gap{Reader: 0x104, Writer: 0x103, Start: 3, List: SeqSet{Base: 5}}
	gap.List.Add(7)
	m.Gap(&gap)
	frag := DataFrag{Reader: 0, Writer: 0x103, SN: 6, FragStart: 2, FragsInSub: 1, FragSize: 4, SampleSize: 7, Payload: []byte{5, 6, 7}}
	m.DataFrag(&frag)
	nf := NackFrag{Reader: 0x104, Writer: 0x103, SN: 6, State: SeqSet{Base: 1}, Count: 1}
	nf.State.Add(2)
	m.NackFrag(&nf)
	hf := HeartbeatFrag{Reader: 0, Writer: 0x103, SN: 6, LastFrag: 2, Count: 3}
	m.HeartbeatFrag(&hf)

	var got []any
	err := Parse(m.Bytes(), func(h Header, s Submessage) error {
		if h.Prefix != testPrefix || h.Version != ProtocolVersion {
			t.Fatalf("header %+v", h)
		}
		if len(s.Body)%4 != 0 {
			t.Errorf("submessage 0x%02x of %d bytes, not a multiple of 4", s.ID, len(s.Body))
		}
		var v any
		var err error
		switch s.ID {
		case SubInfoTS:
			v, err = DecodeInfoTS(s)
		case SubInfoDst:
			v, err = DecodeInfoDst(s)
		case SubData:
			v, err = DecodeData(s)
		case SubHeartbeat:
			v, err = DecodeHeartbeat(s)
		case SubAckNack:
			v, err = DecodeAckNack(s)
		case SubGap:
			v, err = DecodeGap(s)
		case SubDataFrag:
			v, err = DecodeDataFrag(s)
		case SubNackFrag:
			v, err = DecodeNackFrag(s)
		case SubHeartbeatFrag:
			v, err = DecodeHeartbeatFrag(s)
		}
		if err != nil {
			t.Fatalf("0x%02x: %v", s.ID, err)
		}
		got = append(got, v)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 9 {
		t.Fatalf("%d submessages", len(got))
	}
	if got[0].(InfoTS).Time != ts || got[1].(GuidPrefix) != (GuidPrefix{9}) {
		t.Errorf("INFO_TS %+v, INFO_DST %v", got[0], got[1])
	}
	d := got[2].(Data)
	// The payload is padded to 4 on the wire: the encapsulation's options
	// would say so; the decoder keeps the padding.
	if d.SN != 5 || d.Writer != 0x103 || !bytes.HasPrefix(d.Payload, data.Payload) || len(d.Payload) != 8 {
		t.Errorf("DATA %+v", d)
	}
	if k, ok := d.InlineQoS.KeyHash(); !ok || k != (GUID{testPrefix, 0x103}) || d.InlineQoS.StatusInfo() != StatusDisposed {
		t.Errorf("inline QoS: key %v %v, status %d", k, ok, d.InlineQoS.StatusInfo())
	}
	for i, want := range []any{hb, an, gap} {
		if !reflect.DeepEqual(got[3+i], want) {
			t.Errorf("got %+v, want %+v", got[3+i], want)
		}
	}
	if f := got[6].(DataFrag); !bytes.Equal(f.Payload, frag.Payload) || f.SampleSize != 7 || f.FragStart != 2 {
		t.Errorf("DATA_FRAG %+v", f)
	}
	if !reflect.DeepEqual(got[7], nf) || !reflect.DeepEqual(got[8], hf) {
		t.Errorf("NACK_FRAG %+v, HEARTBEAT_FRAG %+v", got[7], got[8])
	}
	if !an.State.Has(70) || an.State.Has(69) || an.State.Add(4+MaxSeqSetBits) {
		t.Error("SeqSet membership")
	}
}

func TestBadMessages(t *testing.T) {
	hdr := []byte{'R', 'T', 'P', 'S', 2, 1, 1, 0x10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	sub := func(b ...byte) []byte { return append(append([]byte{}, hdr...), b...) }
	none := func(Header, Submessage) error { return nil }
	for name, c := range map[string]struct {
		b    []byte
		want error
	}{
		"not RTPS":        {[]byte("RTPX12345678901234567890"), ErrNotRTPS},
		"version 1":       {append([]byte("RTPS"), 1, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), ErrNotRTPS},
		"half header":     {sub(0x15, 0x01), ErrShort},
		"length too long": {sub(0x07, 0x01, 40, 0, 1, 2, 3, 4), ErrShort},
	} {
		if err := Parse(c.b, none); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	// A heartbeat whose last is before first - 1 is refused (§8.3.7.5).
	var m Builder
	m.Reset(nil, testPrefix)
	m.Heartbeat(&Heartbeat{First: 5, Last: 2})
	_ = Parse(m.Bytes(), func(_ Header, s Submessage) error {
		if _, err := DecodeHeartbeat(s); !errors.Is(err, ErrInvalid) {
			t.Errorf("HEARTBEAT 5..2: %v", err)
		}
		return nil
	})
	// A DATA_FRAG whose first fragment starts past the sample is refused.
	m.Reset(nil, testPrefix)
	m.DataFrag(&DataFrag{SN: 1, FragStart: 3, FragsInSub: 1, FragSize: 4, SampleSize: 8, Payload: []byte{1, 2, 3, 4}})
	_ = Parse(m.Bytes(), func(_ Header, s Submessage) error {
		if _, err := DecodeDataFrag(s); !errors.Is(err, ErrInvalid) {
			t.Errorf("DATA_FRAG past the sample: %v", err)
		}
		return nil
	})
}

func TestDiscoveryData(t *testing.T) {
	p := ParticipantData{
		GUID:             GUID{testPrefix, EntityParticipant},
		DomainID:         7,
		HasDomainID:      true,
		MetaUnicast:      []Locator{UDPv4(netip.MustParseAddrPort("127.0.0.1:9160"))},
		DefaultUnicast:   []Locator{UDPv4(netip.MustParseAddrPort("127.0.0.1:9161"))},
		BuiltinEndpoints: BuiltinParticipantAnnouncer | BuiltinPublicationsDetector,
		LeaseDuration:    20 * time.Second,
		UserData:         []byte("enclave=/;"),
		EntityName:       "frcd",
	}
	back, err := DecodeParticipantData(p.Marshal(nil))
	if err != nil {
		t.Fatal(err)
	}
	p.Vendor, p.Version = VendorUnknown, ProtocolVersion
	if !reflect.DeepEqual(back, p) {
		t.Fatalf("decoded %+v\nwant %+v", back, p)
	}
	e := EndpointData{
		GUID:        GUID{testPrefix, 0x00000103},
		Participant: GUID{testPrefix, EntityParticipant},
		Topic:       "rt/chatter",
		Type:        "std_msgs::msg::dds_::String_",
		QoS:         QoS{Reliable, TransientLocal, KeepLast, 10},
		Unicast:     p.DefaultUnicast,
	}
	eb, err := DecodeEndpointData(e.Marshal(nil), true, GUID{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(eb, e) {
		t.Fatalf("decoded %+v\nwant %+v", eb, e)
	}
	if _, err := DecodeEndpointData(e.Marshal(nil), false, GUID{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a writer's GUID announced as a reader: %v", err)
	}
	// An unknown parameter marked incompatible refuses the announcement.
	w := ParamWriter{b: append([]byte{}, plEncapsulation...)}
	w.guid(pidParticipantGUID, p.GUID)
	w.u32(pidIncompatible|0x0123, 1)
	if _, err := DecodeParticipantData(w.List().b); !errors.Is(err, ErrInvalid) {
		t.Errorf("incompatible parameter: %v", err)
	}
}

func TestCompatible(t *testing.T) {
	for _, c := range []struct {
		w, r QoS
		ok   bool
	}{
		{QoS{Reliability: Reliable}, QoS{Reliability: BestEffort}, true},
		{QoS{Reliability: BestEffort}, QoS{Reliability: Reliable}, false},
		{QoS{Reliability: Reliable, Durability: TransientLocal}, QoS{Reliability: Reliable, Durability: Volatile}, true},
		{QoS{Reliability: Reliable, Durability: Volatile}, QoS{Reliability: Reliable, Durability: TransientLocal}, false},
	} {
		if Compatible(c.w, c.r) != c.ok {
			t.Errorf("writer %+v reader %+v: want %v", c.w, c.r, c.ok)
		}
	}
}

func TestPorts(t *testing.T) {
	// Domain 0 participant 0: 7400 / 7410 / 7401 / 7411; domain 1
	// participant 2: 7650, 7664, 7651, 7665 (§9.6.1.1-§9.6.1.3).
	for _, c := range []struct {
		p              Ports
		d0, d1, d2, d3 int
	}{{Ports{0, 0}, 7400, 7410, 7401, 7411}, {Ports{1, 2}, 7650, 7664, 7651, 7665}} {
		if c.p.SPDPMulticast() != c.d0 || c.p.MetaUnicast() != c.d1 || c.p.UserMulticast() != c.d2 || c.p.UserUnicast() != c.d3 {
			t.Errorf("%+v: %d %d %d %d", c.p, c.p.SPDPMulticast(), c.p.MetaUnicast(), c.p.UserMulticast(), c.p.UserUnicast())
		}
	}
}

// FuzzParse decodes arbitrary datagrams as RTPS messages and every
// submessage and discovery payload in them: never a panic, at most a
// second of CPU per input (bounds.Slow), and a decoded payload always
// lies within the datagram.
func FuzzParse(f *testing.F) {
	var m Builder
	m.Reset(nil, testPrefix)
	m.InfoTS(Time{1, 2})
	p := ParticipantData{GUID: GUID{testPrefix, EntityParticipant}, MetaUnicast: []Locator{UDPv4(netip.MustParseAddrPort("127.0.0.1:7410"))}}
	m.Data(&Data{Writer: EntitySPDPWriter, SN: 1, InlineQoS: KeyHashList(p.GUID, 0), Payload: p.Marshal(nil)})
	e := EndpointData{GUID: GUID{testPrefix, 0x103}, Topic: "rt/x", Type: "T"}
	m.Data(&Data{Writer: EntitySEDPPubWriter, SN: 1, Payload: e.Marshal(nil)})
	m.Heartbeat(&Heartbeat{First: 1, Last: 2})
	m.AckNack(&AckNack{State: SeqSet{Base: 1, NumBits: 40}})
	m.Gap(&Gap{Start: 1, List: SeqSet{Base: 2}})
	m.DataFrag(&DataFrag{SN: 1, FragStart: 1, FragsInSub: 1, FragSize: 4, SampleSize: 8, Payload: []byte{0, 1, 0, 0}})
	m.NackFrag(&NackFrag{SN: 1, State: SeqSet{Base: 1, NumBits: 3}})
	m.HeartbeatFrag(&HeartbeatFrag{SN: 1, LastFrag: 1})
	f.Add(m.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		defer bounds.Slow(t)()
		_ = Parse(b, func(_ Header, s Submessage) error {
			switch s.ID {
			case SubData:
				d, err := DecodeData(s)
				if err != nil {
					return nil
				}
				if len(d.Payload) > len(b) {
					t.Fatalf("payload of %d bytes in %d", len(d.Payload), len(b))
				}
				d.InlineQoS.KeyHash()
				_, _ = DecodeParticipantData(d.Payload)
				_, _ = DecodeEndpointData(d.Payload, true, GUID{})
				_, _ = DecodeEndpointData(d.Payload, false, GUID{})
			case SubDataFrag:
				d, err := DecodeDataFrag(s)
				if err == nil && (len(d.Payload) > int(d.FragsInSub)*int(d.FragSize) || len(d.Payload) > len(b)) {
					t.Fatalf("DATA_FRAG of %d bytes: %+v", len(d.Payload), d)
				}
			case SubHeartbeat:
				_, _ = DecodeHeartbeat(s)
			case SubAckNack:
				_, _ = DecodeAckNack(s)
			case SubGap:
				_, _ = DecodeGap(s)
			case SubNackFrag:
				_, _ = DecodeNackFrag(s)
			case SubHeartbeatFrag:
				_, _ = DecodeHeartbeatFrag(s)
			case SubInfoTS:
				_, _ = DecodeInfoTS(s)
			case SubInfoDst:
				_, _ = DecodeInfoDst(s)
			case SubInfoSrc:
				_, _ = DecodeInfoSrc(s)
			}
			return nil
		})
	})
}

func TestRelatedSampleIdentity(t *testing.T) {
	g := GUID{testPrefix, 0x00000404}
	l := RelatedSampleIdentity(g, 0x100000007)
	// id 0x800f, length 24, GUID, high 1, low 7, then the sentinel
	want := append([]byte{0x0f, 0x80, 24, 0}, testPrefix[:]...)
	want = append(want, 0, 0, 4, 4, 1, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0)
	if !bytes.Equal(l.b, want) {
		t.Fatalf("% x\nwant\n% x", l.b, want)
	}
	if got, sn, ok := l.RelatedSampleIdentity(); !ok || got != g || sn != 0x100000007 {
		t.Fatalf("%v %d %v", got, sn, ok)
	}
	if _, _, ok := KeyHashList(g, 0).RelatedSampleIdentity(); ok {
		t.Fatal("found in a list without it")
	}
}
