package rtps

import (
	"cmp"
	"context"
	"net/netip"
	"slices"
	"time"
)

// FragmentSize is the size of the fragments of a sample too large for one
// DATA (a datagram stays under a typical 1500-byte MTU).
const FragmentSize = 1024

// change is one sample in a writer's history.
type change struct {
	sn      SequenceNumber
	payload []byte
	inline  ParamList // the inline QoS sent with it, if any
	// sentAt is the writer's newest sequence number when the change was
	// last sent (first, or again): the writer's own clock for "a few
	// samples ago" (resendLagging).
	sentAt SequenceNumber
}

// readerProxy is a matched remote reader (§8.4.7.5 ReaderProxy).
type readerProxy struct {
	guid     GUID
	addrs    []netip.AddrPort
	reliable bool
	// base: numbers below it are not for this reader (a volatile reader
	// gets only what was written after it matched).
	base SequenceNumber
	// acked: every number below it is acknowledged.
	acked    SequenceNumber
	ackCount int32
	heard    bool // an ACKNACK came from it
	// unanswered counts the periodic heartbeats sent (a heartbeat the
	// send budget refused is not the reader's fault) since its last
	// ACKNACK; past Config.MaxUnanswered it is deaf: no samples, a probe
	// (a heartbeat) every deafProbeEvery periods from deafAt, until an
	// ACKNACK.
	unanswered int
	deaf       bool
	deafAt     int    // the heartbeat period it became deaf in
	repair     bucket // its share of Config.RepairLimit
	// repairedLo and repairedHi bound the numbers resent in answer to its
	// last NACK (zero: none outstanding): resendLagging sends the first
	// of them it still lacks again.
	repairedLo, repairedHi SequenceNumber
	// heardAt is the writer's newest number when its last ACKNACK came,
	// gap8 eight times the average number of samples written between
	// two of its ACKNACKs (a moving average, weight 1/8): how long it is
	// usually silent (resendLagging).
	heardAt SequenceNumber
	gap8    int64
	// hbAt is when the last heartbeat piggy-backed on a sample went to it
	// (wantsHeartbeat).
	hbAt time.Time
}

// deafProbeEvery is how many heartbeat periods apart a deaf reader that
// has acknowledged before gets a heartbeat (1 s at the default period):
// the way back for a real reader whose link dropped (an FRC radio
// reconnecting takes seconds). Its probe is earned traffic (about 60
// bytes a second). A reader never heard from, which no real peer's
// reader stays for long, is probed every deafNeverHeardEvery periods (5 s)
// as unearned traffic.
const (
	deafProbeEvery      = 10
	deafNeverHeardEvery = 50
)

// class is what sending to the reader is (budget.go): earned once it
// acknowledges, and while it answers.
func (r *readerProxy) class() sendClass {
	if r.reliable && r.heard && r.unanswered < 2 {
		return earned
	}
	return unearned
}

// Writer is a local DataWriter: a stateful RTPS writer (§8.4.9) holding
// its history for reliable readers.
type Writer struct {
	p       *Participant
	guid    GUID
	topic   string
	typ     string
	qos     QoS
	builtin bool // an SEDP writer: each change carries its key hash
	seq     SequenceNumber
	history []change
	limit   int // changes kept (KeepLast depth, or the KeepAll bound)
	readers map[GUID]*readerProxy
	hbCount int32
}

// GUID is the writer's GUID.
func (w *Writer) GUID() GUID { return w.guid }

// Matched is the number of remote readers matched to the writer.
func (w *Writer) Matched() int {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	return len(w.readers)
}

// WaitMatched waits until at least n remote readers are matched, or ctx
// ends.
func (w *Writer) WaitMatched(ctx context.Context, n int) error {
	return w.p.waitFor(ctx, func() bool { return len(w.readers) >= n })
}

// MatchedPrefix says whether a remote reader of the participant prefix
// (a service client's reply reader, beside its request writer) is matched.
func (w *Writer) MatchedPrefix(prefix GuidPrefix) bool {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	return w.matchedPrefix(prefix)
}

func (w *Writer) matchedPrefix(prefix GuidPrefix) bool {
	for g := range w.readers {
		if g.Prefix == prefix {
			return true
		}
	}
	return false
}

// WaitMatchedPrefix waits until a remote reader of the participant prefix
// is matched, or ctx ends.
func (w *Writer) WaitMatchedPrefix(ctx context.Context, prefix GuidPrefix) error {
	return w.p.waitFor(ctx, func() bool { return w.matchedPrefix(prefix) })
}

// Write publishes one sample: payload is a serialized payload with its
// encapsulation header (package cdr). It is copied.
func (w *Writer) Write(payload []byte) error { return w.WriteInline(payload, ParamList{}) }

// WriteInline is Write with inline QoS sent beside the sample (made by
// ParamWriter; copied).
func (w *Writer) WriteInline(payload []byte, inline ParamList) error {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	if w.p.closed {
		return ErrClosed
	}
	var reuse []byte
	if len(w.history) >= w.limit {
		reuse = w.history[0].payload[:0] // the oldest change leaves the history in add
	}
	if inline.b != nil {
		inline.b = append([]byte(nil), inline.b...)
	}
	w.add(padPayload(reuse, payload), inline)
	return nil
}

// padPayload copies a serialized payload, padded to a multiple of 4 with
// the padding's length in the options' two low bits (DDSI-RTPS 2.5
// §10.2; Cyclone DDS does the same): a DATA's length counts whole words,
// and this is how a reader tells the padding from the data.
// The copy goes into dst's storage when it is large enough.
func padPayload(dst, payload []byte) []byte {
	pad := (4 - len(payload)%4) % 4
	b := append(dst[:0], payload...)
	if pad > 0 && len(b) >= 4 {
		b = append(b, 0, 0, 0)[:len(payload)+pad]
		b[3] = b[3]&^3 | byte(pad)
	}
	return b
}

// unpadPayload undoes padPayload: the options' padding bits cleared and
// that many bytes cut (when the payload has them).
func unpadPayload(b []byte) []byte {
	if len(b) < 4 || b[0] != 0 || b[1] > 3 { // only the XCDR1 encapsulations
		return b
	}
	pad := int(b[3] & 3)
	if pad > 0 && len(b) >= 4+pad {
		b[3] &^= 3
		b = b[:len(b)-pad]
	}
	return b
}

// add appends a change to the history and sends it to every matched
// reader. The caller holds p.mu.
func (w *Writer) add(payload []byte, inline ParamList) {
	w.seq++
	c := change{sn: w.seq, payload: payload, inline: inline, sentAt: w.seq}
	w.history = append(w.history, c)
	if len(w.history) > w.limit {
		// drop the oldest; reliable readers that still want it get a GAP
		w.history = slices.Delete(w.history, 0, len(w.history)-w.limit)
	}
	for _, r := range w.readers {
		if !r.deaf {
			w.sendChange(r, &c, r.reliable && w.wantsHeartbeat(r))
			if r.reliable {
				w.resendLagging(r)
			}
		}
	}
}

// hbPiggybackAfter is the longest a reliable reader goes between
// heartbeats piggy-backed on samples (wantsHeartbeat): Cyclone DDS's
// heartbeat interval (0.10.2 defconfig.c const_hb_intv_sched, 100 ms).
const hbPiggybackAfter = 100 * time.Millisecond

// wantsHeartbeat says whether the sample being sent to reliable reader r
// carries a heartbeat: when r has not acknowledged a third of the
// history's depth of samples (this one included), or none went to it for
// hbPiggybackAfter. Each heartbeat asks the reader for an ACKNACK (a
// datagram each way, and a wake-up of both); one on every sample made
// that traffic as large as the samples' (issue 38: frcd's ROS 2 share of
// CPU 1.8x a Cyclone DDS publisher's), where Cyclone's writer piggy-backs
// one at its heartbeat interval (ddsi writer_hbcontrol_piggyback). A
// third of the depth leaves a lost sample's NACK and two repairs time
// within the history (TestReliableUnderLossLikeCyclone at 20 % loss:
// 3.9-4.9 % missed against Cyclone's writer's 6.4-8.5 %; at half the
// depth 5.1-6.3 % against 6.7-9.7 %, too close). At 100 Hz to a Cyclone
// subscriber (ros2bench -serve, process CPU ticks per 8 s, interleaved
// runs on a loaded machine, the daemon without ROS 7-10, Cyclone's pub
// 4-9): a heartbeat on every sample 19-25, every second sample 15-25,
// every fifth 16-19.
func (w *Writer) wantsHeartbeat(r *readerProxy) bool {
	unacked := w.seq - max(r.acked, r.base) + 1
	if int(unacked) < max(1, w.limit/3) && w.p.now.Sub(r.hbAt) < hbPiggybackAfter {
		return false
	}
	r.hbAt = w.p.now
	return true
}

// lagAfter is how many samples after a repair was sent a reliable reader
// that still lacks it gets it again (resendLagging): three, so that a
// repair still in flight, or whose acknowledgment is, is not sent twice.
const lagAfter = 3

// resendLagging sends reliable reader r the first change it lacks again
// when the repair or the sample went lagAfter or more samples ago, is
// still in the history, and either r NACKed it or r has been silent for
// more than twice its usual interval between ACKNACKs (and lagAfter). It
// is the writer's answer to a reader that stays silent about a hole:
// Cyclone DDS 0.10.2's reader, having NACKed a number (its NACK may be
// lost too), neither NACKs it again nor acknowledges anything for
// NackDelay (100 ms) unless the heartbeat came "directed" from a Cyclone
// writer (ddsi_acknack.c get_AckNack_info: AANR_SUPPRESSED_NACK,
// rescheduled to t_last_nack + nack_delay). At 100 Hz in rmw's
// keep-last-10 history the change has left by then, and the samples held
// behind the hole reach the reader in one burst that overflows its own
// keep-last-10 history: at 20 % loss each lost repair cost the reader
// several samples. Resent here, a lost repair is repaired again within
// a few samples. It sends at most one change per write per reader,
// within r's repair budget; a reader that keeps up costs a comparison.
func (w *Writer) resendLagging(r *readerProxy) {
	k := max(r.acked, r.base)
	if r.repairedHi != 0 && k > r.repairedHi {
		r.repairedLo, r.repairedHi = 0, 0 // all repaired
	}
	if !r.heard || k+lagAfter > w.seq {
		return
	}
	nacked := r.repairedHi != 0 && k >= r.repairedLo
	silent := int64(w.seq-r.heardAt) > max(lagAfter, 2*r.gap8/8)
	if !nacked && !silent {
		return
	}
	c := w.find(k)
	if c == nil || w.seq-c.sentAt < lagAfter {
		return
	}
	c.sentAt = w.seq
	w.p.repairFor = r
	w.sendChange(r, c, false)
	w.p.repairFor = nil
}

// matchReader adds or updates a remote reader. The caller holds p.mu.
func (w *Writer) matchReader(guid GUID, addrs []netip.AddrPort, q QoS) {
	if r, ok := w.readers[guid]; ok {
		r.addrs = addrs
		return
	}
	r := &readerProxy{guid: guid, addrs: addrs, reliable: q.Reliability == Reliable, base: w.seq + 1, acked: 1,
		repair: newBucket(float64(w.p.cfg.RepairLimit)/4, float64(w.p.cfg.RepairLimit)/4)}
	if w.qos.Durability >= TransientLocal && q.Durability >= TransientLocal {
		r.base = 1 // a late-joining durable reader gets the history
	}
	w.readers[guid] = r
	w.p.notify()
	if !r.reliable {
		return
	}
	if r.base <= w.seq {
		for i := range w.history {
			w.sendChange(r, &w.history[i], false)
		}
	}
	w.sendHeartbeat(r, false)
}

// sendChange sends one change to one reader, then a heartbeat when hb
// (a reliable reader answers with an ACKNACK). It says whether the
// budgets let it all go (budget.go); it stops at the first refusal.
func (w *Writer) sendChange(r *readerProxy, c *change, hb bool) bool {
	p := w.p
	if len(c.payload) <= FragmentSize {
		m := p.startMessage(r.guid.Prefix)
		m.Data(&Data{Reader: r.guid.Entity, Writer: w.guid.Entity, SN: c.sn, InlineQoS: c.inline, Payload: c.payload})
		if hb {
			w.heartbeat(m, r, false)
		}
		return w.send(m, r)
	}
	n := (len(c.payload) + FragmentSize - 1) / FragmentSize
	for i := 0; i < n; i++ {
		if !w.sendFragment(r, c, i) {
			return false
		}
	}
	if hb {
		return w.sendHeartbeat(r, false)
	}
	return true
}

// sendFragment sends fragment i (from 0) of a change.
func (w *Writer) sendFragment(r *readerProxy, c *change, i int) bool {
	m := w.p.startMessage(r.guid.Prefix)
	frag := c.payload[i*FragmentSize : min(len(c.payload), (i+1)*FragmentSize)]
	f := DataFrag{Reader: r.guid.Entity, Writer: w.guid.Entity, SN: c.sn, FragStart: uint32(i + 1), FragsInSub: 1,
		FragSize: FragmentSize, SampleSize: uint32(len(c.payload)), Payload: frag}
	if i == 0 {
		f.InlineQoS = c.inline
	}
	m.DataFrag(&f)
	return w.send(m, r)
}

// send sends m to reader r: a repair while the writer answers r's
// ACKNACK or NACK_FRAG (p.repairFor), else as r has earned.
func (w *Writer) send(m *Builder, r *readerProxy) bool {
	if w.p.repairFor == r {
		return w.p.sendAs(m, r.addrs, repair, r)
	}
	return w.p.sendAs(m, r.addrs, r.class(), r)
}

// heartbeat appends a HEARTBEAT for r to m.
func (w *Writer) heartbeat(m *Builder, r *readerProxy, final bool) {
	w.hbCount++
	first := w.seq + 1
	if len(w.history) > 0 {
		first = w.history[0].sn
	}
	m.Heartbeat(&Heartbeat{Reader: r.guid.Entity, Writer: w.guid.Entity, First: first, Last: w.seq, Count: w.hbCount, Final: final})
}

func (w *Writer) sendHeartbeat(r *readerProxy, final bool) bool {
	m := w.p.startMessage(r.guid.Prefix)
	w.heartbeat(m, r, final)
	return w.send(m, r)
}

// tick sends a heartbeat to every reliable reader that has not
// acknowledged everything (§8.4.7.2: periodic heartbeats); a reader that
// leaves MaxUnanswered of them unanswered becomes deaf (readerProxy),
// except a peer's SEDP reader that has acknowledged before (its
// discovery must survive a dropout; a participant has two).
func (w *Writer) tick(beat int) {
	for _, r := range w.readers {
		if !r.reliable || r.acked > w.seq && r.heard {
			continue
		}
		if r.deaf {
			w.probe(r, beat)
			continue
		}
		if !w.sendHeartbeat(r, false) {
			continue // refused by the send budget: not the reader's silence
		}
		if r.unanswered++; r.unanswered >= w.p.cfg.MaxUnanswered && !(w.builtin && r.heard) {
			r.deaf, r.deafAt = true, beat
			w.p.stats.deaf.Add(1)
			w.p.cfg.Logf("rtps: %q: reader %v answered none of %d heartbeats: no more samples until it does", w.topic, r.guid, r.unanswered)
		}
	}
}

// probe sends deaf reader r a heartbeat when one is due in period beat
// (deafProbeEvery): earned once it has acknowledged, so that earned
// traffic filling the budget cannot keep it deaf.
func (w *Writer) probe(r *readerProxy, beat int) {
	every, class := deafNeverHeardEvery, unearned
	if r.heard {
		every, class = deafProbeEvery, earned
	}
	if (beat-r.deafAt)%every != 0 {
		return
	}
	m := w.p.startMessage(r.guid.Prefix)
	w.heartbeat(m, r, false)
	w.p.sendAs(m, r.addrs, class, r)
}

// onAckNack takes a reader's ACKNACK: what it acknowledges, and what it
// asks again: resent if still in the history, else a GAP.
func (w *Writer) onAckNack(reader GUID, a *AckNack) {
	r, ok := w.readers[reader]
	if !ok || !r.reliable {
		return
	}
	if r.heard && a.Count <= r.ackCount {
		return // a duplicate or an old one (§8.4.15.7)
	}
	if r.heard {
		r.gap8 += int64(w.seq-r.heardAt) - r.gap8/8
	} else {
		r.gap8 = 8 * lagAfter
	}
	r.heard, r.ackCount, r.unanswered, r.deaf, r.heardAt = true, a.Count, 0, false, w.seq
	w.p.repairFor = r
	defer func() { w.p.repairFor = nil }()
	if a.State.Base > r.acked {
		r.acked = min(a.State.Base, w.seq+1)
	}
	var gapFrom SequenceNumber // start of the run of irrelevant numbers, or 0
	flushGap := func(end SequenceNumber) bool {
		if gapFrom == 0 {
			return true
		}
		m := w.p.startMessage(r.guid.Prefix)
		m.Gap(&Gap{Reader: r.guid.Entity, Writer: w.guid.Entity, Start: gapFrom, List: SeqSet{Base: end}})
		gapFrom = 0
		return w.send(m, r)
	}
	resent := false
	for i := uint32(0); i < a.State.NumBits; i++ {
		sn := a.State.Base + SequenceNumber(i)
		if !a.State.Has(sn) || sn > w.seq {
			if !flushGap(sn) {
				return // over the repair budget: the rest waits for its next ACKNACK
			}
			continue
		}
		c := w.find(sn)
		if sn < r.base || c == nil {
			if gapFrom == 0 {
				gapFrom = sn
			}
			continue
		}
		if !flushGap(sn) || !w.sendChange(r, c, false) {
			return
		}
		if !resent {
			r.repairedLo = sn
		}
		c.sentAt, r.repairedHi, resent = w.seq, sn, true
	}
	if !flushGap(a.State.Base + SequenceNumber(a.State.NumBits)) {
		return
	}
	if resent || (a.State.NumBits > 0 && !a.Final) {
		w.sendHeartbeat(r, false)
	}
}

// onNackFrag resends the fragments a NACK_FRAG asks for.
func (w *Writer) onNackFrag(reader GUID, n *NackFrag) {
	r, ok := w.readers[reader]
	if !ok || !r.reliable || n.SN < r.base {
		return
	}
	c := w.find(n.SN)
	if c == nil {
		return
	}
	w.p.repairFor = r
	defer func() { w.p.repairFor = nil }()
	for i := uint32(0); i < n.State.NumBits; i++ {
		k := int64(n.State.Base) - 1 + int64(i) // in int64: fragment numbers are 32-bit unsigned, int may be 32-bit
		if n.State.Has(n.State.Base+SequenceNumber(i)) && k >= 0 && k*FragmentSize < int64(len(c.payload)) && !w.sendFragment(r, c, int(k)) {
			return // over the repair budget
		}
	}
}

func (w *Writer) find(sn SequenceNumber) *change {
	i, ok := slices.BinarySearchFunc(w.history, sn, func(c change, sn SequenceNumber) int { return cmp.Compare(c.sn, sn) })
	if !ok {
		return nil
	}
	return &w.history[i]
}
