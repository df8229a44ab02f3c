package rtps

import (
	"encoding/binary"
	"net/netip"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/bounds"
)

// datagrams packs datagrams as a fuzz input: each a 16-bit little-endian
// length then its bytes.
func datagrams(ds ...[]byte) []byte {
	var b []byte
	for _, d := range ds {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(d)))
		b = append(b, d...)
	}
	return b
}

// remoteScenario is a remote participant's conversation with a local
// writer and reader of rt/t: SPDP, SEDP for a writer and a reader, a
// heartbeat, data out of order, a gap, fragments, an acknack and a
// nack_frag for the local writer.
func remoteScenario() [][]byte {
	r := GuidPrefix{0xee, 1, 2, 3}
	loc := []Locator{UDPv4(netip.MustParseAddrPort("127.0.0.1:9"))}
	msg := func(add func(m *Builder)) []byte {
		var m Builder
		m.Reset(nil, r)
		m.InfoTS(Time{1, 0})
		add(&m)
		return append([]byte(nil), m.Bytes()...)
	}
	spdp := ParticipantData{GUID: GUID{r, EntityParticipant}, MetaUnicast: loc, DefaultUnicast: loc, BuiltinEndpoints: 0x3f, LeaseDuration: time.Second}
	pub := EndpointData{GUID: GUID{r, 0x103}, Topic: "rt/t", Type: "T", QoS: QoS{Reliable, TransientLocal, KeepLast, 5}}
	sub := EndpointData{GUID: GUID{r, 0x204}, Topic: "rt/t", Type: "T", QoS: QoS{Reliable, Volatile, KeepLast, 5}}
	big := make([]byte, 2500)
	big[1] = 1
	return [][]byte{
		msg(func(m *Builder) { m.Data(&Data{Writer: EntitySPDPWriter, SN: 1, Payload: spdp.Marshal(nil)}) }),
		msg(func(m *Builder) {
			m.Data(&Data{Reader: EntitySEDPPubReader, Writer: EntitySEDPPubWriter, SN: 1, Payload: pub.Marshal(nil)})
			m.Data(&Data{Reader: EntitySEDPSubReader, Writer: EntitySEDPSubWriter, SN: 1, Payload: sub.Marshal(nil)})
		}),
		msg(func(m *Builder) {
			m.Heartbeat(&Heartbeat{Writer: 0x103, First: 1, Last: 5, Count: 1})
			m.Data(&Data{Writer: 0x103, SN: 3, Payload: []byte{0, 1, 0, 0, 3}})
			m.Data(&Data{Writer: 0x103, SN: 1, Payload: []byte{0, 1, 0, 0, 1}})
			m.Gap(&Gap{Writer: 0x103, Start: 2, List: SeqSet{Base: 3}})
		}),
		msg(func(m *Builder) {
			m.DataFrag(&DataFrag{Writer: 0x103, SN: 4, FragStart: 1, FragsInSub: 2, FragSize: 1024, SampleSize: 2500, Payload: big[:2048]})
			m.DataFrag(&DataFrag{Writer: 0x103, SN: 4, FragStart: 3, FragsInSub: 1, FragSize: 1024, SampleSize: 2500, Payload: big[2048:]})
		}),
		msg(func(m *Builder) {
			a := AckNack{Reader: 0x204, Writer: 0x103, State: SeqSet{Base: 1}, Count: 1}
			a.State.Add(1)
			m.InfoDst(GuidPrefix{}) // any participant
			m.AckNack(&a)
			n := NackFrag{Reader: 0x204, Writer: 0x103, SN: 2, State: SeqSet{Base: 1}, Count: 1}
			n.State.Add(2)
			m.NackFrag(&n)
		}),
	}
}

// FuzzHandle feeds a participant (with a local writer and reader of rt/t,
// its sends dropped) sequences of datagrams, then lets its lease clock
// run: never a panic, at most a second of CPU per input, and its limits
// hold (remote participants and endpoints, samples held, reassembly
// memory).
func FuzzHandle(f *testing.F) {
	f.Add(datagrams(remoteScenario()...))
	f.Fuzz(func(t *testing.T, in []byte) {
		defer bounds.Slow(t)()
		p, err := newParticipant(Config{MaxParticipants: 4, MaxEndpoints: 8, MaxSampleSize: 8192, MaxReassembly: 16384})
		if err != nil {
			t.Fatal(err)
		}
		p.dropSend = func([]byte) bool { return true }
		q := QoS{Reliable, TransientLocal, KeepLast, 4}
		w, _ := p.NewWriter("rt/t", "T", q)
		p.NewReader("rt/t", "T", q, func(Sample) {})
		w.Write([]byte{0, 1, 0, 0, 1, 2, 3, 4})
		now := time.Unix(1000, 0)
		for len(in) >= 2 {
			n := int(binary.LittleEndian.Uint16(in))
			in = in[2:]
			if n > len(in) {
				n = len(in)
			}
			p.Handle(now, in[:n], netip.AddrPort{})
			in = in[n:]
			now = now.Add(10 * time.Millisecond)
		}
		p.tick(now)
		p.tick(now.Add(time.Hour)) // every lease expired
		if len(p.remotes) > 4 || len(p.remoteWriters)+len(p.remoteReaders) > 8 {
			t.Fatalf("%d participants, %d endpoints kept", len(p.remotes), len(p.remoteWriters)+len(p.remoteReaders))
		}
		if p.reassemblyBytes < 0 || p.reassemblyBytes > 16384 {
			t.Fatalf("reassembly memory %d", p.reassemblyBytes)
		}
		for _, r := range p.readers {
			for _, wp := range r.writers {
				if len(wp.pending) > maxPending || len(wp.frags) > maxReassembling {
					t.Fatalf("%d pending, %d in reassembly", len(wp.pending), len(wp.frags))
				}
			}
		}
	})
}

// TestScenario runs the fuzz seed as a test and checks what it should
// do: the remote writer matched to the local reader, samples 1, 3 and the
// fragmented 4 delivered in order (2 was a GAP).
func TestScenario(t *testing.T) {
	p, err := newParticipant(Config{})
	if err != nil {
		t.Fatal(err)
	}
	var sent int
	p.dropSend = func([]byte) bool { sent++; return true }
	q := QoS{Reliable, TransientLocal, KeepLast, 4}
	p.NewWriter("rt/t", "T", q)
	var got []SequenceNumber
	r, _ := p.NewReader("rt/t", "T", q, func(s Sample) { got = append(got, s.SN) })
	for _, d := range remoteScenario() {
		p.Handle(time.Now(), d, netip.AddrPort{})
	}
	if r.Matched() != 1 || len(got) != 3 || got[0] != 1 || got[1] != 3 || got[2] != 4 {
		t.Fatalf("matched %d, delivered %v", r.Matched(), got)
	}
	if s := p.Stats(); s.BadMessages != 0 || s.Participants != 1 || s.RemoteEndpoints != 2 {
		t.Fatalf("stats %+v", s)
	}
	if sent == 0 {
		t.Fatal("no answer sent (SPDP reply, ACKNACKs, resends)")
	}
}

// TestNackFragHighNumbers: a NACK_FRAG for fragment numbers near 2^32
// (negative as 32-bit ints, as on the roboRIO) resends nothing and does
// not panic.
func TestNackFragHighNumbers(t *testing.T) {
	p, err := newParticipant(Config{})
	if err != nil {
		t.Fatal(err)
	}
	var sent int
	p.dropSend = func([]byte) bool { sent++; return true }
	q := QoS{Reliable, Volatile, KeepLast, 4}
	w, _ := p.NewWriter("rt/t", "T", q)
	reader := GUID{GuidPrefix{9}, 0x104}
	p.mu.Lock()
	w.matchReader(reader, []netip.AddrPort{netip.MustParseAddrPort("127.0.0.1:9")}, q)
	p.mu.Unlock()
	w.Write(make([]byte, 3000))
	before := sent
	n := NackFrag{SN: 1, State: SeqSet{Base: 0xffffff00}}
	n.State.Add(0xffffff00)
	n.State.Add(0xffffff00 + 200)
	p.mu.Lock()
	w.onNackFrag(reader, &n)
	p.mu.Unlock()
	if sent != before {
		t.Errorf("%d datagrams sent for fragments past the sample", sent-before)
	}
}
