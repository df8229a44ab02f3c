package rtps

import (
	"context"
	"errors"
)

// Deleting a local endpoint from discovery, and bringing it back.
//
// DDSI-RTPS 2.3 §8.5.4 (SEDP) and §9.6.3.9: SEDP's writers publish each local
// endpoint as an instance of DCPSPublication or DCPSSubscription keyed by
// its GUID; deleting the endpoint disposes and unregisters its instance:
// a DATA with inline QoS PID_KEY_HASH (the endpoint's GUID) and
// PID_STATUS_INFO disposed|unregistered (sent big endian), and no payload.
// Cyclone DDS makes the key's PID_ENDPOINT_GUID from the key hash
// (ddsi_serdata_plist.c serdata_plist_from_keyhash) and, on those status
// bits, deletes its proxy writer or reader (ddsi_discovery.c handle_sedp
// → handle_sedp_dead_endpoint → delete_proxy_writer / delete_proxy_reader),
// which takes the DCPSPublication / DCPSSubscription instance to
// NOT_ALIVE; Participant.leave sends the same for every endpoint when the
// participant closes. A peer whose SEDP reader missed it gets it as a
// repair: the SEDP writers are reliable and keep it.
//
// The SEDP writers' history holds one change per local endpoint (each
// endpoint one instance, as Cyclone's keep-last-1 SEDP writers keep them):
// withdrawing replaces the endpoint's announcement with its disposal,
// restoring the disposal with a new announcement (a reader that asks for
// the removed one gets a GAP). So the history stays bounded by the
// endpoints the participant ever made, whatever the withdraws and
// restores, and never drops a live endpoint's announcement for them.

// errBuiltin refuses to withdraw a builtin (SEDP) endpoint.
var errBuiltin = errors.New("rtps: a builtin endpoint cannot be withdrawn")

// Withdraw deletes the writer from discovery: SEDP announces its disposal,
// its matched readers are dropped, it is matched with no new reader and
// sends nothing (no sample, heartbeat or repair); what is written to it
// meanwhile is dropped when Restore brings it back. Nothing when it is
// withdrawn already.
func (w *Writer) Withdraw() error {
	p := w.p
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.closed:
		return ErrClosed
	case w.builtin:
		return errBuiltin
	case p.writers[w.guid.Entity] != w:
		return nil
	}
	delete(p.writers, w.guid.Entity)
	clear(w.readers)
	p.withdrawEndpoint(p.sedpPub, w.guid, true, EndpointData{GUID: w.guid, Participant: p.guid, Topic: w.topic, Type: w.typ, QoS: w.qos})
	p.notify()
	return nil
}

// Restore announces a withdrawn writer again, under its GUID, with what
// it was announced with (topic, type, QoS, USER_DATA), and matches it with
// the remote readers known; its history starts empty. Nothing when it is
// not withdrawn.
func (w *Writer) Restore() error {
	p := w.p
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.closed:
		return ErrClosed
	case p.writers[w.guid.Entity] == w || w.builtin:
		return nil
	}
	w.history = w.history[:0]
	p.writers[w.guid.Entity] = w
	p.restoreEndpoint(p.sedpPub, w.guid)
	for g, e := range p.remoteReaders {
		p.tryMatch(w, g, e)
	}
	return nil
}

// Withdrawn says whether the writer is withdrawn (Withdraw, not Restored).
func (w *Writer) Withdrawn() bool {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	return !w.builtin && w.p.writers[w.guid.Entity] != w
}

// Withdraw deletes the reader from discovery: SEDP announces its
// disposal, its matched writers are dropped, it is matched with no new
// writer, and nothing reaches its handler (no sample, and no ACKNACK goes
// out). Nothing when it is withdrawn already.
func (r *Reader) Withdraw() error {
	p := r.p
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.closed:
		return ErrClosed
	case r.internal:
		return errBuiltin
	case p.readers[r.guid.Entity] != r:
		return nil
	}
	delete(p.readers, r.guid.Entity)
	for g := range r.writers {
		r.dropWriter(g)
	}
	p.withdrawEndpoint(p.sedpSub, r.guid, false, EndpointData{GUID: r.guid, Participant: p.guid, Topic: r.topic, Type: r.typ, QoS: r.qos})
	p.notify()
	return nil
}

// Restore announces a withdrawn reader again (as Writer.Restore) and
// matches it with the remote writers known.
func (r *Reader) Restore() error {
	p := r.p
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.closed:
		return ErrClosed
	case p.readers[r.guid.Entity] == r || r.internal:
		return nil
	}
	p.readers[r.guid.Entity] = r
	p.restoreEndpoint(p.sedpSub, r.guid)
	for g, e := range p.remoteWriters {
		p.tryMatchReader(r, g, e)
	}
	return nil
}

// Withdrawn says whether the reader is withdrawn.
func (r *Reader) Withdrawn() bool {
	r.p.mu.Lock()
	defer r.p.mu.Unlock()
	return !r.internal && r.p.readers[r.guid.Entity] != r
}

// withdrawEndpoint replaces local endpoint g's announcement in SEDP
// writer sedp's history with its disposal, keeping what it announced
// (its announcement decoded; else known, without USER_DATA) for
// restoreEndpoint. p.mu held.
func (p *Participant) withdrawEndpoint(sedp *Writer, g GUID, writer bool, known EndpointData) {
	e := &known
	for i := range sedp.history {
		c := &sedp.history[i]
		if c.payload == nil {
			continue
		}
		if d, err := DecodeEndpointData(c.payload, writer, GUID{}); err == nil && d.GUID == g {
			e = &d
			sedp.history = append(sedp.history[:i], sedp.history[i+1:]...)
			break
		}
	}
	if p.withdrawn == nil {
		p.withdrawn = map[GUID]*EndpointData{}
	}
	p.withdrawn[g] = e
	sedp.add(nil, KeyHashList(g, StatusDisposed|StatusUnregistered))
}

// restoreEndpoint replaces endpoint g's disposal in sedp's history with
// a new announcement of what it announced before. p.mu held.
func (p *Participant) restoreEndpoint(sedp *Writer, g GUID) {
	for i := range sedp.history {
		c := &sedp.history[i]
		if k, ok := c.inline.KeyHash(); ok && c.payload == nil && k == g {
			sedp.history = append(sedp.history[:i], sedp.history[i+1:]...)
			break
		}
	}
	e := p.withdrawn[g]
	delete(p.withdrawn, g)
	if e != nil {
		p.announce(sedp, e)
	}
}

// WaitMatchedAtMost waits until at most n remote readers are matched to
// the writer (as when a peer's reader is withdrawn or deleted), or ctx
// ends.
func (w *Writer) WaitMatchedAtMost(ctx context.Context, n int) error {
	return w.p.waitFor(ctx, func() bool { return len(w.readers) <= n })
}
