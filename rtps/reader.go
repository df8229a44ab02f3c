package rtps

import (
	"context"
	"net/netip"
)

// Sample is one sample a Reader received.
type Sample struct {
	Writer  GUID
	SN      SequenceNumber
	Time    Time   // the writer's source timestamp (INFO_TS), zero if none
	Payload []byte // the serialized payload with its encapsulation header; the reader's to keep
	Inline  ParamList
	Vendor  VendorID // the implementation that sent it (its message header), for conventions that differ
}

// Limits of a reader's state per matched writer.
const (
	// maxPending bounds the samples a reliable reader holds while it waits
	// for a missing one.
	maxPending = 256
	// maxReassembling bounds the fragmented samples in progress per writer.
	maxReassembling = 4
)

// writerProxy is a matched remote writer (§8.4.10.4 WriterProxy).
type writerProxy struct {
	guid     GUID
	addrs    []netip.AddrPort
	reliable bool
	next     SequenceNumber // the next number to deliver
	pending  map[SequenceNumber]*Sample
	ackCount int32
	hbCount  int32
	// nackFragCount counts NACK_FRAGs sent.
	nackFragCount int32
	heard         bool // a heartbeat came
	frags         map[SequenceNumber]*reassembly
}

// reassembly is a fragmented sample being put together.
type reassembly struct {
	buf    []byte
	have   []bool
	left   int
	inline ParamList
	time   Time
}

// Reader is a local DataReader: a stateful RTPS reader (§8.4.12) that
// delivers each writer's samples in order, once, to its handler.
type Reader struct {
	p       *Participant
	guid    GUID
	topic   string
	typ     string
	qos     QoS
	handler func(Sample)
	// internal: an SEDP reader's handler, called with p.mu held.
	internal bool
	writers  map[GUID]*writerProxy
}

// GUID is the reader's GUID.
func (r *Reader) GUID() GUID { return r.guid }

// Topic is the reader's topic.
func (r *Reader) Topic() string { return r.topic }

// Matched is the number of remote writers matched to the reader.
func (r *Reader) Matched() int {
	r.p.mu.Lock()
	defer r.p.mu.Unlock()
	return len(r.writers)
}

// matchWriter adds or updates a remote writer. The caller holds p.mu.
func (r *Reader) matchWriter(guid GUID, addrs []netip.AddrPort, q QoS) {
	if w, ok := r.writers[guid]; ok {
		w.addrs = addrs
		return
	}
	r.writers[guid] = &writerProxy{guid: guid, addrs: addrs, reliable: q.Reliability == Reliable && r.qos.Reliability == Reliable,
		next: 1, pending: map[SequenceNumber]*Sample{}, frags: map[SequenceNumber]*reassembly{}}
	r.p.notify()
}

// WaitMatched waits until at least n remote writers are matched, or ctx
// ends.
func (r *Reader) WaitMatched(ctx context.Context, n int) error {
	return r.p.waitFor(ctx, func() bool { return len(r.writers) >= n })
}

// deliver hands s on: at once for an SEDP reader, after the lock for a
// user's.
func (r *Reader) deliver(s *Sample) {
	if r.internal {
		r.handler(*s)
		return
	}
	s.Payload = unpadPayload(append([]byte(nil), s.Payload...))
	s.Inline.b = append([]byte(nil), s.Inline.b...)
	r.p.queue = append(r.p.queue, delivery{r.handler, *s})
}

// onData takes a sample from w.
func (r *Reader) onData(w *writerProxy, s *Sample) {
	if !w.reliable {
		if s.SN >= w.next { // best effort: in order, late ones dropped
			w.next = s.SN + 1
			r.deliver(s)
		}
		return
	}
	switch {
	case s.SN < w.next:
		return // a duplicate
	case s.SN == w.next:
		w.next++
		r.deliver(s)
		r.drain(w)
	case s.SN < w.next+maxPending:
		if _, ok := w.pending[s.SN]; !ok {
			c := *s
			c.Payload = append([]byte(nil), s.Payload...)
			w.pending[s.SN] = &c
		}
	default:
		r.p.stats.dropped.Add(1) // too far ahead: it comes again after the ACKNACK
	}
}

// drain delivers the pending samples that are now next.
func (r *Reader) drain(w *writerProxy) {
	for {
		s, ok := w.pending[w.next]
		if !ok {
			return
		}
		delete(w.pending, w.next)
		w.next++
		if s != nil {
			r.deliver(s)
		}
	}
}

// skipTo moves next to sn, dropping what is pending below it.
func (r *Reader) skipTo(w *writerProxy, sn SequenceNumber) {
	if sn <= w.next {
		return
	}
	for k := range w.pending {
		if k < sn {
			delete(w.pending, k)
		}
	}
	for k, a := range w.frags {
		if k < sn {
			r.p.reassemblyBytes -= len(a.buf)
			delete(w.frags, k)
		}
	}
	w.next = sn
	r.drain(w)
}

// onGap marks numbers irrelevant (§8.3.7.4).
func (r *Reader) onGap(w *writerProxy, g *Gap) {
	if !w.reliable {
		return
	}
	if g.Start <= w.next {
		r.skipTo(w, g.List.Base)
	} else {
		for sn := g.Start; sn < g.List.Base && sn < w.next+maxPending; sn++ {
			w.pending[sn] = nil
		}
	}
	for i := uint32(0); i < g.List.NumBits; i++ {
		sn := g.List.Base + SequenceNumber(i)
		if g.List.Has(sn) && sn >= w.next && sn < w.next+maxPending {
			if _, ok := w.pending[sn]; !ok {
				w.pending[sn] = nil
			}
		}
	}
	r.drain(w)
}

// onHeartbeat answers a writer's HEARTBEAT with an ACKNACK of what is
// missing (§8.4.12.1.3).
func (r *Reader) onHeartbeat(w *writerProxy, h *Heartbeat) {
	if !w.reliable || (w.heard && h.Count <= w.hbCount) {
		return
	}
	w.heard, w.hbCount = true, h.Count
	r.skipTo(w, h.First) // what the writer no longer has is lost
	a := AckNack{Reader: r.guid.Entity, Writer: w.guid.Entity, State: SeqSet{Base: w.next}, Final: true}
	for sn := w.next; sn <= h.Last && sn < w.next+MaxSeqSetBits; sn++ {
		if _, ok := w.pending[sn]; !ok && !r.reassembling(w, sn) {
			a.State.Add(sn)
		}
	}
	m := r.p.startMessage(w.guid.Prefix)
	// The fragments missing of a sample being put together, NACK_FRAG'd
	// (§8.4.12.1.4?), at most 256 from the first missing.
	nacked := false
	for sn, f := range w.frags {
		if sn > h.Last {
			continue
		}
		n := NackFrag{Reader: r.guid.Entity, Writer: w.guid.Entity, SN: sn}
		for k, have := range f.have {
			if have {
				continue
			}
			if n.State.Base == 0 {
				n.State.Base = SequenceNumber(k + 1)
			}
			if !n.State.Add(SequenceNumber(k + 1)) {
				break
			}
		}
		if n.State.Base != 0 {
			w.nackFragCount++
			n.Count = w.nackFragCount
			m.NackFrag(&n)
			nacked = true
		}
	}
	if a.State.NumBits > 0 || !h.Final {
		w.ackCount++
		a.Count = w.ackCount
		m.AckNack(&a)
	} else if !nacked {
		return // nothing missing and no answer asked
	}
	r.p.send(m, w.addrs)
}

func (r *Reader) reassembling(w *writerProxy, sn SequenceNumber) bool {
	_, ok := w.frags[sn]
	return ok
}

// onDataFrag adds fragments; a complete sample goes on as a DATA.
func (r *Reader) onDataFrag(w *writerProxy, f *DataFrag, t Time) {
	if f.SN < w.next {
		return
	}
	if f.SampleSize > uint32(r.p.cfg.MaxSampleSize) {
		// Never to be taken: counted once, then skipped as if the writer
		// had sent a GAP, so that a reliable reader does not wait for it.
		if _, seen := w.pending[f.SN]; !seen && f.SN < w.next+maxPending {
			r.p.stats.dropped.Add(1)
			w.pending[f.SN] = nil
			r.drain(w)
		}
		return
	}
	a, ok := w.frags[f.SN]
	if !ok {
		if len(w.frags) >= maxReassembling || r.p.reassemblyBytes+int(f.SampleSize) > r.p.cfg.MaxReassembly {
			r.p.stats.dropped.Add(1)
			return
		}
		n := (int(f.SampleSize) + int(f.FragSize) - 1) / int(f.FragSize)
		a = &reassembly{buf: make([]byte, f.SampleSize), have: make([]bool, n), left: n}
		w.frags[f.SN] = a
		r.p.reassemblyBytes += int(f.SampleSize)
	}
	if len(a.buf) != int(f.SampleSize) {
		return // a writer changing a sample's size: ignore the fragment
	}
	if f.InlineQoS.b != nil {
		a.inline = ParamList{b: append([]byte(nil), f.InlineQoS.b...), order: f.InlineQoS.order}
	}
	if t != (Time{}) {
		a.time = t
	}
	for i := 0; i < int(f.FragsInSub); i++ {
		k := int(f.FragStart) - 1 + i
		start := k * int(f.FragSize)
		if k >= len(a.have) || i*int(f.FragSize) >= len(f.Payload) {
			break
		}
		src := f.Payload[i*int(f.FragSize) : min(len(f.Payload), (i+1)*int(f.FragSize))]
		if !a.have[k] && start+len(src) <= len(a.buf) {
			copy(a.buf[start:], src)
			a.have[k] = true
			a.left--
		}
	}
	if a.left > 0 {
		return
	}
	delete(w.frags, f.SN)
	r.p.reassemblyBytes -= len(a.buf)
	r.onData(w, &Sample{Writer: w.guid, SN: f.SN, Time: a.time, Payload: a.buf, Inline: a.inline})
}

// dropWriter forgets a writer (its participant left or it was disposed).
func (r *Reader) dropWriter(g GUID) {
	if w, ok := r.writers[g]; ok {
		for _, a := range w.frags {
			r.p.reassemblyBytes -= len(a.buf)
		}
		delete(r.writers, g)
	}
}
