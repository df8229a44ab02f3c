package rtps

// Discovery: SPDP (participants announce themselves and are dropped when
// their lease ends) and SEDP (their endpoints, matched to ours by topic,
// type and QoS). The participant's sockets, timers and message handling
// are in participant.go.

import (
	"net/netip"
	"time"
)

// spdpTargets is where announcements go: the multicast group, each
// peer's probed ports, and every known participant.
func (p *Participant) spdpTargets() []netip.AddrPort {
	var to []netip.AddrPort
	if p.cfg.Multicast {
		to = append(to, netip.AddrPortFrom(SPDPMulticastAddr, uint16(p.ports.SPDPMulticast())))
	}
	for _, a := range p.cfg.Peers {
		for id := 0; id <= p.cfg.MaxPeerID; id++ {
			port := Ports{Domain: p.cfg.Domain, Participant: id}.MetaUnicast()
			if a == p.cfg.Addr && port == p.ports.MetaUnicast() {
				continue
			}
			to = append(to, netip.AddrPortFrom(a, uint16(port)))
		}
	}
	for _, r := range p.remotes {
		to = append(to, r.meta...)
	}
	return to
}

func (p *Participant) spdpData() *ParticipantData {
	user := UDPv4(netip.AddrPortFrom(p.cfg.Addr, uint16(p.ports.UserUnicast())))
	meta := UDPv4(netip.AddrPortFrom(p.cfg.Addr, uint16(p.ports.MetaUnicast())))
	d := &ParticipantData{
		GUID: p.guid, DomainID: uint32(p.cfg.Domain), HasDomainID: true,
		MetaUnicast: []Locator{meta}, DefaultUnicast: []Locator{user},
		BuiltinEndpoints: BuiltinParticipantAnnouncer | BuiltinParticipantDetector | BuiltinPublicationsAnnouncer |
			BuiltinPublicationsDetector | BuiltinSubscriptionsAnnouncer | BuiltinSubscriptionsDetector,
		LeaseDuration: p.cfg.LeaseDuration, UserData: p.cfg.UserData, EntityName: p.cfg.Name,
	}
	if p.cfg.Multicast {
		d.MetaMulticast = []Locator{UDPv4(netip.AddrPortFrom(SPDPMulticastAddr, uint16(p.ports.SPDPMulticast())))}
	}
	return d
}

// sendSPDP sends the participant's announcement (a best-effort, stateless
// writer: §8.5.3).
func (p *Participant) sendSPDP(to []netip.AddrPort) {
	p.spdpSN++
	m := p.startMessage(GuidPrefix{})
	m.Data(&Data{Reader: EntitySPDPReader, Writer: EntitySPDPWriter, SN: p.spdpSN, Payload: p.spdpData().Marshal(nil)})
	p.send(m, to)
}

// onSPDP takes a participant's announcement: a new participant is
// answered at once and matched with the SEDP endpoints.
func (p *Participant) onSPDP(now time.Time, src GuidPrefix, d *Data) {
	if d.Payload == nil {
		// it is leaving; only a participant itself may say so
		if k, ok := d.InlineQoS.KeyHash(); ok && k.Prefix == src && d.InlineQoS.StatusInfo() != 0 {
			p.dropParticipant(k.Prefix)
		}
		return
	}
	pd, err := DecodeParticipantData(d.Payload)
	if err != nil {
		p.stats.bad.Add(1)
		return
	}
	if pd.HasDomainID && pd.DomainID != uint32(p.cfg.Domain) || pd.GUID.Prefix == p.guid.Prefix {
		return
	}
	if r, ok := p.remotes[pd.GUID.Prefix]; ok {
		r.lastSeen = now
		return
	}
	if len(p.remotes) >= p.cfg.MaxParticipants {
		p.stats.ignored.Add(1)
		return
	}
	r := &remoteParticipant{data: pd, lastSeen: now, meta: addrs(pd.MetaUnicast), user: addrs(pd.DefaultUnicast)}
	if len(r.meta) == 0 {
		r.meta = addrs(pd.MetaMulticast)
	}
	p.remotes[pd.GUID.Prefix] = r
	p.cfg.Logf("rtps: participant %v (vendor %x) at %v", pd.GUID.Prefix, pd.Vendor, r.meta)
	p.sendSPDP(r.meta)
	sedp := QoS{Reliable, TransientLocal, KeepAll, 0}
	prefix := pd.GUID.Prefix
	if pd.BuiltinEndpoints&BuiltinPublicationsDetector != 0 {
		p.sedpPub.matchReader(GUID{prefix, EntitySEDPPubReader}, r.meta, sedp)
	}
	if pd.BuiltinEndpoints&BuiltinSubscriptionsDetector != 0 {
		p.sedpSub.matchReader(GUID{prefix, EntitySEDPSubReader}, r.meta, sedp)
	}
	if pd.BuiltinEndpoints&BuiltinPublicationsAnnouncer != 0 {
		p.readers[EntitySEDPPubReader].matchWriter(GUID{prefix, EntitySEDPPubWriter}, r.meta, sedp)
	}
	if pd.BuiltinEndpoints&BuiltinSubscriptionsAnnouncer != 0 {
		p.readers[EntitySEDPSubReader].matchWriter(GUID{prefix, EntitySEDPSubWriter}, r.meta, sedp)
	}
}

func addrs(ls []Locator) []netip.AddrPort {
	var a []netip.AddrPort
	for _, l := range ls {
		if ap, ok := l.AddrPort(); ok {
			a = append(a, ap)
		}
	}
	return a
}

// dropParticipant forgets a participant and everything of it.
func (p *Participant) dropParticipant(prefix GuidPrefix) {
	defer p.notify()
	delete(p.remotes, prefix)
	for _, w := range p.writers {
		for g := range w.readers {
			if g.Prefix == prefix {
				delete(w.readers, g)
			}
		}
	}
	for _, r := range p.readers {
		for g := range r.writers {
			if g.Prefix == prefix {
				r.dropWriter(g)
			}
		}
	}
	for g := range p.remoteWriters {
		if g.Prefix == prefix {
			delete(p.remoteWriters, g)
		}
	}
	for g := range p.remoteReaders {
		if g.Prefix == prefix {
			delete(p.remoteReaders, g)
		}
	}
}

// onSEDP takes an endpoint announcement (called with p.mu held).
func (p *Participant) onSEDP(s Sample, writer bool) {
	key, _ := s.Inline.KeyHash()
	if s.Payload == nil || s.Inline.StatusInfo()&(StatusDisposed|StatusUnregistered) != 0 {
		if key.Prefix == s.Writer.Prefix { // only a participant's own endpoints
			p.dropEndpoint(key, writer)
		}
		return
	}
	e, err := DecodeEndpointData(s.Payload, writer, key)
	if err != nil {
		p.stats.bad.Add(1)
		p.cfg.Logf("rtps: SEDP from %v: %v", s.Writer.Prefix, err)
		return
	}
	if e.GUID.Prefix != s.Writer.Prefix {
		p.stats.bad.Add(1)
		return
	}
	known := p.remoteReaders
	if writer {
		known = p.remoteWriters
	}
	if _, ok := known[e.GUID]; !ok && len(p.remoteWriters)+len(p.remoteReaders) >= p.cfg.MaxEndpoints {
		p.stats.ignored.Add(1)
		return
	}
	known[e.GUID] = &e
	p.cfg.Logf("rtps: remote %s %v %q %q %+v", map[bool]string{true: "writer", false: "reader"}[writer], e.GUID, e.Topic, e.Type, e.QoS)
	if writer {
		for _, r := range p.readers {
			if !r.internal {
				p.tryMatchReader(r, e.GUID, &e)
			}
		}
		return
	}
	for _, w := range p.writers {
		if !w.builtin {
			p.tryMatch(w, e.GUID, &e)
		}
	}
}

func (p *Participant) dropEndpoint(g GUID, writer bool) {
	defer p.notify()
	if writer {
		delete(p.remoteWriters, g)
		for _, r := range p.readers {
			r.dropWriter(g)
		}
		return
	}
	delete(p.remoteReaders, g)
	for _, w := range p.writers {
		delete(w.readers, g)
	}
}

// endpointAddrs is where a remote endpoint listens: its own locators, or
// its participant's defaults.
func (p *Participant) endpointAddrs(e *EndpointData) []netip.AddrPort {
	if a := addrs(e.Unicast); len(a) > 0 {
		return a
	}
	if r, ok := p.remotes[e.GUID.Prefix]; ok {
		return r.user
	}
	return nil
}

// tryMatch matches a local writer with a remote reader of the same topic
// and type whose QoS it satisfies.
func (p *Participant) tryMatch(w *Writer, g GUID, e *EndpointData) {
	if a := p.matchable(w.topic, w.typ, w.qos, e.QoS, e); a != nil {
		w.matchReader(g, a, e.QoS)
	}
}

// tryMatchReader matches a local reader with a remote writer.
func (p *Participant) tryMatchReader(r *Reader, g GUID, e *EndpointData) {
	if a := p.matchable(r.topic, r.typ, e.QoS, r.qos, e); a != nil {
		r.matchWriter(g, a, e.QoS)
	}
}

// matchable returns the remote endpoint e's addresses when it has the
// local one's topic and type and the writer's QoS w satisfies the
// reader's r; nil otherwise.
func (p *Participant) matchable(topic, typ string, w, r QoS, e *EndpointData) []netip.AddrPort {
	if e.Topic != topic || e.Type != typ {
		return nil
	}
	if !Compatible(w, r) {
		p.cfg.Logf("rtps: %q: writer offers %+v, reader requests %+v: %v not matched", topic, w, r, e.GUID)
		return nil
	}
	return p.endpointAddrs(e)
}
