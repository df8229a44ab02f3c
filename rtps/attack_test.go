package rtps

// Attacks on a participant from the network, replayed through Handle with
// the participant's clock passed in: fake participants by the thousand,
// spoofed leaves, readers that never acknowledge, ACKNACK storms. Bytes
// sent are the participant's own count (Stats.SentBytes), never wall
// clock.

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"testing"
	"time"
)

// peer is a remote participant played by the test: it writes datagrams
// as if from its address.
type peer struct {
	prefix GuidPrefix
	from   netip.AddrPort
	sn     map[EntityID]SequenceNumber // next SEDP sequence numbers
	acks   int32
}

func newPeer(id int, from string) *peer {
	f := &peer{from: netip.MustParseAddrPort(from), sn: map[EntityID]SequenceNumber{}}
	f.prefix[0] = 0xfa
	binary.BigEndian.PutUint32(f.prefix[4:], uint32(id))
	return f
}

func (f *peer) msg(add func(m *Builder)) []byte {
	var m Builder
	m.Reset(nil, f.prefix)
	m.InfoTS(Time{1, 0})
	add(&m)
	return append([]byte(nil), m.Bytes()...)
}

// spdp is its announcement with lease (0: infinite).
func (f *peer) spdp(lease time.Duration) []byte {
	if lease == 0 {
		lease = 1 << 62
	}
	loc := []Locator{UDPv4(f.from)}
	d := ParticipantData{GUID: GUID{f.prefix, EntityParticipant}, MetaUnicast: loc, DefaultUnicast: loc,
		BuiltinEndpoints: 0x3f, LeaseDuration: lease}
	return f.msg(func(m *Builder) { m.Data(&Data{Writer: EntitySPDPWriter, SN: 1, Payload: d.Marshal(nil)}) })
}

// leave says that participant prefix is gone (its own words, when prefix
// is the peer's).
func (f *peer) leave(prefix GuidPrefix) []byte {
	gone := uint32(StatusDisposed | StatusUnregistered)
	return f.msg(func(m *Builder) {
		m.Data(&Data{Writer: EntitySPDPWriter, SN: 2, InlineQoS: KeyHashList(GUID{prefix, EntityParticipant}, gone)})
	})
}

// reader announces a reader of rt/t (entity n) on SEDP.
func (f *peer) reader(n int, q QoS) []byte {
	f.sn[EntitySEDPSubWriter]++
	e := EndpointData{GUID: GUID{f.prefix, EntityID(n<<8 | 0x04)}, Topic: "rt/t", Type: "T", QoS: q}
	return f.msg(func(m *Builder) {
		m.Data(&Data{Reader: EntitySEDPSubReader, Writer: EntitySEDPSubWriter, SN: f.sn[EntitySEDPSubWriter], Payload: e.Marshal(nil)})
	})
}

// ackNack acknowledges everything below base for its reader n and asks
// for the n numbers from base again.
func (f *peer) ackNack(reader int, writer EntityID, base SequenceNumber, n int) []byte {
	f.acks++
	a := AckNack{Reader: EntityID(reader<<8 | 0x04), Writer: writer, State: SeqSet{Base: base}, Count: f.acks}
	for i := 0; i < n; i++ {
		a.State.Add(base + SequenceNumber(i))
	}
	return f.msg(func(m *Builder) { m.AckNack(&a) })
}

// target is a participant under attack: a writer of rt/t, its datagrams
// counted by destination participant instead of sent.
type target struct {
	p    *Participant
	w    *Writer
	data map[GuidPrefix]int // DATA and DATA_FRAG submessages sent to each participant
}

var reliable10 = QoS{Reliability: Reliable, History: KeepLast, Depth: 10}

func newTarget(t *testing.T, cfg Config, q QoS) *target {
	t.Helper()
	cfg.Logf = func(string, ...any) {}
	p, err := newParticipant(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tg := &target{p: p, data: map[GuidPrefix]int{}}
	p.dropSend = func(b []byte) bool {
		var dst GuidPrefix
		_ = Parse(b, func(_ Header, s Submessage) error {
			switch s.ID {
			case SubInfoDst:
				dst, _ = DecodeInfoDst(s)
			case SubData, SubDataFrag:
				tg.data[dst]++
			}
			return nil
		})
		return true
	}
	if tg.w, err = p.NewWriter("rt/t", "T", q); err != nil {
		t.Fatal(err)
	}
	return tg
}

func (tg *target) handle(now time.Time, f *peer, b []byte) { tg.p.Handle(now, b, f.from) }

// join makes f a participant of tg with readers 1..n of rt/t.
func (tg *target) join(now time.Time, f *peer, n int, q QoS) {
	tg.handle(now, f, f.spdp(0))
	for i := 1; i <= n; i++ {
		tg.handle(now, f, f.reader(i, q))
	}
}

// ack has f's reader 1 acknowledge every sample so far, as a real
// reader does.
func (tg *target) ack(now time.Time, f *peer) {
	tg.handle(now, f, f.ackNack(1, tg.w.guid.Entity, tg.w.seq+1, 0))
}

func (tg *target) known(f *peer) bool {
	tg.p.mu.Lock()
	defer tg.p.mu.Unlock()
	return tg.p.remotes[f.prefix] != nil
}

// byAddr counts the remote participants from each address.
func (tg *target) byAddr() map[netip.Addr]int {
	tg.p.mu.Lock()
	defer tg.p.mu.Unlock()
	n := map[netip.Addr]int{}
	for _, r := range tg.p.remotes {
		n[r.from]++
	}
	return n
}

// TestFakeParticipantsDoNotLockOut: 10,000 one-off announcements with
// infinite leases, from one address and then from 10,000 addresses, while
// a real peer joins: the table holds at most MaxParticipants (half of them
// from one address), the real peer is admitted during and after the
// flood and matched, and is never evicted; the fakes, which take no part
// in endpoint discovery, are gone DiscoveryTimeout later, and a silent
// peer with an infinite lease goes after MaxLease.
func TestFakeParticipantsDoNotLockOut(t *testing.T) {
	tg := newTarget(t, Config{}, reliable10)
	now := time.Unix(1000, 0)
	flood := func(first int, from func(i int) string) {
		for i := first; i < first+10_000; i++ {
			f := newPeer(i, from(i))
			tg.handle(now, f, f.spdp(0))
			now = now.Add(100 * time.Microsecond)
		}
	}
	one := func(int) string { return "10.0.0.66:7410" }
	many := func(i int) string { return fmt.Sprintf("10.1.%d.%d:7410", i/250, i%250+1) }

	flood(0, one)
	if n := tg.byAddr()[netip.MustParseAddr("10.0.0.66")]; n > 32 {
		t.Fatalf("%d participants from the attacker's address, want at most 32", n)
	}
	before := tg.p.Stats()
	real1 := newPeer(1<<24, "10.0.0.2:7410")
	tg.join(now, real1, 1, reliable10)
	tg.ack(now, real1)
	if !tg.known(real1) || tg.w.Matched() != 1 {
		t.Fatalf("after 10,000 fakes from one address: real peer known %v, matched %d; stats %+v", tg.known(real1), tg.w.Matched(), before)
	}
	flood(10_000, many)
	s := tg.p.Stats()
	if s.Participants > 64 || !tg.known(real1) || tg.w.Matched() != 1 {
		t.Fatalf("after 10,000 fakes from 10,000 addresses: %d participants, real peer known %v, matched %d", s.Participants, tg.known(real1), tg.w.Matched())
	}
	real2 := newPeer(2<<24, "10.0.0.3:7410")
	tg.join(now, real2, 1, reliable10)
	tg.ack(now, real2)
	flood(20_000, many) // the same flood again while real2 is known
	if !tg.known(real2) || tg.w.Matched() != 2 {
		t.Fatalf("a peer joining a full table: known %v, matched %d", tg.known(real2), tg.w.Matched())
	}
	t.Logf("after 20,000 fakes: %d participants, %d evicted, %d ignored", s.Participants, s.Evicted, s.IgnoredPeers)

	// The fakes never took part in SEDP: gone after DiscoveryTimeout. The
	// real peers keep announcing.
	now = now.Add(21 * time.Second)
	tg.handle(now, real1, real1.spdp(0))
	tg.handle(now, real2, real2.spdp(0))
	tg.p.tick(now)
	if s := tg.p.Stats(); s.Participants != 2 || tg.w.Matched() != 2 {
		t.Fatalf("%d participants, %d matched after the discovery timeout, want the 2 real ones", s.Participants, tg.w.Matched())
	}
	// real2 falls silent: its infinite lease is capped at 60 s.
	for range 6 {
		now = now.Add(10 * time.Second)
		tg.handle(now, real1, real1.spdp(0))
		tg.p.tick(now)
	}
	now = now.Add(time.Second)
	tg.p.tick(now)
	if tg.known(real2) || !tg.known(real1) || tg.w.Matched() != 1 {
		t.Fatalf("61 s after its last announcement: silent peer known %v, announcing peer known %v", tg.known(real2), tg.known(real1))
	}
}

// TestLeaveOnlyFromItsAddress: a leave naming a participant, its GUID
// prefix in the header, from another address is ignored (and counted);
// from its own address it is honoured.
func TestLeaveOnlyFromItsAddress(t *testing.T) {
	tg := newTarget(t, Config{}, reliable10)
	now := time.Unix(1000, 0)
	real := newPeer(1, "10.0.0.2:7410")
	tg.join(now, real, 1, reliable10)
	spoofer := &peer{prefix: real.prefix, from: netip.MustParseAddrPort("10.0.0.66:7410")}
	tg.handle(now, spoofer, spoofer.leave(real.prefix))
	if !tg.known(real) || tg.w.Matched() != 1 || tg.p.Stats().SpoofedLeaves != 1 {
		t.Fatalf("spoofed leave: peer known %v, matched %d, stats %+v", tg.known(real), tg.w.Matched(), tg.p.Stats())
	}
	other := newPeer(2, "10.0.0.3:7410") // its own prefix, naming real's
	tg.handle(now, other, other.leave(real.prefix))
	if !tg.known(real) {
		t.Fatal("a leave naming another participant dropped it")
	}
	tg.handle(now, real, real.leave(real.prefix))
	if tg.known(real) || tg.w.Matched() != 0 {
		t.Fatalf("its own leave: still known %v, matched %d", tg.known(real), tg.w.Matched())
	}
}

// deafReaders runs 63 fake participants from 63 addresses with 16
// readers each that never acknowledge, and one real reader that
// acknowledges every 100 ms, while the writer writes a 1 kB sample every
// 10 ms for 10 s (a tick every 50 ms). It returns the bytes sent in the
// last 5 s, and the samples the real reader and the fakes got in them.
func deafReaders(t *testing.T, cfg Config) (bytes uint64, real, fakes int) {
	tg := newTarget(t, cfg, reliable10)
	now := time.Unix(1000, 0)
	var fs []*peer
	for i := range 63 {
		f := newPeer(i, fmt.Sprintf("10.1.0.%d:7410", i+1))
		tg.join(now, f, 16, reliable10)
		fs = append(fs, f)
	}
	r := newPeer(1<<24, "10.0.0.2:7410")
	tg.join(now, r, 1, reliable10)
	if tg.w.Matched() != 63*16+1 {
		t.Fatalf("%d readers matched", tg.w.Matched())
	}
	var mark uint64
	for ms := 0; ms < 10_000; ms += 10 {
		if ms == 5000 {
			mark = tg.p.Stats().SentBytes
			clear(tg.data)
		}
		at := now.Add(time.Duration(ms) * time.Millisecond)
		tg.w.Write(payload(ms, 1000))
		if ms%50 == 0 {
			tg.p.tick(at)
		}
		if ms%100 == 0 {
			tg.ack(at, r)
			for _, f := range fs { // the fakes keep their participants alive
				tg.handle(at, f, f.spdp(0))
			}
		}
	}
	for _, f := range fs {
		fakes += tg.data[f.prefix]
	}
	return tg.p.Stats().SentBytes - mark, tg.data[r.prefix], fakes
}

// TestDeafReadersDropped: 1,008 readers that never acknowledge get
// samples for MaxUnanswered heartbeats, then none, and a heartbeat every
// 5 s; a reader that acknowledges gets every sample throughout.
func TestDeafReadersDropped(t *testing.T) {
	bytes, real, fakes := deafReaders(t, Config{})
	t.Logf("last 5 s: %d bytes sent, %d samples to the real reader, %d to the fakes", bytes, real, fakes)
	if real != 500 || fakes != 0 {
		t.Fatalf("last 5 s: %d samples to the real reader (want 500), %d to the fakes (want 0)", real, fakes)
	}
	// 500 samples of ~1,100 bytes to the real reader, heartbeats to it,
	// and one heartbeat of ~80 bytes to each fake reader.
	if limit := uint64(500*1200 + 50*100 + 1008*100 + 200_000); bytes > limit {
		t.Fatalf("%d bytes sent in the last 5 s, want at most %d", bytes, limit)
	}
}

// TestEgressBudgetKeepsEarnedTraffic: with a 500 kB/s egress budget, the
// same attack sends at most the budget, and the acknowledging reader
// still gets every sample while the fakes are being heard out.
func TestEgressBudgetKeepsEarnedTraffic(t *testing.T) {
	const limit = 500_000
	bytes, real, _ := deafReaders(t, Config{EgressLimit: limit})
	if bytes > 5*limit {
		t.Fatalf("%d bytes in 5 s over a budget of %d/s", bytes, limit)
	}
	if real != 500 {
		t.Fatalf("%d samples of 500 to the real reader", real)
	}
}

// TestAckNackStorm: a matched reader asks for the writer's whole history
// (100 samples of 1 kB) 2,000 times a second for 5 s. Its repairs stay
// within its share of RepairLimit, everything sent within EgressLimit,
// and a real reader gets every new sample.
func TestAckNackStorm(t *testing.T) {
	const egress, repairs = 500_000, 200_000
	tg := newTarget(t, Config{EgressLimit: egress, RepairLimit: repairs}, QoS{Reliability: Reliable, History: KeepLast, Depth: 100})
	now := time.Unix(1000, 0)
	storm, r := newPeer(1, "10.0.0.66:7410"), newPeer(2, "10.0.0.2:7410")
	tg.join(now, storm, 1, reliable10)
	tg.join(now, r, 1, reliable10)
	for i := range 100 {
		tg.w.Write(payload(i, 1000))
	}
	tg.handle(now, r, r.ackNack(1, tg.w.guid.Entity, tg.w.seq+1, 0))
	mark := tg.p.Stats().SentBytes
	clear(tg.data)
	var in int
	for us := 0; us < 5_000_000; us += 500 {
		at := now.Add(time.Duration(us) * time.Microsecond)
		b := storm.ackNack(1, tg.w.guid.Entity, tg.w.seq-99, 100)
		in += len(b)
		tg.handle(at, storm, b)
		if us%10_000 == 0 {
			tg.w.Write(payload(us, 1000))
		}
		if us%50_000 == 0 {
			tg.p.tick(at)
			tg.handle(at, r, r.ackNack(1, tg.w.guid.Entity, tg.w.seq+1, 0))
		}
	}
	s := tg.p.Stats()
	sent := s.SentBytes - mark
	t.Logf("5 s of storm: %d bytes in, %d bytes out (x%.1f), %d samples to the storm, %d to the real reader; %d repairs refused",
		in, sent, float64(sent)/float64(in), tg.data[storm.prefix], tg.data[r.prefix], s.RepairsDropped)
	if sent > 5*egress+uint64(egressBurst(egress)) {
		t.Fatalf("%d bytes in 5 s over a budget of %d/s", sent, egress)
	}
	// its repairs: a quarter of RepairLimit a second, at most a burst
	// more, each of them more than the sample's 1000 bytes; plus the new
	// samples (500 of them)
	if got, limit := tg.data[storm.prefix], 500+(5*repairs/4+repairs/4)/1000; got > limit {
		t.Fatalf("the storm got %d samples, want at most %d", got, limit)
	}
	if tg.data[r.prefix] != 500 {
		t.Fatalf("%d samples of 500 to the real reader", tg.data[r.prefix])
	}
}

// TestNackFragStorm: a matched reader asks for every fragment of a
// 10 kB sample 2,000 times a second for 5 s: the fragments sent again
// stay within its share of RepairLimit (a quarter a second, and a burst).
func TestNackFragStorm(t *testing.T) {
	const repairs = 200_000
	tg := newTarget(t, Config{RepairLimit: repairs}, reliable10)
	now := time.Unix(1000, 0)
	storm := newPeer(1, "10.0.0.66:7410")
	tg.join(now, storm, 1, reliable10)
	tg.ack(now, storm)
	tg.w.Write(payload(1, 10*FragmentSize))
	clear(tg.data)
	var in int
	for us := 0; us < 5_000_000; us += 500 {
		n := NackFrag{Reader: 0x104, Writer: tg.w.guid.Entity, SN: tg.w.seq, State: SeqSet{Base: 1}, Count: int32(us/500 + 1)}
		for i := 1; i <= 10; i++ {
			n.State.Add(SequenceNumber(i))
		}
		b := storm.msg(func(m *Builder) { m.NackFrag(&n) })
		in += len(b)
		tg.handle(now.Add(time.Duration(us)*time.Microsecond), storm, b)
	}
	got := tg.data[storm.prefix]
	t.Logf("5 s of NACK_FRAG storm: %d bytes in, %d fragments (~%d bytes) sent again", in, got, got*(FragmentSize+100))
	if limit := (5*repairs/4 + repairs/4) / FragmentSize; got > limit || got == 0 {
		t.Fatalf("%d fragments sent again, want 1 to %d", got, limit)
	}
}

// TestSEDPOnlyFromItsAddress: an SEDP dispose of a peer's reader, its
// GUID prefix in the header, from another address is dropped before the
// reliable SEDP reader takes its sequence number (and counted): the
// reader stays matched, and the peer's own next announcement (the same
// sequence number) is still taken.
func TestSEDPOnlyFromItsAddress(t *testing.T) {
	tg := newTarget(t, Config{}, reliable10)
	now := time.Unix(1000, 0)
	real := newPeer(1, "10.0.0.2:7410")
	tg.join(now, real, 1, reliable10)
	tg.ack(now, real)
	spoofer := &peer{prefix: real.prefix, from: netip.MustParseAddrPort("10.0.0.66:7410"), sn: map[EntityID]SequenceNumber{EntitySEDPSubWriter: 1}}
	gone := uint32(StatusDisposed | StatusUnregistered)
	b := spoofer.msg(func(m *Builder) {
		m.Data(&Data{Reader: EntitySEDPSubReader, Writer: EntitySEDPSubWriter, SN: 2,
			InlineQoS: KeyHashList(GUID{real.prefix, EntityID(1<<8 | 0x04)}, gone)})
	})
	tg.handle(now, spoofer, b)
	if tg.w.Matched() != 1 || tg.p.Stats().SpoofedLeaves != 1 {
		t.Fatalf("SEDP dispose from 10.0.0.66: matched %d, stats %+v", tg.w.Matched(), tg.p.Stats())
	}
	tg.handle(now, real, real.reader(2, reliable10)) // SN 2, from the peer
	if tg.w.Matched() != 2 {
		t.Fatalf("the peer's own announcement after the forged one: matched %d, want 2", tg.w.Matched())
	}
}

// TestForgedAnnouncementGainsNoAddress: an SPDP announcement with a
// known participant's prefix from another address neither makes that
// address one of the participant's (its leave from there is ignored)
// nor keeps the participant's lease alive.
func TestForgedAnnouncementGainsNoAddress(t *testing.T) {
	tg := newTarget(t, Config{}, reliable10)
	now := time.Unix(1000, 0)
	real := newPeer(1, "10.0.0.2:7410")
	tg.handle(now, real, real.spdp(10*time.Second))
	tg.handle(now, real, real.reader(1, reliable10))
	tg.ack(now, real)
	spoofer := &peer{prefix: real.prefix, from: netip.MustParseAddrPort("10.0.0.66:7410"), sn: map[EntityID]SequenceNumber{}}
	tg.handle(now, spoofer, spoofer.spdp(0))
	tg.handle(now, spoofer, spoofer.leave(real.prefix))
	if !tg.known(real) || tg.w.Matched() != 1 || tg.p.Stats().SpoofedLeaves != 2 {
		t.Fatalf("forged SPDP then leave from 10.0.0.66: peer known %v, matched %d, stats %+v", tg.known(real), tg.w.Matched(), tg.p.Stats())
	}
	// The real peer falls silent; the forged announcements go on.
	for range 11 {
		now = now.Add(time.Second)
		tg.handle(now, spoofer, spoofer.spdp(0))
		tg.p.tick(now)
	}
	if tg.known(real) {
		t.Fatal("forged announcements kept a silent peer's 10 s lease alive for 11 s")
	}
}

// readerOn announces a reader of topic (entity n) on SEDP.
func (f *peer) readerOn(n int, topic string, q QoS) []byte {
	f.sn[EntitySEDPSubWriter]++
	e := EndpointData{GUID: GUID{f.prefix, EntityID(n<<8 | 0x04)}, Topic: topic, Type: "T", QoS: q}
	return f.msg(func(m *Builder) {
		m.Data(&Data{Reader: EntitySEDPSubReader, Writer: EntitySEDPSubWriter, SN: f.sn[EntitySEDPSubWriter], Payload: e.Marshal(nil)})
	})
}

var bestEffort1 = QoS{Reliability: BestEffort, History: KeepLast, Depth: 1}

// TestMatchedBestEffortPeerKept: a matched best-effort subscriber (it
// never acknowledges, so it never proves itself) stays while 200 fake
// participants from 200 addresses take part in SEDP: at the total bound
// a newcomer takes the newest unproven place, not the oldest.
func TestMatchedBestEffortPeerKept(t *testing.T) {
	tg := newTarget(t, Config{}, reliable10)
	now := time.Unix(1000, 0)
	real := newPeer(1, "10.0.0.2:7410")
	tg.join(now, real, 1, bestEffort1)
	if tg.w.Matched() != 1 {
		t.Fatalf("matched %d", tg.w.Matched())
	}
	for i := 0; i < 200; i++ {
		now = now.Add(10 * time.Millisecond)
		f := newPeer(1000+i, netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 2, byte(i >> 8), byte(i)}), 7410).String())
		tg.join(now, f, 1, bestEffort1)
		tg.w.Write([]byte("x"))
	}
	if s := tg.p.Stats(); !tg.known(real) || s.Participants != 64 || s.Evicted == 0 {
		t.Fatalf("the matched best-effort subscriber known %v; stats %+v", tg.known(real), s)
	}
}

// TestBusiestAddressEndpointsKept: a real host with 60 endpoints (one a
// matched best-effort subscriber) and 20 fake participants from 20
// addresses with 55 endpoints each: at the total bound each newcomer
// takes a place of its own address, never the real host's (SEDP is
// reliable: an endpoint evicted would not be announced again).
func TestBusiestAddressEndpointsKept(t *testing.T) {
	tg := newTarget(t, Config{}, reliable10)
	now := time.Unix(1000, 0)
	real := newPeer(1, "10.0.0.2:7410")
	tg.handle(now, real, real.spdp(0))
	tg.handle(now, real, real.readerOn(1, "rt/t", bestEffort1))
	for i := 2; i <= 60; i++ {
		tg.handle(now, real, real.readerOn(i, "rt/other", reliable10))
	}
	for k := 0; k < 20; k++ {
		now = now.Add(100 * time.Millisecond)
		f := newPeer(1000+k, netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 3, 0, byte(k + 1)}), 7410).String())
		tg.handle(now, f, f.spdp(0))
		for i := 1; i <= 55; i++ {
			tg.handle(now, f, f.readerOn(i, "rt/x", reliable10))
		}
	}
	if s := tg.p.Stats(); tg.w.Matched() != 1 || s.RemoteEndpoints != 1024 {
		t.Fatalf("the real best-effort subscriber: matched %d, stats %+v", tg.w.Matched(), s)
	}
	if n := tg.endpointsOf(real.prefix); n != 60 {
		t.Fatalf("the real host kept %d of its 60 endpoints", n)
	}
}

// TestMatchedEndpointProvenInTime: a matched endpoint known for
// DiscoveryTimeout is kept like one that acknowledged: more endpoints
// from its own address (another participant there) take the places of
// the unmatched ones.
func TestMatchedEndpointProvenInTime(t *testing.T) {
	tg := newTarget(t, Config{MaxEndpointsPerAddr: 8}, reliable10)
	now := time.Unix(1000, 0)
	real := newPeer(1, "10.0.0.2:7410")
	tg.join(now, real, 1, bestEffort1)
	for i := 2; i <= 8; i++ {
		tg.handle(now, real, real.readerOn(i, "rt/other", reliable10))
	}
	now = now.Add(21 * time.Second)
	tg.handle(now, real, real.spdp(0))
	tg.p.tick(now)
	other := newPeer(2, "10.0.0.2:7411")
	tg.handle(now, other, other.spdp(0))
	for i := 1; i <= 16; i++ {
		tg.handle(now, other, other.readerOn(i, "rt/x", reliable10))
	}
	if tg.w.Matched() != 1 || !tg.known(real) {
		t.Fatalf("the matched subscriber known 21 s was evicted: matched %d, stats %+v", tg.w.Matched(), tg.p.Stats())
	}
}

// endpointsOf counts the remote endpoints of participant prefix.
func (tg *target) endpointsOf(prefix GuidPrefix) int {
	tg.p.mu.Lock()
	defer tg.p.mu.Unlock()
	n := 0
	for g := range tg.p.remoteReaders {
		if g.Prefix == prefix {
			n++
		}
	}
	for g := range tg.p.remoteWriters {
		if g.Prefix == prefix {
			n++
		}
	}
	return n
}

// TestDeafReaderBackAfterDropout: a real reader (it answers the
// heartbeats it gets) whose link drops for 2.5 s, as an FRC radio
// reconnecting, goes deaf, and gets samples again within a probe period
// (1 s) of its link coming back; the peer's SEDP reader, which has
// acknowledged before but not everything, never goes deaf.
func TestDeafReaderBackAfterDropout(t *testing.T) {
	tg := newTarget(t, Config{}, reliable10)
	now := time.Unix(1000, 0)
	r := newPeer(2, "10.0.0.2:7410")
	tg.join(now, r, 1, reliable10)
	sedpAck := r.msg(func(m *Builder) { // everything but the last publication; every subscription
		m.AckNack(&AckNack{Reader: EntitySEDPPubReader, Writer: EntitySEDPPubWriter, State: SeqSet{Base: tg.p.sedpPub.seq}, Count: 1})
		m.AckNack(&AckNack{Reader: EntitySEDPSubReader, Writer: EntitySEDPSubWriter, State: SeqSet{Base: tg.p.sedpSub.seq + 1}, Count: 1})
	})
	tg.handle(now, r, sedpAck)
	hbs := 0
	inner := tg.p.dropSend
	tg.p.dropSend = func(b []byte) bool {
		var dst GuidPrefix
		_ = Parse(b, func(_ Header, s Submessage) error {
			switch s.ID {
			case SubInfoDst:
				dst, _ = DecodeInfoDst(s)
			case SubHeartbeat:
				if hb, err := DecodeHeartbeat(s); err == nil && dst == r.prefix && hb.Writer == tg.w.guid.Entity {
					hbs++
				}
			}
			return nil
		})
		return inner(b)
	}
	first, deafAt := -1, -1
	for ms := 0; ms < 8_000; ms += 10 {
		at := now.Add(time.Duration(ms) * time.Millisecond)
		before := tg.data[r.prefix]
		tg.w.Write(payload(ms, 100))
		if ms%100 == 0 {
			tg.p.tick(at)
		}
		if down := ms >= 1000 && ms < 3500; !down && hbs > 0 {
			tg.ack(at, r) // it answers the heartbeats it gets
		}
		hbs = 0
		if deafAt < 0 && tg.p.Stats().DeafReaders > 0 {
			deafAt = ms
		}
		if ms >= 3500 && first < 0 && tg.data[r.prefix] > before {
			first = ms
		}
	}
	t.Logf("deaf at %d ms, link back at 3500 ms, first sample at %d ms", deafAt, first)
	if deafAt < 0 || first < 0 || first > 3500+1000+100 {
		t.Fatalf("deaf at %d ms; first sample after the link came back at %d ms, want by 4600 ms", deafAt, first)
	}
	if d := tg.p.Stats().DeafReaders; d != 1 {
		t.Fatalf("%d readers deaf, want 1 (the user reader, not the SEDP reader)", d)
	}
}

// TestRefusedHeartbeatsNotCounted: heartbeats the send budget refuses
// are not the reader's silence: it does not go deaf.
func TestRefusedHeartbeatsNotCounted(t *testing.T) {
	tg := newTarget(t, Config{}, reliable10)
	now := time.Unix(1000, 0)
	r := newPeer(2, "10.0.0.2:7410")
	tg.join(now, r, 1, reliable10)
	tg.w.Write(payload(0, 100))
	tg.p.mu.Lock()
	tg.p.egress = newBucket(1, 1) // nothing fits
	tg.p.mu.Unlock()
	for i := range 40 {
		tg.p.tick(now.Add(time.Duration(i) * 100 * time.Millisecond))
	}
	if s := tg.p.Stats(); s.DeafReaders != 0 || s.SendDropped < 40 {
		t.Fatalf("40 heartbeat periods, every heartbeat refused: stats %+v", s)
	}
}

// TestRepairShareKeptWhenRefused: a reader's repair share is not spent
// on repairs the participant's repair budget, or the egress budget,
// refused: once they have room, the reader's whole share is there.
func TestRepairShareKeptWhenRefused(t *testing.T) {
	tg := newTarget(t, Config{RepairLimit: 4000}, reliable10)
	now := time.Unix(1000, 0)
	real := newPeer(2, "10.0.0.2:7410")
	tg.join(now, real, 1, reliable10)
	p := tg.p
	p.mu.Lock()
	defer p.mu.Unlock()
	r := tg.w.readers[GUID{real.prefix, EntityID(1<<8 | 0x04)}]
	to := r.addrs
	p.repairs = newBucket(1, 1) // refuses everything
	for range 4 {
		if p.admitSend(400, to, repair, r) {
			t.Fatal("a repair over the participant's repair budget went out")
		}
	}
	p.repairs = newBucket(1e9, 1e9)
	p.egress = newBucket(1, 1)
	for range 4 {
		if p.admitSend(400, to, repair, r) {
			t.Fatal("a repair over the egress budget went out")
		}
	}
	p.egress = newBucket(1e9, 1e9)
	if !p.admitSend(900, to, repair, r) { // the reader's share: 1000 bytes
		t.Fatalf("the reader's repair share was spent on refused repairs: %+v", r.repair)
	}
}

// TestAdmitRateNotReset: an address that used its burst of admissions
// stays limited while newcomers from more addresses than the rate table
// holds come and go: the table forgets the least recently used address,
// not every one.
func TestAdmitRateNotReset(t *testing.T) {
	tg := newTarget(t, Config{MaxParticipants: 4}, reliable10) // 2 an address, a table of 16 addresses
	now := time.Unix(1000, 0)
	main := netip.MustParseAddrPort("10.0.0.66:7410")
	admitted := 0
	for i := 0; i < 60; i++ {
		f := newPeer(10_000+i, fmt.Sprintf("10.4.0.%d:7410", i+1))
		tg.handle(now, f, f.spdp(0))
		m := newPeer(20_000+i, main.String())
		tg.handle(now, m, m.spdp(0))
		if tg.known(m) {
			admitted++
		}
	}
	if admitted != 2 {
		t.Fatalf("%d newcomers from one address admitted at one instant, want its burst of 2", admitted)
	}
}

// TestTrafficKeepsLease: a peer whose SPDP announcements stop (lost: a
// Cyclone peer announces every lease less 2 s, so one loss at 20 % is
// enough) but whose reader goes on acknowledging from its own address
// stays known past its 10 s lease, as Cyclone keeps a proxy participant
// alive on its traffic; the same ACKNACKs from another address keep
// nothing, and once the peer falls silent its lease ends.
func TestTrafficKeepsLease(t *testing.T) {
	tg := newTarget(t, Config{}, reliable10)
	now := time.Unix(1000, 0)
	real := newPeer(1, "10.0.0.2:7410")
	tg.handle(now, real, real.spdp(10*time.Second))
	tg.handle(now, real, real.reader(1, reliable10))
	tg.ack(now, real)
	for range 15 {
		now = now.Add(time.Second)
		tg.w.Write(payload(1, 8))
		tg.handle(now, real, real.ackNack(1, tg.w.guid.Entity, tg.w.seq+1, 0))
		tg.p.tick(now)
	}
	if !tg.known(real) || tg.w.Matched() != 1 {
		t.Fatalf("a peer acknowledging every second for 15 s without SPDP: known %v, matched %d", tg.known(real), tg.w.Matched())
	}
	spoofer := &peer{prefix: real.prefix, from: netip.MustParseAddrPort("10.0.0.66:7410"), sn: map[EntityID]SequenceNumber{}}
	for range 11 {
		now = now.Add(time.Second)
		tg.handle(now, spoofer, spoofer.ackNack(1, tg.w.guid.Entity, tg.w.seq+1, 0))
		tg.p.tick(now)
	}
	if tg.known(real) {
		t.Fatal("ACKNACKs from another address kept a silent peer's 10 s lease alive for 11 s")
	}
	// A reader that only asks for repairs (an ACKNACK storm from its own
	// address) keeps nothing: it is gone when its lease runs out.
	storm := newPeer(2, "10.0.0.3:7410")
	tg.handle(now, storm, storm.spdp(10*time.Second))
	tg.handle(now, storm, storm.reader(1, reliable10))
	for range 11 {
		now = now.Add(time.Second)
		tg.w.Write(payload(1, 8))
		for range 50 {
			tg.handle(now, storm, storm.ackNack(1, tg.w.guid.Entity, 1, 5))
		}
		tg.p.tick(now)
	}
	if tg.known(storm) {
		t.Fatal("a reader NACKing for 11 s without SPDP kept its 10 s lease")
	}
}
