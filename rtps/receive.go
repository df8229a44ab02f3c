// The receive path: datagrams read, their submessages decoded and
// handed to the readers and writers they are for, and the leases what a
// peer sends keeps.

package rtps

import (
	"errors"
	"net"
	"net/netip"
	"time"
)

// receive reads datagrams from c until it is closed.
func (p *Participant) receive(c *net.UDPConn) {
	defer p.wg.Done()
	r := newReceiver(c, 65536)
	for {
		b, from, err := r.read()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		p.Handle(time.Now(), b, from)
	}
}

// Handle takes one datagram received at now. Handle is what the receiving
// goroutines call; tests may call it with datagrams of their own.
func (p *Participant) Handle(now time.Time, b []byte, from netip.AddrPort) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.advance(now)
	p.handle(now, b, from)
	q := p.queue
	p.queue = p.queue[:0:0]
	p.mu.Unlock()
	for _, d := range q {
		d.f(d.s)
	}
}

func (p *Participant) handle(now time.Time, b []byte, from netip.AddrPort) {
	var ts Time
	var src GuidPrefix
	forUs, renews := true, false
	err := Parse(b, func(h Header, s Submessage) error {
		if h.Prefix == p.guid.Prefix {
			return errOwn // our own announcement, back by multicast
		}
		src = h.Prefix
		if !forUs && s.ID != SubInfoTS && s.ID != SubInfoDst {
			return nil // for another participant (INFO_DST)
		}
		var err error
		switch s.ID {
		case SubInfoTS:
			var t InfoTS
			t, err = DecodeInfoTS(s)
			ts = t.Time
		case SubInfoDst:
			var dst GuidPrefix
			dst, err = DecodeInfoDst(s)
			forUs = dst == GuidPrefix{} || dst == p.guid.Prefix
		case SubData:
			var d Data
			if d, err = DecodeData(s); err == nil && !p.forgedSEDP(h.Prefix, d.Writer, from) {
				p.sawSEDP(h.Prefix, d.Writer)
				p.onData(now, h, &d, ts, from)
			}
		case SubDataFrag:
			var f DataFrag
			if f, err = DecodeDataFrag(s); err == nil && !p.forgedSEDP(h.Prefix, f.Writer, from) {
				p.eachReader(GUID{h.Prefix, f.Writer}, f.Reader, func(r *Reader, w *writerProxy) { r.onDataFrag(w, &f, ts) })
			}
		case SubHeartbeat:
			var hb Heartbeat
			if hb, err = DecodeHeartbeat(s); err == nil && !p.forgedSEDP(h.Prefix, hb.Writer, from) {
				p.sawSEDP(h.Prefix, hb.Writer)
				p.eachReader(GUID{h.Prefix, hb.Writer}, hb.Reader, func(r *Reader, w *writerProxy) { r.onHeartbeat(w, &hb) })
			}
		case SubGap:
			var g Gap
			if g, err = DecodeGap(s); err == nil && !p.forgedSEDP(h.Prefix, g.Writer, from) {
				p.eachReader(GUID{h.Prefix, g.Writer}, g.Reader, func(r *Reader, w *writerProxy) { r.onGap(w, &g) })
			}
		case SubAckNack:
			var a AckNack
			if a, err = DecodeAckNack(s); err == nil && !p.forgedSEDP(h.Prefix, a.Reader, from) {
				p.sawSEDP(h.Prefix, a.Reader)
				if w, ok := p.writers[a.Writer]; ok {
					w.onAckNack(GUID{h.Prefix, a.Reader}, &a)
					if _, matched := w.readers[GUID{h.Prefix, a.Reader}]; matched && !w.builtin {
						p.useful(GUID{h.Prefix, a.Reader})
					}
				}
			}
		case SubNackFrag:
			var n NackFrag
			if n, err = DecodeNackFrag(s); err == nil && !p.forgedSEDP(h.Prefix, n.Reader, from) {
				if w, ok := p.writers[n.Writer]; ok {
					w.onNackFrag(GUID{h.Prefix, n.Reader}, &n)
				}
			}
		}
		if err != nil {
			p.stats.bad.Add(1)
		} else if renewsLease(s) {
			renews = true
		}
		return nil
	})
	if err != nil && err != errOwn {
		p.stats.bad.Add(1)
	}
	if renews {
		p.renew(now, src, from)
	}
}

// renewsLease says whether a decoded submessage keeps its sender's lease
// (renew): what its writers send (DATA, DATA_FRAG, HEARTBEAT,
// HEARTBEAT_FRAG, GAP), as Cyclone DDS renews on, and an ACKNACK that
// only acknowledges, as a reader that keeps up sends. One that asks for
// repairs renews nothing: a reader NACKing without end (an ACKNACK storm,
// internal/ddsattack) must not outlive its last announcement, or it
// takes the repairs' share of the egress budget for good and new peers
// never match (cmd/frcd TestROS2AckNackStorm).
func renewsLease(s Submessage) bool {
	switch s.ID {
	case SubData, SubDataFrag, SubHeartbeat, SubHeartbeatFrag, SubGap:
		return true
	case SubAckNack:
		a, err := DecodeAckNack(s)
		if err != nil {
			return false
		}
		for _, w := range a.State.Bits[:(min(a.State.NumBits, MaxSeqSetBits)+31)/32] {
			if w != 0 {
				return false
			}
		}
		return true
	}
	return false
}

// renew keeps a known participant's lease on what it sends from its own
// address (renewsLease), as Cyclone DDS renews a proxy participant's lease on
// its writers' data and heartbeats (0.10.2 q_receive.c lease_renew): its
// SPDP announcements alone come every lease less 2 s (Cyclone: 8 s of
// 10 s), so one lost announcement expired a live peer and dropped its
// readers in the middle of a stream (TestReliableUnderLossLikeCyclone at
// 20 % loss, once in about 20 runs: the reader never got the last
// sample). A message from another address (any host may write a
// prefix) keeps nothing.
func (p *Participant) renew(now time.Time, prefix GuidPrefix, from netip.AddrPort) {
	if r, ok := p.remotes[prefix]; ok && p.sentBy(r, from.Addr()) {
		r.lastSeen = now
	}
}

var errOwn = errors.New("own message")

// eachReader calls f for the local readers matched with writer: reader
// alone when it is not ENTITYID_UNKNOWN.
func (p *Participant) eachReader(writer GUID, reader EntityID, f func(*Reader, *writerProxy)) {
	if reader != EntityUnknown {
		if r, ok := p.readers[reader]; ok {
			if w, ok := r.writers[writer]; ok {
				f(r, w)
			}
		}
		return
	}
	for _, r := range p.readers {
		if w, ok := r.writers[writer]; ok {
			f(r, w)
		}
	}
}

func (p *Participant) onData(now time.Time, h Header, d *Data, ts Time, from netip.AddrPort) {
	src := h.Prefix
	if d.Writer == EntitySPDPWriter {
		p.onSPDP(now, src, from, d)
		return
	}
	p.eachReader(GUID{src, d.Writer}, d.Reader, func(r *Reader, w *writerProxy) {
		if !r.internal {
			p.useful(w.guid)
		}
		r.onData(w, &Sample{Writer: w.guid, SN: d.SN, Time: ts, Payload: d.Payload, Inline: d.InlineQoS, Vendor: h.Vendor})
	})
}
